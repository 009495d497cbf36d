"""How the user's next prompt judges the previous turn (pure).

Most bad answers end "successfully": no tool failed. The best signal of how a turn
went is what the user says next, in the same session:

* a **correction** ("no, that's wrong", "that broke the build", "revert that", "try
  again", "still failing"; "아니", "틀렸어", "다시 해", "되돌려", "여전히 안 돼") marks
  the previous turn ``failed``;
* a request for **deeper work** ("think harder", "dig deeper", "step by step", "plan it
  first"; "더 자세히", "꼼꼼히", "단계별로") marks a System 1 turn ``escalated``: the
  fast answer was not enough;
* anything else (a new task, a neutral follow-up) leaves the outcome as the turn's
  tool calls made it.

The phrase tables favour precision: a wrong ``failed`` teaches the router that a good
route was bad, so a phrase must be unambiguous in a follow-up ("revert that", not
"revert"; "no," at the start, not "no need"). The labelled corpus in
``tests/data/followups.jsonl`` measures both (README, "Outcome from the next prompt").

English phrases match whole words, case-insensitively, apostrophes and punctuation
ignored ("that's" = "thats"; ``^`` = only at the start; ``*`` = a word that starts so);
Korean phrases match as substrings (Korean attaches endings: 틀렸 covers 틀렸어,
틀렸네요, 틀렸잖아). Matching is a dictionary walk over the prompt's words, linear in
its length: one regular expression per table cost more to compile, and per prompt, than the
whole walk (docs/benchmarks.md, "Costs behind the code"), on a hook that runs on every prompt.

>>> judge("no, that's wrong — the test still fails")[0]
'failed'
>>> judge("think harder about the edge cases")[0]
'escalated'
>>> judge("now add a test for it") is None
True
>>> judge("아니, 그게 아니라 다른 파일이야")[0], judge("단계별로 더 자세히 설명해 줘")[0], judge("좋아요, 이제 커밋해 줘")
('failed', 'escalated', None)
"""

from __future__ import annotations

from artibot.hookpath import regex

PROMPT_CHARS = 400
"""Only the start of a follow-up is read: corrections come first, pasted logs come after."""

CORRECTION_EN = (
    # flat refusals at the start of the prompt (^ = must open the prompt)
    "^no", "^nope", "^wrong", "^not quite", "^nah", "^incorrect", "^that's not it",
    "^still", "^ugh",
    # the answer was wrong
    "that's wrong", "that is wrong", "thats wrong", "this is wrong", "it's wrong", "you're wrong",
    "not what i asked", "not what i wanted", "not what i meant", "that's not right", "that isn't right",
    "not correct", "that's incorrect", "that is incorrect", "wrong file", "wrong answer", "wrong place",
    "you misunderstood", "misread", "you ignored", "you forgot", "you missed", "you didn't",
    # it broke something
    "that broke", "this broke", "you broke", "it broke", "broke the build", "broken now", "is broken now",
    "made it worse", "now it fails", "now fails", "now it crashes", "now crashes", "new error",
    "it's broken", "build is red", "tests are red",
    # put it back / do it again
    "undo that", "undo it", "undo this", "undo your", "undo the change", "undo those",
    "revert that", "revert it", "revert this", "revert your", "revert the change", "revert those",
    "roll that back", "roll it back", "roll back your", "put it back", "change it back", "go back to",
    "try again", "redo it", "redo that", "do it again",
    # still failing
    "still failing", "still fails", "still broken", "still doesn't", "still does not", "still not working",
    "still getting", "still seeing", "still the same", "still an error", "still errors", "still crashes",
    "same error", "same problem", "same issue", "error persists", "didn't work", "did not work",
    "doesn't work", "does not work", "isn't working", "is not working", "didn't fix", "did not fix",
    "didn't help", "no change", "nothing changed",
)
"""Phrases that say the previous turn went wrong."""

CORRECTION_EN_EXCEPT = (
    "no need", "no problem", "no worries", "no rush", "no thanks needed", "no that's great", "no that's perfect",
    "no that's fine", "no that's good", "not quite yet", "still need", "still want", "still have to", "still good",
    "still works", "no longer need", "nothing changed in", "no change needed", "no changes needed",
    "no change required", "no changes required",
)
"""Phrases that look like corrections and are not ("no need to…", "still need to…")."""

ESCALATION_EN = (
    "think harder", "think more", "think deeper", "think it through", "think carefully", "think step by step",
    "ultrathink", "--think", "more carefully", "more thorough", "be thorough", "thoroughly",
    "dig deeper", "look deeper", "go deeper", "deeper analysis", "in more depth", "in depth", "in detail",
    "more detail", "more detailed", "step by step", "step-by-step", "root cause", "properly analy*",
    "full analysis", "proper analysis", "analyze it properly", "investigate", "make a plan", "plan it",
    "plan first", "plan this", "write a plan", "consider the edge cases", "consider edge cases",
    "all the edge cases", "review the whole", "check everything", "every case", "more rigorous",
    "take your time", "slow down", "really understand", "don't just",
)
"""Phrases that ask for deeper, deliberate work than the previous (fast) answer."""

