"""Text of the checks before and after a change: the off-policy block under checkpoint 2 and the
validation report.

Each paragraph is a :class:`~artibot.cli.render.Hanging`: wrapped with a hanging indent in a
terminal, one line in a pipe.
"""

from __future__ import annotations

from typing import Any, Mapping

from artibot.cli.render import Hanging



def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _pts(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:+.1f}"


def offpolicy_block(op: Mapping[str, Any] | None, utility: Mapping[str, Any] | None = None,
                    lang: str = "en") -> list[Hanging]:
    """The paragraphs printed under the checkpoint-2 table (plain words when the evidence is too thin);
    with ``utility`` (:func:`artibot.round.checkpoints.utility_check`), the value the learner optimises
    and what it means for the default answer."""
    if lang == "ko":
        return _offpolicy_ko(op, utility)
    if not op:
        return [Hanging("What the proposed thresholds would have done on the logged requests: not available for "
                        "this round (prepared before artibot computed it).")]
    cur, new, diff = op["current"], op["proposed"], op["difference"]
    earlier = op.get("earlier") or 0
    head = (f"What the proposed thresholds would have done on the {op['n']:,} logged requests"
            + (f" ({earlier:,} from earlier rounds)" if earlier else ""))
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

    return [Hanging(f"{head}, estimated from the requests routed at random, with {level}% intervals:"),
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


def _offpolicy_ko(op: Mapping[str, Any] | None, u: Mapping[str, Any] | None) -> list[Hanging]:
    """:func:`offpolicy_block` in Korean, from the same numbers (the estimator's own sentences
    are English, so they are said here from the verdict)."""
    if not op:
        return [Hanging("제안된 임계값이 기록된 요청에서 했을 일: 이 라운드에는 없습니다(계산 기능 이전에 준비된 라운드).")]
    cur, new, diff = op["current"], op["proposed"], op["difference"]
    earlier = op.get("earlier") or 0
    head = (f"제안된 임계값이 기록된 요청 {op['n']:,}개에서 했을 일" + (f"(이전 라운드 {earlier:,}개 포함)" if earlier else ""))
    share = (f"System 2 비중 {_pct(cur['system2_share'])} -> {_pct(new['system2_share'])} "
             f"({_pts(diff['system2_share'])} 포인트).")
    if op["verdict"] == "too_thin":
        return [Hanging(head + ":"),
                Hanging("추정하기에 근거가 부족합니다: 바뀌는 경로에서 무작위로 탐색된 결정이 거의 없습니다.",
                        first="  성공률: ", indent="    "),
                Hanging(share, first="  ", indent="    ")]
    if op["verdict"] == "no_change":
        return [Hanging(head + ":"),
                Hanging(f"제안된 임계값은 기록된 요청의 경로를 바꾸지 않습니다 (성공률 {_pct(cur['success'])}, "
                        f"System 2 비중 {_pct(cur['system2_share'])}).", first="  ", indent="    ")]
    level = int(round(op["level"] * 100))
    lo, hi = op["interval"]

    def line(name: str, p: Mapping[str, Any]) -> Hanging:
        a, b = p["interval"]
        return Hanging(f"성공률 {_pct(p['success'])} [{_pct(a)}, {_pct(b)}]   System 2 비중 "
                       f"{_pct(p['system2_share'])}", first=f"  {name}  ", indent=" " * 10)

    out = [Hanging(f"{head}, 무작위로 라우팅된 요청에서 {level}% 구간으로 추정:"), line("현재", cur), line("제안", new),
           Hanging(f"성공률 {_pts(diff['success'])} 포인트 [{_pts(lo)}, {_pts(hi)}]   System 2 비중 "
                   f"{_pts(diff['system2_share'])} 포인트", first="  변화  ", indent=" " * 10),
           Hanging(f"유효 표본 크기 {op['ess']:,.0f}; 두 경로가 다른 곳에서 새 경로로 탐색된 요청 "
                   f"{op['support']['proposed']}개.", first="  ", indent="  ")]
    if not u:
        return out

    def value(side: Mapping[str, Any], signed: bool = False) -> str:
        a, b = side["interval"]
        f = _pts if signed else (lambda x: f"{x * 100:.1f}")
        return f"{f(side['value'])} [{f(a)}, {f(b)}]"

    out += [Hanging(f"효용 = 성공률 − {u['price']:.3f} × System 2 비중 (학습기가 최대화하는 값), 포인트:"),
            Hanging(f"현재 {value(u['current'])}, 제안 {value(u['proposed'])}, 변화 "
                    f"{value(u['difference'], signed=True)}", first="  ", indent="    ")]
    d_lo, d_hi = u["difference"]["interval"]
    if u["worse"]:
        out.append(Hanging("추정상 제안이 더 나쁩니다(변화의 구간 전체가 0 미만). 그래서 기본값은 되돌리기입니다.",
                           first="  ", indent="    "))
    elif d_lo < 0 < d_hi:
        out.append(Hanging("변화는 추정의 잡음 안에 있습니다. 기본값은 적용입니다.", first="  ", indent="    "))
    return out


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
