"""The terminal's words, in English and Korean: one catalogue read through :func:`w`.

:mod:`artibot.round.checkpoint_texts` holds the checkpoints' questions and options (shared with
``/learn``); this holds what only the terminal prints around them (table headings,
captions, the prompt, the closing summary), and :mod:`artibot.cli.words_screens` the other
screens' words, merged in here. :mod:`artibot.cli.words_errors` says the errors. A Korean
screen keeps in English only proper names (System 1, GRPO), numbers, pattern keys, domain
names, config keys, paths and commands. :func:`session_lang` is the configured language.
"""

from __future__ import annotations

from typing import Any

from artibot.cli.words_commands import COMMAND_WORDS
from artibot.cli.words_screens import SCREENS, VALUES

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "domain": "domain", "complexity": "complexity", "s1": "S1 ok/n", "s2": "S2 ok/n", "here": "S2−S1 here",
        "estimate": "estimate [90% interval]", "groups": "groups", "mean": "mean S2−S1", "batch": "batch",
        "groups_caption": "{groups} groups in {batches} batch(es): {two} with both systems, {one} one-sided "
                          "(not used); S2−S1 here: System 2's success rate minus System 1's in this round's requests",
        "first_shown": "the first {n} shown, all in `artibot review --json`",
        "estimate_caption": "estimate: System 2's advantage in the group over every round so far, with its 90% "
                            "interval",
        "old": "old", "new": "new", "change": "change", "direction": "direction",
        "price_cost": "System 1 goes first where it fails less than {pct} of the time (the break-even: a "
                      "failure costs a retry at System 2 and a redo)",
        "price_points": "System 2 is worth its cost where it succeeds {pts} points more often than System 1 "
                        "({source})",
        "limit_caption": "a threshold moves at most {step:.2f} per batch of {size} ({batches} batch(es) this "
                         "round), and in a domain's first round no farther than the exploration band",
        "could_move": "could move at most {limit:.2f} this round",
        "clamped": "the evidence pointed farther: the move stops at that limit",
        "clamped_short": "the best-looking threshold lies beyond that limit; the move goes only as far as "
                         "the evidence is sure",
        "clamped_stays": "the best-looking threshold lies beyond that limit",
        "decision": "decision", "pattern": "pattern",
        "pattern_numbers": "now {status}; S1 ok {s1}, S2 ok {s2}; confidence {confidence}; streaks: S2 success "
                           "{promo}, S1 failure {demo}",
        "pattern_counts": "now {status}; S1 ok {s1}, S2 ok {s2}",
        "s1_bounds": "; S1 success {bounds}", "why": "why: {reason}",
        "patterns_caption": "{n} pattern(s): {hold} hold, {demote} demote, {promote} promote (listed in that order)",
        "choose": "Choose 1-{n} [{default}]: ",
        "retry": "  please type a number from 1 to {n} or the word in [ ], or Enter for the default",
        "held_line": "{n} pattern(s) held where they are: nothing changes for them ({how})",
        "held_in_learn": "the last option lists them",
        "held_in_review": "`artibot review --question 3` lists them",
        "held_in_dry_run": "`artibot learn --dry-run --json` has every pattern",
        "no_move": "(no threshold moved in this round: no group had both systems)",
        "automatic": "automatic: {action} — {reason}",
        "continuing": "round {round} was prepared earlier and waits for your answers; continuing it",
        "learner_busy": "another learner holds the data home; this one stopped (the next session end starts one again)",
        "thresholds": "Thresholds", "applied": "applied", "yes": "yes", "reverted": "reverted",
        "transfer": "Knowledge transfer", "final": "final",
        "overridden": "overridden; the automatic {action} was for: ",
        "applied_message": "round {round} applied: {n} experience(s) in {batches} batch(es); {thresholds}",
        "thr_reverted": "thresholds kept (reverted)", "thr_changed": "{n} threshold(s) changed",
        "thr_none": "no threshold changed",
        "waiting": "round {round} is waiting for review ({n} experiences); its checkpoints as `artibot learn` "
                   "shows them:",
        "answer_with": "answer with: `{syntax}`; or `artibot review -i` to answer one by one",
    },
    "ko": {
        "domain": "도메인", "complexity": "복잡도", "s1": "S1 성공/수", "s2": "S2 성공/수", "here": "이번 S2−S1",
        "estimate": "추정 [90% 구간]", "groups": "그룹 수", "mean": "평균 S2−S1", "batch": "배치",
        "groups_caption": "{groups}개 그룹, {batches}개 배치: 두 시스템 모두 있는 그룹 {two}개, 한쪽만 있는 그룹 "
                          "{one}개(사용 안 함). 이번 S2−S1: 이번 라운드 요청에서 System 2 성공률에서 System 1 "
                          "성공률을 뺀 값",
        "first_shown": "처음 {n}개만 표시, 전체는 `artibot review --json`",
        "estimate_caption": "추정: 지금까지 모든 라운드에 걸친 그룹 내 System 2의 우위와 90% 구간",
        "old": "이전", "new": "새 값", "change": "변화", "direction": "방향",
        "price_cost": "System 1은 실패율이 {pct} 미만인 곳에서 먼저 처리합니다 (손익분기: 실패하면 System 2 "
                      "재시도와 재요청 비용이 듭니다)",
        "price_points": "System 2는 System 1보다 성공률이 {pts}포인트 이상 높은 곳에서 비용만큼의 가치가 "
                        "있습니다 ({source})",
        "limit_caption": "임계값은 {size}개 배치마다 최대 {step:.2f}까지 움직입니다(이번 라운드 배치 {batches}개). "
                         "도메인의 첫 라운드에서는 탐색 구간보다 멀리 가지 않습니다",
        "could_move": "이번 라운드에서 최대 {limit:.2f}까지 이동 가능",
        "clamped": "근거는 더 멀리 가리켰지만 이동은 그 한계에서 멈춥니다",
        "clamped_short": "가장 좋아 보이는 임계값은 그 한계 너머에 있습니다. 이동은 근거가 확실한 곳까지만 갑니다",
        "clamped_stays": "가장 좋아 보이는 임계값은 그 한계 너머에 있습니다",
        "decision": "결정", "pattern": "패턴",
        "pattern_numbers": "현재 {status}; S1 성공 {s1}, S2 성공 {s2}; 신뢰도 {confidence}; 연속: S2 성공 {promo}, "
                           "S1 실패 {demo}",
        "pattern_counts": "현재 {status}; S1 성공 {s1}, S2 성공 {s2}",
        "s1_bounds": "; S1 성공률 {bounds}", "why": "이유: {reason}",
        "patterns_caption": "패턴 {n}개: 보류 {hold}, 강등 {demote}, 승격 {promote} (이 순서로 표시)",
        "choose": "1-{n} 중 선택 [{default}]: ",
        "retry": "  1부터 {n}까지의 숫자나 [ ] 안의 단어를 입력하거나, 기본값은 Enter",
        "held_line": "보류(현재 위치 유지) 패턴 {n}개: 바뀌는 것 없음 ({how})",
        "held_in_learn": "마지막 선택지로 목록을 볼 수 있음",
        "held_in_review": "`artibot review --question 3`으로 목록을 볼 수 있음",
        "held_in_dry_run": "모든 패턴은 `artibot learn --dry-run --json`에 있음",
        "no_move": "(이번 라운드에서 움직인 임계값 없음: 두 시스템이 모두 있는 그룹이 없음)",
        "automatic": "자동: {action} — {reason}",
        "continuing": "라운드 {round}은(는) 이전에 준비되어 답을 기다리고 있습니다. 이어서 진행합니다",
        "learner_busy": "다른 학습기가 데이터 홈을 쓰고 있어 이 학습기는 멈췄습니다 (다음 세션이 끝날 때 다시 시작됩니다)",
        "thresholds": "임계값", "applied": "적용", "yes": "예", "reverted": "되돌림",
        "transfer": "지식 이전", "final": "최종",
        "overridden": "재지정됨; 자동 {action}의 이유: ",
        "applied_message": "라운드 {round} 적용: 경험 {n}개, 배치 {batches}개; {thresholds}",
        "thr_reverted": "임계값 유지(되돌림)", "thr_changed": "임계값 {n}개 변경", "thr_none": "바뀐 임계값 없음",
        "waiting": "라운드 {round}이(가) 검토를 기다립니다(경험 {n}개). `artibot learn`과 같은 화면:",
        "answer_with": "답하기: `{syntax}`; 하나씩 답하려면 `artibot review -i`",
    },
}