CORRECTION_KO = (
    "아니야", "아니요", "아뇨", "아니,", "아니 ", "그게 아니", "틀렸", "틀린 ", "틀리", "잘못 ", "잘못했", "잘못됐",
    "잘못된", "다시 해", "다시해", "다시 시도", "다시 작성", "다시 짜", "되돌려", "원래대로", "롤백해", "취소해",
    "안 돼", "안돼", "안 됩니다", "안 되네", "안되네", "안 되잖", "안되잖", "안 되는데", "안되는데",
    "작동하지 않", "작동 안", "동작하지 않", "동작 안", "실행이 안", "여전히", "아직도", "또 에러", "또 오류",
    "에러가 나", "에러 나", "오류가 나", "오류 나", "깨졌", "깨져", "망가", "고장", "빌드가 실패", "테스트가 실패",
    "실패해", "실패하네", "이상해", "이상한데", "엉뚱", "그대로야", "그대로네", "변한 게 없", "바뀐 게 없",
)
"""Korean corrections (substrings)."""

CORRECTION_KO_EXCEPT = ("아니면", "아니라면", "아닌지", "아닐까", "여전히 잘", "안 되나요", "안되나요", "잘못 없")
"""Korean look-alikes: "아니면" (or), "안 되나요?" (may I not…?)."""

ESCALATION_KO = (
    "더 자세히", "자세하게", "더 깊이", "깊이 있게", "깊게", "꼼꼼히", "꼼꼼하게", "단계별로", "단계적으로",
    "신중하게", "신중히", "철저히", "철저하게", "계획을 세", "계획부터", "근본 원인", "근본적인 원인",
    "제대로 분석", "제대로 조사", "전체적으로 검토", "전부 검토", "모든 경우", "엣지 케이스", "예외 상황까지",
    "더 생각", "천천히",
)
"""Korean requests for deeper work (substrings)."""

Phrase = tuple[tuple[str, ...], bool, str]
"""(words, anchored at the start, the phrase as written)."""

_tables: dict[str, dict[str, list[Phrase]]] = {}
_WORD = regex.compile(r"[0-9a-z][0-9a-z'\-]*|--[a-z][a-z-]*")


def _words(text: str) -> list[str]:
    return [w.replace("'", "") for w in _WORD.findall(text.lower())]


def _index(phrases: tuple[str, ...]) -> dict[str, list[Phrase]]:
    """``first word -> phrases`` (a first word ending in ``*`` is indexed under ``*``)."""
    out: dict[str, list[Phrase]] = {}
    for phrase in phrases:
        anchored = phrase.startswith("^")
        words = tuple(_words(phrase[1:] if anchored else phrase.replace("*", "")))
        if phrase.endswith("*"):
            words = words[:-1] + (words[-1] + "*",)
        out.setdefault(words[0] if not words[0].endswith("*") else "*", []).append((words, anchored, phrase))
    for candidates in out.values():
        candidates.sort(key=lambda p: -len(p[0]))  # the longest phrase at a position wins
    return out


def _table(name: str) -> dict[str, list[Phrase]]:
    if not _tables:
        _tables.update(correction_en=_index(CORRECTION_EN), correction_en_except=_index(CORRECTION_EN_EXCEPT),
                       escalation_en=_index(ESCALATION_EN))
    return _tables[name]


def _matches(words: list[str], at: int, phrase: tuple[str, ...]) -> bool:
    if at + len(phrase) > len(words):
        return False
    for word, want in zip(words[at:], phrase):
        if want.endswith("*") and not word.startswith(want[:-1]):
            return False
        if not want.endswith("*") and word != want:
            return False
    return True


def _find(words: list[str], table: dict[str, list[Phrase]], alive: list[bool] | None = None) -> tuple[int, Phrase] | None:
    """The first phrase of ``table`` in ``words`` (only over ``alive`` words): (position, phrase)."""
    for at, word in enumerate(words):
        for phrase in table.get(word, ()):
            words_, anchored, _ = phrase
            if (anchored and at) or not _matches(words, at, words_):
                continue
            if alive is None or all(alive[at:at + len(words_)]):
                return at, phrase
    return None


def _english_correction(words: list[str]) -> str | None:
    # Look-alikes are taken out first, so "no need to…, but it still fails" still counts.
    alive = [True] * len(words)
    exceptions = _table("correction_en_except")
    for at in range(len(words)):
        for words_, anchored, _ in exceptions.get(words[at], ()):
            if not (anchored and at) and _matches(words, at, words_):
                alive[at:at + len(words_)] = [False] * len(words_)
    found = _find(words, _table("correction_en"), alive)
    return found[1][2].lstrip("^") if found else None


def _korean(text: str, phrases: tuple[str, ...], exceptions: tuple[str, ...] = ()) -> str | None:
    for look_alike in exceptions:
        text = text.replace(look_alike, " ")
    text += " "
    found = [(text.find(p), p) for p in phrases if p in text]
    return min(found)[1].strip() if found else None


def _normalize(prompt: str) -> str:
    text = " ".join(prompt[:PROMPT_CHARS].split())
    return text.replace("\u2019", "'").replace("\u2014", " ").strip(" \"'`")


def judge(prompt: str) -> tuple[str, str] | None:
    """``("failed" | "escalated", reason)`` for a follow-up that judges the previous turn, else None.

    A correction wins over a request for deeper work ("no, think harder" is a correction).
    """
    text = _normalize(prompt)
    if not text:
        return None
    words = _words(text)
    phrase = _english_correction(words) or _korean(text, CORRECTION_KO, CORRECTION_KO_EXCEPT)
    if phrase:
        return "failed", f"the next prompt corrects it ({phrase!r})"
    found = _find(words, _table("escalation_en"))
    phrase = found[1][2] if found else _korean(text, ESCALATION_KO)
    if phrase:
        return "escalated", f"the next prompt asks for deeper work ({phrase!r})"
    return None
