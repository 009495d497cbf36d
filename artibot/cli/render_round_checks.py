"""Text of the checks before and after a change: the off-policy block under checkpoint 2 and the
validation report.

Each paragraph is a :class:`~artibot.cli.render.Hanging`: wrapped with a hanging indent in a
terminal, one line in a pipe.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from artibot.cli.render import Hanging
from artibot.messages import Message, render


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _pts(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:+.1f}"


def offpolicy_block(op: Mapping[str, Any] | None, utility: Mapping[str, Any] | None = None,
                    lang: str = "en") -> list[Hanging]:
    """The paragraphs printed under the checkpoint-2 table (plain words when the evidence is too thin);
    with ``utility`` (:func:`artibot.round.checkpoints.utility_check`), the value the learner optimises
    and what it means for the default answer."""
    def say(id: str, **params: Any) -> str:
        return render(Message(id, **params), lang)

    if not op:
        return [Hanging(say("checks.unavailable"))]
    cur, new, diff = op["current"], op["proposed"], op["difference"]
    earlier = op.get("earlier") or 0
    head = say("checks.head_earlier", n=op["n"], earlier=earlier) if earlier else say("checks.head", n=op["n"])
    share = say("checks.share", current=_pct(cur["system2_share"]), proposed=_pct(new["system2_share"]),
                change=_pts(diff["system2_share"]))
    reason = _reason(op, lang)
    if op["verdict"] == "too_thin":
        return [Hanging(head + ":"), Hanging(f"{reason}.", first="  " + say("checks.success_label"), indent="    "),
                Hanging(share, first="  ", indent="    ")]
    if op["verdict"] == "no_change":
        return [Hanging(head + ":"),
                Hanging(say("checks.unchanged", reason=reason, success=_pct(cur["success"]),
                            share=_pct(cur["system2_share"])), first="  ", indent="    ")]
    lo, hi = op["interval"]

    def line(name: str, text: str) -> Hanging:
        return Hanging(text, first="  " + say("checks.label", name=say(name)))  # wrapped under the text

    def policy(p: Mapping[str, Any]) -> str:
        a, b = p["interval"]
        return say("checks.policy", success=_pct(p["success"]), lo=_pct(a), hi=_pct(b), share=_pct(p["system2_share"]))

    return [Hanging(say("checks.estimated", head=head, level=int(round(op["level"] * 100)))),
            line("checks.current", policy(cur)), line("checks.proposed", policy(new)),
            line("checks.change", say("checks.difference", success=_pts(diff["success"]), lo=_pts(lo), hi=_pts(hi),
                                      share=_pts(diff["system2_share"]))),
            Hanging(say("checks.support", reason=reason, ess=op["ess"], explored=op["support"]["proposed"]),
                    first="  ", indent="  ")] + _utility_lines(utility, say)


def _reason(op: Mapping[str, Any], lang: str) -> str:
    """The verdict's reason in ``lang``: its message, or the English sentence of a round saved
    before the estimate kept one."""
    doc = op.get("message")
    return render(Message.from_json(doc), lang) if isinstance(doc, dict) else str(op.get("reason") or "")


def _utility_lines(u: Mapping[str, Any] | None, say: Callable[..., str]) -> list[Hanging]:
    """What the learner optimises, success − price × System 2 share, and the default it implies."""
    if not u:
        return []

    def value(side: Mapping[str, Any], signed: bool = False) -> str:
        lo, hi = side["interval"]
        f = _pts if signed else (lambda x: f"{x * 100:.1f}")
        return f"{f(side['value'])} [{f(lo)}, {f(hi)}]"

    lines = [Hanging(say("checks.utility", price=u["price"])),
             Hanging(say("checks.utility_values", current=value(u["current"]), proposed=value(u["proposed"]),
                         change=value(u["difference"], signed=True)), first="  ", indent="    ")]
    lo, hi = u["difference"]["interval"]
    if u["worse"]:
        lines.append(Hanging(say("checks.worse"), first="  ", indent="    "))
    elif lo < 0 < hi:
        lines.append(Hanging(say("checks.noise"), first="  ", indent="    "))
    return lines


def validation_block(summary: Mapping[str, Any]) -> list[Hanging]:
    """``artibot status``: every round found worse that still stands (with its rollback command),
    else the latest validation; then the rounds still waiting to be measured."""
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    out = [Hanging(v["message"], first=w(lang, "v_worse"), indent="  ") for v in summary.get("worse", [])]
    last = summary.get("last")
    if not out and last is not None:
        out.append(Hanging(last["message"], first=w(lang, "v_last"), indent="  "))
    if summary.get("waiting"):
        out.append(Hanging(", ".join(summary["waiting"]), first=w(lang, "v_waiting"), indent="  "))
    return out