for _lang in WORDS:
    WORDS[_lang].update(SCREENS[_lang])
    WORDS[_lang].update(COMMAND_WORDS[_lang])

ACTIONS = {"ko": {"promote": "승격", "demote": "강등", "hold": "보류"}}
STATUSES = {"ko": {"candidate": "후보", "active": "활성", "demoted": "강등됨", "inactive": "비활성"}}


def w(lang: str, key: str, **values: Any) -> str:
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"][key]
    return text.format(**values) if values else text


def value(lang: str, word: str) -> str:
    """A single value the library reports in English (a round's status, an outcome), in ``lang``."""
    return VALUES.get(lang, {}).get(word, word)


_LANG: dict[tuple[str | None, ...], str] = {}


def session_lang() -> str:
    """The configured language (``lang`` of the config in force), read once per data home.

    A config that does not load still names its language when its ``lang`` is readable, so
    that the error about it is said in that language; otherwise English.
    """
    where = _where()
    if where not in _LANG:
        _LANG[where] = _read_lang()
    return _LANG[where]


def know_lang(lang: str) -> None:
    """The language of settings a command has just loaded: :func:`session_lang` need not load them again."""
    _LANG[_where()] = lang


def _where() -> tuple[str | None, ...]:
    import os

    return os.environ.get("ARTIBOT_HOME"), os.environ.get("ARTIBOT_CONFIG"), os.environ.get("HOME"), os.getcwd()


def _read_lang() -> str:
    from artibot.config import load_settings

    try:
        return load_settings(None).lang
    except Exception:  # noqa: BLE001 - a config that does not load: its raw `lang`, if any
        pass
    from artibot.config import raw_lang

    lang = raw_lang(None)
    return lang if lang in WORDS else "en"


def price_said(lang: str, price: float, source: str) -> str:
    """The price of System 2 in a person's words: with the cost objective (source ``cost``), the
    failure rate under which System 1 goes first; otherwise the success points System 2 must
    add to be worth its cost."""
    if source == "cost":
        return w(lang, "price_cost", pct=f"{price:.1%}")
    return w(lang, "price_points", pts=f"{price * 100:.1f}", source=value(lang, source))


def action(lang: str, name: str) -> str:
    return ACTIONS.get(lang, {}).get(name, name)


def status_word(lang: str, name: str) -> str:
    return STATUSES.get(lang, {}).get(name, name)
