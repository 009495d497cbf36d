"""The checkpoints' words: titles, questions, options and their meanings, in
English and Korean. :mod:`artibot.round.checkpoints` asks the questions; this is what they say.
"""

from __future__ import annotations

from typing import Any, Mapping

from artibot.learning.round_params import RoundParams
from artibot.shapes import JsonValue

TEXTS: dict[str, dict[str, Any]] = {
    "en": {
        "title": {1: "Checkpoint 1: how the two systems did on similar requests (after step 3 of 6, compare)",
                  2: "Checkpoint 2: proposed threshold changes (after step 4 of 6, update)",
                  3: "Checkpoint 3: promote / demote review (after step 5 of 6, transfer)"},
        "question": {
            1: "The group comparison is done. Do the per-group success-rate differences look reasonable?",
            2: "These threshold changes are proposed, not yet applied. Does the direction of each "
               "(more or less System 2) match what was observed?",
            3: "Knowledge-transfer decisions are ready. Is each promote / demote / hold decision sound?",
        },
        "options": {
            1: {"accept": ("Accept", "the results look reasonable; go on to the threshold update"),
                "reset": ("Reset group data", "discard this round's groups; its experiences stay unprocessed")},
            2: {"apply": ("Apply", "apply the proposed changes; go on to knowledge transfer"),
                "revert": ("Revert adjustment", "keep the current thresholds; the batches still count as processed")},
            3: {"auto": ("Automatic decisions", "take every decision shown above"),
                "promote": ("Promote", "move the pattern into the System 1 cache"),
                "demote": ("Demote", "take the pattern out of the System 1 cache, back to System 2"),
                "hold": ("Hold", "keep the pattern where it is this cycle")},
        },
        "direction": {"down": "lower: more System 2", "up": "higher: more System 1", "same": "unchanged"},
        "explain": {1: "Requests of one domain and one complexity range form a group, and System 2's success rate "
                       "is compared with System 1's within it."},
        "modes": {"auto": ("Automatic decisions", "take every decision shown above"),
                  "each": ("Pattern by pattern", "choose auto, promote, demote or hold for each pattern"),
                  "list": ("List the held patterns", "show them, then choose again")},
        "pattern_option": {"auto": ("Automatic decision", "take the decision shown for this pattern")},
        "default": "default",
    },
    "ko": {
        "title": {1: "체크포인트 1: 비슷한 요청에서 두 시스템의 결과 비교 (6단계 중 3단계 비교 이후)",
                  2: "체크포인트 2: 임계값 변경 제안 확인 (6단계 중 4단계 갱신 이후)",
                  3: "체크포인트 3: 승격/강등 결정 검토 (6단계 중 5단계 이전 이후)"},
        "question": {
            1: "3단계 그룹 비교 결과를 확인했습니다. 각 그룹의 성공률 차이가 합리적으로 보이나요?",
            2: "라우팅 임계값 변경이 제안되었습니다 (아직 적용되지 않음). 조정 방향(System 2 비중 증가/감소)이 세션에서 관찰된 패턴과 맞나요?",
            3: "지식 이전 결정이 생성되었습니다. 각 패턴의 승격/강등/보류 결정이 타당해 보이나요?",
        },
        "options": {
            1: {"accept": ("수락", "결과가 합리적, 4단계 임계값 조정으로 진행"),
                "reset": ("그룹 데이터 초기화", "이번 그룹 데이터를 폐기, 경험은 미처리로 남김")},
            2: {"apply": ("적용", "제안된 조정값 적용, 5단계 지식 이전으로 진행"),
                "revert": ("조정 되돌리기", "이번 조정 취소, 기존 임계값 유지 (배치는 처리됨)")},
            3: {"auto": ("자동 결정", "위에 표시된 결정을 모두 적용"),
                "promote": ("승격", "해당 패턴을 System 1로 승격"),
                "demote": ("강등", "해당 패턴을 System 2로 강등"),
                "hold": ("보류", "이번 사이클에서는 현재 위치 유지")},
        },
        "direction": {"down": "낮춤: System 2 비중 증가", "up": "높임: System 1 비중 증가", "same": "변화 없음"},
        "explain": {1: "같은 도메인·같은 복잡도 구간의 요청을 한 그룹으로 묶고, "
                       "그 안에서 System 2의 성공률을 System 1과 비교합니다."},
        "modes": {"auto": ("자동 결정", "위에 표시된 결정을 모두 적용"),
                  "each": ("패턴별로 결정", "각 패턴마다 자동·승격·강등·보류 중 선택"),
                  "list": ("보류된 패턴 보기", "목록을 보여 준 뒤 다시 선택")},
        "pattern_option": {"auto": ("자동 결정", "이 패턴에 표시된 결정 적용")},
        "default": "기본값",
    },
}


def texts(lang: str) -> dict[str, Any]:
    return TEXTS.get(lang, TEXTS["en"])


def _object(v: JsonValue) -> dict[str, JsonValue]:
    return v if isinstance(v, dict) else {}


def direction(old: float, new: float, lang: str = "en") -> str:
    words: Mapping[str, str] = texts(lang)["direction"]
    if new < old - 1e-12:
        return words["down"]
    if new > old + 1e-12:
        return words["up"]
    return words["same"]


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
