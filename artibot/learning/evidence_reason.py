"""A threshold step of the evidence learner in a user's words (split from
:mod:`artibot.learning.evidence`, which says each change this way at checkpoint 2): a
:class:`~artibot.messages.Message` the command line says in the session's language, and its
English sentence, which a round keeps in its ``reason`` fields."""

from __future__ import annotations

from typing import Any, Mapping

from artibot.learning.objective import SOURCES
from artibot.learning.types import DEFAULT_KEY
from artibot.messages import Message


def reason(name: str, gain: float, sd: float, price: float, source: str, old: float, new: float,
           per_100: tuple[float, float] | None = None) -> str:
    """The change in the terms of the decision: System 2's gain where the routing would
    change, against its price, and the way the threshold goes because of it.

    The numbers are printed with as many decimals as it takes for the comparison said to be
    the one a reader sees (0.08 against 0.08 becomes 0.081 against 0.080), and a move that
    goes against the comparison says why.

    >>> reason("law", 0.14, 0.05, 0.1, "estimated", 0.4, 0.3)
    "law: System 2's gain 0.14 ± 0.05 is above its price 0.10 (estimated) → more System 2: threshold 0.40 → 0.30"
    >>> reason("*", 0.06, 0.02, 0.09, "system2Cost", 0.4, 0.5)
    "default: System 2's gain 0.06 ± 0.02 is below its price 0.09 (system2Cost) → more System 1: threshold 0.40 → 0.50"
    >>> reason("law", 0.0812, 0.04, 0.0796, "estimated", 0.4, 0.4)
    "law: System 2's gain 0.081 ± 0.04 is above its price 0.080 (estimated) → threshold stays 0.40: no threshold within reach is surely better"
    >>> reason("law", 0.25, 0.05, 0.4, "cost", 0.4, 0.5)
    'law: System 1 fails 0.25 ± 0.05 of these turns, which is below the break-even 0.40 (cost: a failure costs a retry at System 2 and a redo) → more System 1: threshold 0.40 → 0.50'
    >>> reason("law", 0.25, 0.05, 0.4, "cost", 0.4, 0.5, (-1.234, 6.0)).split(" → ")[-1]
    '0.50; per 100 of its turns: $1.23 less, 6.0 more redos'
    >>> reason("law", 0.05, 0.05, 0.05, "estimated", 0.4, 0.4)
    "law: System 2's gain 0.05 ± 0.05 equals its price 0.05 (estimated) → threshold stays 0.40"
    """
    return str(reason_message(name, gain, sd, price, source, old, new, per_100))


def reason_message(name: str, gain: float, sd: float, price: float, source: str, old: float, new: float,
                   per_100: tuple[float, float] | None = None) -> Message:
    """:func:`reason` as a :class:`~artibot.messages.Message`, to be said in any language."""
    where = "default" if name == DEFAULT_KEY else name  # the one name of the fallback threshold
    nd = next((d for d in (2, 3, 4) if f"{gain:.{d}f}" != f"{price:.{d}f}"), None)
    shown = 2 if nd is None else nd
    side = "equal" if nd is None else ("above" if gain > price else "below")
    said_source: str | Message = Message(f"price_source.{source}") if source in SOURCES else source
    compared = Message("threshold.failure" if source == "cost" else "threshold.gain", where=where,
                       gain=f"{gain:.{shown}f}", sd=sd, price=f"{price:.{shown}f}", source=said_source,
                       side=Message(f"threshold.gain.{side}"))
    if new < old - 1e-9:
        move = Message("threshold.more_system2", old=old, new=new)
        if side != "above":  # the best threshold over the whole curve, not this region's mean
            compared = Message("threshold.yet_lower", compared=compared)
    elif new > old + 1e-9:
        move = Message("threshold.more_system1", old=old, new=new)
        if side != "below":
            compared = Message("threshold.yet_higher", compared=compared)
    else:
        move = Message("threshold.stays" if side == "equal" else "threshold.stays_unsure", old=old)
    if per_100 is not None:
        move = Message("threshold.with_terms", move=move, terms=per_100_message(*per_100))
    return Message("threshold.reason", compared=compared, move=move)


def row_message(row: Mapping[str, Any]) -> Message | None:
    """The reason of a checkpoint-2 row (:mod:`artibot.round.checkpoint_evidence`) from the
    numbers the row keeps beside its English ``reason``; None for a row without them (a
    round saved before they were kept, or a step of the seed learner)."""
    numbers = [row.get(k) for k in ("gain", "sd", "price", "old", "new")]
    if not all(isinstance(v, (int, float)) for v in numbers) or not isinstance(row.get("domain"), str):
        return None
    gain, sd, price, old, new = (float(v) for v in numbers)  # type: ignore[arg-type]
    usd, redos = row.get("usd_per_100"), row.get("redos_per_100")
    per_100 = (float(usd), float(redos)) if isinstance(usd, (int, float)) and isinstance(redos, (int, float)) else None
    return reason_message(row["domain"], gain, sd, price, str(row.get("source")), old, new, per_100)


def in_person_terms(usd: float, redos: float) -> str:
    """A step per 100 of the domain's turns: the bill's change and the redos'.

    >>> in_person_terms(0.5, -2.04)
    'per 100 of its turns: $0.50 more, 2.0 fewer redos'
    >>> in_person_terms(-0.004, 0.6)  # a change that rounds to nothing is not called less or more
    'per 100 of its turns: the same bill to the cent, 0.6 more redos'
    """
    return str(per_100_message(usd, redos))


def per_100_message(usd: float, redos: float) -> Message:
    bill = (Message("per100.bill_same") if f"{abs(usd):.2f}" == "0.00"
            else Message("per100.bill_less" if usd < 0 else "per100.bill_more", usd=abs(usd)))
    again = (Message("per100.redos_same") if f"{abs(redos):.1f}" == "0.0"
             else Message("per100.redos_fewer" if redos < 0 else "per100.redos_more", n=abs(redos)))
    return Message("per100", bill=bill, redos=again)
