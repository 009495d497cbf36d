"""The checkpoints' words: titles, questions, options and their meanings, in every language
of the one catalogue (:mod:`artibot.messages`: ids ``checkpoint.N.title``,
``checkpoint.N.question``, ``checkpoint.N.CHOICE.label`` and ``.meaning``, ``checkpoint.3.mode.*``,
``checkpoint.direction.*``). :mod:`artibot.round.checkpoints` asks the questions and
``review --json`` gives them to ``/learn``; this is what they say.
"""

from __future__ import annotations

from artibot.learning.round_params import RoundParams
from artibot.messages import Message, render
from artibot.shapes import JsonValue


def _said(key: str, lang: str) -> str:
    return render(Message(f"checkpoint.{key}"), lang)


def title(n: int, lang: str = "en") -> str:
    """Checkpoint ``n``'s title: which step it follows."""
    return _said(f"{n}.title", lang)


def question(n: int, lang: str = "en") -> str:
    """The question checkpoint ``n`` asks."""
    return _said(f"{n}.question", lang)


def explain(n: int, lang: str = "en") -> str:
    """What checkpoint ``n``'s evidence is (checkpoint 1: what a group is)."""
    return _said(f"{n}.explain", lang)


def option(n: int, choice: str, lang: str = "en") -> tuple[str, str]:
    """An answer to checkpoint ``n``: its label and what it means."""
    return _said(f"{n}.{choice}.label", lang), _said(f"{n}.{choice}.meaning", lang)


def mode(name: str, lang: str = "en") -> tuple[str, str]:
    """A way to answer checkpoint 3 (auto, each, list): its label and what it means."""
    return _said(f"3.mode.{name}.label", lang), _said(f"3.mode.{name}.meaning", lang)


def pattern_option(choice: str, lang: str = "en") -> tuple[str, str]:
    """An answer for one pattern at checkpoint 3: ``auto`` is that pattern's automatic decision."""
    if choice == "auto":
        return _said("3.pattern.auto.label", lang), _said("3.pattern.auto.meaning", lang)
    return option(3, choice, lang)


def default_word(lang: str = "en") -> str:
    """The mark of the default option."""
    return _said("default", lang)


def direction(old: float, new: float, lang: str = "en") -> str:
    """A threshold's move in words: lower is more System 2."""
    if new < old - 1e-12:
        return _said("direction.down", lang)
    if new > old + 1e-12:
        return _said("direction.up", lang)
    return _said("direction.same", lang)


def _object(v: JsonValue) -> dict[str, JsonValue]:
    return v if isinstance(v, dict) else {}


def money_line(params: RoundParams) -> str | None:
    """The price in money, from the turns' measured costs (None before the gateway measured any).

    >>> from artibot.learning.objective import Price
    >>> measured = {"price": 0.044, "extra_usd": 0.031, "value_usd": 0.7, "turns": [40, 35]}
    >>> money_line(RoundParams(price=Price(0.06, "measured", None, measured)))
    'System 2 costs $0.031 more per turn (40 System 1 and 35 System 2 turns measured); at $0.70 per successful turn it pays where it wins by more than 0.044 (price in force 0.060)'
    """
    price = params.price
    measured = price.measured_cost if price is not None else None
    extra, value = (measured.get("extra_usd"), measured.get("value_usd")) if measured is not None else (None, None)
    turns = measured.get("turns") if measured is not None else None
    if isinstance(extra, (int, float)) and isinstance(value, (int, float)) and isinstance(turns, list) and value:
        n1, n2 = turns  # checked when the round was read (two counts)
        return (f"System 2 costs ${extra:.3f} more per turn ({n1} System 1 and {n2} System 2 turns measured); "
                f"at ${value:.2f} per successful turn it pays where it wins by more than "
                f"{max(extra / value, 0):.3f} (price in force {price.value if price else 0:.3f})")
    costs = params.checks.costs
    if costs is not None:
        s1, s2 = _object(costs.get("system1")), _object(costs.get("system2"))
        if s1.get("turns") and s2.get("turns"):
            return (f"measured cost per turn: System 1 ${s1['mean_usd']:.3f} ({s1['turns']} turns), System 2 "
                    f"${s2['mean_usd']:.3f} ({s2['turns']} turns); set learning.lifelong.successValueUsd to "
                    "price System 2 in money")
    return None
