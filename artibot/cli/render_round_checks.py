"""Text of the checks before and after a change: the off-policy block under checkpoint 2 and the
validation report.

Each paragraph is a :class:`~artibot.cli.render.Hanging`: wrapped with a hanging indent in a
terminal, one line in a pipe.
"""

from __future__ import annotations

from typing import Any, Mapping

from artibot.cli.render import Hanging

METHOD_NAMES = {"dr": "doubly robust", "snips": "self-normalised IPS"}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _pts(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:+.1f}"


def offpolicy_block(op: Mapping[str, Any] | None, utility: Mapping[str, Any] | None = None) -> list[Hanging]:
    """The paragraphs printed under the checkpoint-2 table (plain words when the evidence is too thin);
    with ``utility`` (:func:`artibot.checkpoints.utility_check`), the value the learner optimises
    and what it means for the default answer."""
    if not op:
        return [Hanging("Off-policy check: not available for this round (prepared before artibot computed it).")]
    cur, new, diff = op["current"], op["proposed"], op["difference"]
    earlier = op.get("earlier") or 0
    head = f"Off-policy check, {op['n']:,} logged experiences" + (f" ({earlier:,} from earlier rounds)" if earlier else "")
    share = (f"System 2 share {_pct(cur['system2_share'])} -> {_pct(new['system2_share'])} "
             f"({_pts(diff['system2_share'])} points).")
    if op["verdict"] == "too_thin":
        return [Hanging(head + ":"), Hanging(f"{op['reason']}.", first="  success: ", indent="    "),
                Hanging(share, first="  ", indent="    ")]
    if op["verdict"] == "no_change":
        return [Hanging(head + ":"),
                Hanging(f"{op['reason']} (success {_pct(cur['success'])}, System 2 share "
                        f"{_pct(cur['system2_share'])}).", first="  ", indent="    ")]
    level = int(round(op["level"] * 100))
    lo, hi = op["interval"]

    def line(name: str, p: Mapping[str, Any]) -> Hanging:
        a, b = p["interval"]
        return Hanging(f"success {_pct(p['success'])} [{_pct(a)}, {_pct(b)}]   System 2 share "
                       f"{_pct(p['system2_share'])}", first=f"  {name:<10} ", indent=" " * 13)

    return [Hanging(f"{head}; {METHOD_NAMES.get(op['method'], op['method'])} estimates with {level}% intervals:"),
            line("current", cur), line("proposed", new),
            Hanging(f"success {_pts(diff['success'])} points [{_pts(lo)}, {_pts(hi)}]   System 2 share "
                    f"{_pts(diff['system2_share'])} points", first=f"  {'change':<10} ", indent=" " * 13),
            Hanging(f"{op['reason']}; effective sample size {op['ess']:,.0f}; {op['support']['proposed']} "
                    "explored on the new route where they differ.", first="  ", indent="  ")] + _utility_lines(utility)


def _utility_lines(u: Mapping[str, Any] | None) -> list[Hanging]:
    """What the learner optimises, success − price × System 2 share, and the default it implies."""
    if not u:
        return []

    def value(side: Mapping[str, Any], signed: bool = False) -> str:
        lo, hi = side["interval"]
        f = _pts if signed else (lambda x: f"{x * 100:.1f}")
        return f"{f(side['value'])} [{f(lo)}, {f(hi)}]"

    lines = [Hanging(f"utility = success − {u['price']:.3f} × System 2 share (what the learner maximises), "
                     "in points:"),
             Hanging(f"current {value(u['current'])}, proposed {value(u['proposed'])}, change "
                     f"{value(u['difference'], signed=True)}", first="  ", indent="    ")]
    lo, hi = u["difference"]["interval"]
    if u["worse"]:
        lines.append(Hanging("The estimate says the proposal is worse (the whole interval of the change is "
                             "below 0), so the default is Revert.", first="  ", indent="    "))
    elif lo < 0 < hi:
        lines.append(Hanging("The change is within the estimate's noise; the default stays Apply.",
                             first="  ", indent="    "))
    return lines


def validation_block(summary: Mapping[str, Any]) -> list[Hanging]:
    """``artibot status``: every round found worse that still stands (with its rollback command),
    else the latest validation; then the rounds still waiting to be measured."""
    out = [Hanging(v["message"], first="worse after a round: ", indent="  ") for v in summary.get("worse", [])]
    last = summary.get("last")
    if not out and last is not None:
        out.append(Hanging(last["message"], first="last validation: ", indent="  "))
    if summary.get("waiting"):
        out.append(Hanging(", ".join(summary["waiting"]), first="waiting to be validated: ", indent="  "))
    return out
