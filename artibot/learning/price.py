"""The price of a System 2 call, decided in one place.

Utility per request is ``P(success) - price * [System 2]``. The price comes from the first of
these that applies (:func:`decide`), and its :class:`Price` says which (``source``):

1. ``system2Cost``: ``learning.lifelong.system2Cost``, a price set by hand;
2. ``targetSystem2Share``: the price at which the best thresholds would send that share of
   the traffic to System 2 (a budget);
3. ``measured``: from the turns' measured costs (``successValueUsd`` set, enough turns measured;
   :mod:`artibot.learning.costs`);
4. ``estimated``: System 2's average advantage in the logged traffic, stratified by (domain,
   complexity bin) and shrunk toward :data:`PRIOR_PRICE`
   (:func:`artibot.learning.pooling.estimated_price`).

:func:`in_force` is the same rule seen from outside a round (``artibot status``): the
configured price, else the one the last round of this mode decided, else the starting value.
This module imports no numpy until a round decides (the status command reads it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from artibot.settings import Settings
from artibot.shapes import JsonValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from artibot.learning.bandit import Fit
    from artibot.learning.costs import MeasuredPrice

SOURCES = ("system2Cost", "targetSystem2Share", "measured", "estimated")
PRIOR_PRICE = 0.05
"""The price before there is evidence (and the pull of a little evidence): the estimate's
starting value, toward which it is shrunk."""

MeasuredJSON = Mapping[str, JsonValue]


@dataclass(frozen=True)
class Price:
    """The price a round used and where it came from."""

    value: float
    source: str
    target_system2_share: float | None = None
    """The configured share, when there is one (the round records it whatever the source)."""
    measured_cost: MeasuredJSON | None = None
    """The measured costs the price came from (:meth:`artibot.learning.costs.MeasuredPrice.to_json`)."""

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"price: source must be one of {', '.join(SOURCES)}, not {self.source!r}")


def configured(settings: Settings) -> Price | None:
    """The price set by hand (``system2Cost``), which every other source gives way to."""
    cost = settings.lifelong.system2_cost
    return None if cost is None else Price(float(cost), "system2Cost", settings.lifelong.target_system2_share)


def decide(settings: Settings, fits: Mapping[str, Fit], cells: Mapping[str, np.ndarray], lo: float, hi: float,
           measured: MeasuredPrice | None = None) -> Price:
    """A round's price from the evidence it holds (``fits``, ``cells``: per domain) and, when
    measured, the turns' costs."""
    from artibot.learning import bandit, pooling
    from artibot.learning.bandit import N1, N2

    share = settings.lifelong.target_system2_share
    measured_json = measured.to_json() if measured is not None else None
    fixed = configured(settings)
    if fixed is not None:
        return Price(fixed.value, fixed.source, share, measured_json)
    if share is not None and fits:
        weights = {name: float(cells[name][:, [N1, N2]].sum()) for name in fits}
        return Price(bandit.price_for_share(fits, weights, share, lo, hi), "targetSystem2Share", share, measured_json)
    if measured is not None:
        return Price(measured.price, "measured", share, measured_json)
    return Price(pooling.estimated_price(cells), "estimated", share, measured_json)


def in_force(settings: Settings, last: Price | None) -> Price | None:
    """The price the learner uses now (None in seed mode): configured, else ``last`` (what the
    last round of this mode decided), else the estimate's starting value."""
    if settings.lifelong.mode == "seed":
        return None
    fixed = configured(settings)
    if fixed is not None:
        return fixed
    if last is not None:
        return last
    share = settings.lifelong.target_system2_share
    return Price(PRIOR_PRICE, "targetSystem2Share" if share is not None else "estimated", share)


__all__ = ["PRIOR_PRICE", "Price", "SOURCES", "configured", "decide", "in_force"]
