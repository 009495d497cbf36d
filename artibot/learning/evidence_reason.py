"""A threshold step of the evidence learner in a user's words (split from
:mod:`artibot.learning.evidence`, which says each change this way at checkpoint 2)."""

from __future__ import annotations

from artibot.learning.types import DEFAULT_KEY


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
    where = "default" if name == DEFAULT_KEY else name  # the one name of the fallback threshold
    nd = next((d for d in (2, 3, 4) if f"{gain:.{d}f}" != f"{price:.{d}f}"), None)
    shown = 2 if nd is None else nd
    g, p = f"{gain:.{shown}f}", f"{price:.{shown}f}"
    side = "equals" if nd is None else ("is above" if gain > price else "is below")
    if source == "cost":  # the cost objective: System 1's failure rate against the break-even rate
        compared = f"{where}: System 1 fails {g} ± {sd:.2f} of these turns, which {side} " \
                   f"the break-even {p} ({source}: a failure costs a retry at System 2 and a redo)"
    else:
        compared = f"{where}: System 2's gain {g} ± {sd:.2f} {side} its price {p} ({source})"
    if new < old - 1e-9:
        move = f"more System 2: threshold {old:.2f} → {new:.2f}"
        if side != "is above":  # the best threshold over the whole curve, not this region's mean
            compared += ", yet a lower threshold pays more over the domain's whole curve"
    elif new > old + 1e-9:
        move = f"more System 1: threshold {old:.2f} → {new:.2f}"
        if side != "is below":
            compared += ", yet a higher threshold pays more over the domain's whole curve"
    else:
        move = f"threshold stays {old:.2f}"
        if side != "equals":
            move += ": no threshold within reach is surely better"
    if per_100 is not None:
        move += "; " + in_person_terms(*per_100)
    return f"{compared} → {move}"


def in_person_terms(usd: float, redos: float) -> str:
    """A step per 100 of the domain's turns: the bill's change and the redos'.

    >>> in_person_terms(0.5, -2.04)
    'per 100 of its turns: $0.50 more, 2.0 fewer redos'
    >>> in_person_terms(-0.004, 0.6)  # a change that rounds to nothing is not called less or more
    'per 100 of its turns: the same bill to the cent, 0.6 more redos'
    """
    bill = ("the same bill to the cent" if f"{abs(usd):.2f}" == "0.00"
            else f"${abs(usd):.2f} " + ("less" if usd < 0 else "more"))
    again = ("the same redos" if f"{abs(redos):.1f}" == "0.0"
             else f"{abs(redos):.1f} " + ("fewer" if redos < 0 else "more") + " redos")
    return f"per 100 of its turns: {bill}, {again}"

