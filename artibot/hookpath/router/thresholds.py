"""The routing thresholds as one value: the default and one learned threshold per domain.

Here, not in :mod:`artibot.learning`, because the router reads them on every prompt (in
the Claude Code hook, which imports no learning code and no numpy); the learner computes
new ones. ``from_json`` is the one decoder of ``thresholds.json``'s content.
"""

from __future__ import annotations

import math

from artibot.hookpath.frozen import factory, frozen

TYPE_CHECKING = False  # not typing's: the hook path's rules hold in this folder
if TYPE_CHECKING:
    from typing import Any, Mapping

    from artibot.shapes import ThresholdsJson

DEFAULT_KEY = "*"
"""The key under which the default threshold appears in steps and net changes."""


def domain_label(key: str) -> str:
    """How a person reads a threshold's key: the default threshold's ``"*"`` is ``default``.

    >>> domain_label(DEFAULT_KEY), domain_label("law")
    ('default', 'law')
    """
    return "default" if key == DEFAULT_KEY else key


def _fraction(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 1:
        raise ValueError(f"thresholds.{where} must be a finite number from 0 to 1, not {value!r}")
    return float(value)


@frozen
class Thresholds:
    """The default threshold and one learned threshold per domain (kept sorted by name).

    ``exploration``: per domain, the rate at which the router tries the other system away
    from the threshold, set by the evidence learner (empty: the configured
    ``domainExploration`` everywhere, as the seed's rule and files written before it have).
    It lives here because it is learned state the router reads with the thresholds, and
    is applied, reverted and rolled back with them.
    """

    default: float
    domains: Mapping[str, float] = factory(dict)
    exploration: Mapping[str, float] = factory(dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "default", float(self.default))
        object.__setattr__(self, "domains", {k: float(v) for k, v in sorted(self.domains.items())})
        object.__setattr__(self, "exploration", {k: float(v) for k, v in sorted(self.exploration.items())})

    def __hash__(self) -> int:
        return hash((self.default, tuple(self.domains.items()), tuple(self.exploration.items())))

    def for_domain(self, domain: str) -> float:
        return self.domains.get(domain, self.default)

    def to_json(self) -> ThresholdsJson:
        """The file's content; ``exploration`` only when learned (the older shape otherwise)."""
        out: ThresholdsJson = {"default": self.default, "domains": dict(self.domains)}
        if self.exploration:
            out["exploration"] = dict(self.exploration)
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Thresholds:
        """Raises ValueError naming the field when the shape is wrong.

        >>> Thresholds.from_json({"default": 0.4, "domains": {"law": 0.3}}).for_domain("law")
        0.3
        >>> Thresholds.from_json({"default": 2, "domains": {}})
        Traceback (most recent call last):
        ValueError: thresholds.default must be a finite number from 0 to 1, not 2
        """
        if not isinstance(d, dict):
            raise ValueError(f"thresholds must be a JSON object, not {type(d).__name__}")
        default = _fraction(d.get("default"), "default")
        domains = d.get("domains")
        if not isinstance(domains, dict):
            raise ValueError("thresholds.domains must be a JSON object")
        rates = d.get("exploration", {})
        if not isinstance(rates, dict):
            raise ValueError("thresholds.exploration must be a JSON object")
        return cls(default, {str(name): _fraction(value, f"domains.{name}") for name, value in domains.items()},
                   {str(name): _fraction(value, f"exploration.{name}") for name, value in rates.items()})
