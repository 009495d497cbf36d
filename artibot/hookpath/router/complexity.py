"""The complexity score of a request: a number in [0, 1], higher means System 2.

Six features, each in [0, 1], are combined linearly and squashed by a logistic, so
the score is bounded, smooth and monotone in every feature::

    z     = BIAS + sum(WEIGHTS[f] * features[f])
    score = 1 / (1 + exp(-z))

=========  ======  ===========================================================
feature    weight  value
=========  ======  ===========================================================
steps      +1.6    ``1 - exp(-n / 3)``, n = list items (``-``, ``*``, ``•`` at
                   a line start; ``1.``, ``2)`` after a space or ``(``) + sequencing words
                   (``then``, ``and then``, ``after that``, ``first``,
                   ``finally``, ``그다음``, ``그리고 나서``, ``마지막으로`` ...)
                   + 0.5 per sentence after the first
domains    +1.2    ``min(domains_touched - 1, 3) / 3`` (the caller counts them:
                   the policy passes the domains the keyword table hits)
ambiguity  +1.4    ``1 - exp(-n / 1.5)``, n = hits of ``somehow``, ``maybe``,
                   ``not sure``, ``figure out``, ``investigate``, ``why``,
                   ``왜``, ``어떻게``, ``모르겠`` ...
risk       +2.4    ``1 - exp(-n / 1.5)``, n = hits of ``migrate``,
                   ``refactor``, ``security``, ``production``, ``database
                   schema``, ``race condition``, ``architecture``, ``deploy``,
                   ``rollback``, ``마이그레이션``, ``보안``, ``운영``, ``배포`` ...
routine    -2.0    ``1 - exp(-n)``, n = hits of ``typo``, ``rename``,
                   ``format``, ``lint``, ``comment``, ``오타``, ``이름 변경`` ...
length     +1.8    ``min(1, log(1 + tokens) / log(1 + 300))``
=========  ======  ===========================================================

``BIAS = -1.5``. A typo fix scores about 0.1, a plain one-line feature request about
0.3, a multi-step cross-domain migration above 0.9; the default threshold is 0.4, and
exploration looks at +-0.15 around it.

Keywords match whole words (see :mod:`artibot.hookpath.router.domains`: English words with
their inflections, Korean words at the start of a Hangul run so particles may follow).

An explicit request for deliberate thinking forces System 2 whatever the score:
the flags ``--think``, ``--think-hard``, ``--think-harder``, ``--ultrathink``,
``--deep-think`` and the phrases ``ultrathink``, ``megathink``, ``think hard(er)``,
``think deeply``, ``think carefully``, ``think it through``, ``step by step``,
``깊게 생각``, ``깊이 생각``, ``신중하게``, ``신중히``, ``단계별로``, ``차근차근``,
``심사숙고``, ``곰곰이``.
"""

from __future__ import annotations

import math

from artibot.hookpath import regex
from artibot.hookpath.frozen import MappingProxyType, frozen

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from typing import Mapping, Sequence

from artibot.hookpath.router.domains import KeywordIndex, normalize, tokenize

BIAS = -1.5
WEIGHTS: Mapping[str, float] = MappingProxyType({
    "steps": 1.6,
    "domains": 1.2,
    "ambiguity": 1.4,
    "risk": 2.4,
    "routine": -2.0,
    "length": 1.8,
})
SATURATION: Mapping[str, float] = MappingProxyType({
    "steps": 3.0, "ambiguity": 1.5, "risk": 1.5, "routine": 1.0,
})
LENGTH_CAP = 300  # tokens at which the length feature reaches 1

KEYWORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "steps": (
        "then", "and then", "after that", "afterwards", "afterward", "first", "finally",
        "lastly", "followed by", "once done", "once that", "before that", "subsequently",
        "그다음", "그 다음", "그리고 나서", "그러고 나서", "그런 다음", "그 후", "이후",
        "후에", "먼저", "다음으로", "마지막으로", "첫째", "둘째", "셋째", "첫번째", "두번째",
        "세번째",
    ),
    "ambiguity": (
        "somehow", "maybe", "perhaps", "not sure", "unsure", "figure out", "investigate",
        "why", "unclear", "unexpected", "unexpectedly", "intermittent", "intermittently",
        "flaky", "weird", "strange", "sometimes", "randomly", "root cause", "no idea",
        "don't know", "trade off", "tradeoff", "best way", "which approach", "explore",
        "diagnose", "confusing", "confused",
        "왜", "어떻게", "모르겠", "잘 모르", "아마", "혹시", "원인", "이상하게", "이상한",
        "가끔", "간헐", "애매", "불확실", "조사", "파악", "분석", "방법을 찾",
    ),
    "risk": (
        "migrate", "migration", "refactor", "refactoring", "rewrite", "security", "secure",
        "vulnerability", "production", "database schema", "schema", "concurrency",
        "concurrent", "race condition", "deadlock", "architecture", "design", "redesign",
        "deploy", "deployment", "rollback", "roll back", "breaking change",
        "backward compatibility", "backwards compatibility", "zero downtime", "data loss",
        "distributed", "scalability", "performance", "transaction", "encryption",
        "authentication", "authorization", "permission", "multi tenant", "memory leak",
        "upgrade", "overhaul", "infrastructure", "cross platform", "end to end",
        "마이그레이션", "리팩터링", "리팩토링", "재작성", "보안", "취약점", "운영", "프로덕션",
        "설계", "재설계", "아키텍처", "구조", "배포", "롤백", "동시성", "경쟁 조건", "데드락",
        "스키마", "트랜잭션", "인증", "권한", "암호화", "성능", "확장성", "분산", "장애",
        "대규모", "이관", "전환", "업그레이드", "메모리 누수", "하위 호환",
    ),
    "routine": (
        "typo", "typos", "misspelling", "spelling", "rename", "format", "formatting",
        "lint", "linter", "comment", "docstring", "whitespace", "indentation", "indent",
        "trailing", "capitalize", "capitalization", "wording", "bump", "simple", "trivial",
        "tiny", "small", "minor", "quick", "one line", "one liner",
        "오타", "오탈자", "맞춤법", "철자", "이름 변경", "이름 바꾸", "이름 바꿔", "포맷",
        "서식", "들여쓰기", "띄어쓰기", "주석", "린트", "간단", "사소", "단순", "한 줄",
    ),
    "think": (
        "ultrathink", "megathink", "think hard", "think harder", "think deeply",
        "think carefully", "think it through", "think through", "step by step",
        "깊게 생각", "깊이 생각", "신중하게", "신중히", "단계별로", "단계적으로", "차근차근",
        "심사숙고", "곰곰이",
    ),
})

_index: list[KeywordIndex] = []


def keyword_index() -> KeywordIndex:
    """The index of :data:`KEYWORDS`, built on first use (not at import, since the prompt
    hook's cached policy carries its own copy; its cost: docs/benchmarks.md, "Costs behind
    the code")."""
    if not _index:
        _index.append(KeywordIndex(KEYWORDS))
    return _index[0]


_FLAG = regex.compile(r"(?<![\w-])--(?:think(?:-hard(?:er)?)?|ultrathink|ultra-think|deep-think)(?![\w-])")
_BULLET = regex.compile(r"\n[ \t]*[-*\u2022][ \t]+(?=\S)")
_NUMBERED = regex.compile(r"\d{1,2}[.)][ \t]+(?=\S)")
# one branch starting with a character class, so ``re`` can skip ahead: a line break, or
# ``. ! ?`` before a space (not ``1.`` of a numbered list); the spaces after are eaten
_SENTENCE_END = regex.compile(
    r"[\n.!?\u3002\u2026](?<![0-9][.!?\u3002\u2026])[.!?\u3002\u2026]*(?:(?<=\n)|(?=\s|$))\s*"
)


@frozen
class Complexity:
    """A score in [0, 1], the feature values behind it, and a forced route if any."""

    score: float
    features: Mapping[str, float]
    forced: str | None = None


def _saturate(n: float, scale: float) -> float:
    return 1.0 - math.exp(-n / scale)


def sentence_count(text: str) -> int:
    """Sentences: ends (``. ! ?`` before a space, line breaks) plus an unterminated tail."""
    ends = _SENTENCE_END.findall(text)
    tail = not ends or not text.endswith(ends[-1])
    return len(ends) + tail if text.strip() else 0


def list_items(text: str) -> int:
    """Bullets (``-``, ``*``, ``•`` at a line start) and numbers (``1.``, ``2)``) after
    a space, a line start or ``(``."""
    bullets = len(_BULLET.findall("\n" + text))
    numbers = sum(1 for m in _NUMBERED.finditer(text)
                  if m.start() == 0 or text[m.start() - 1] in " \t\n(")
    return bullets + numbers


def score(text: str, domains_touched: int = 1) -> Complexity:
    """Complexity of ``text``; ``domains_touched`` is how many domains its keywords hit.

    >>> score("fix the typo in README.md").score < 0.15
    True
    >>> score("Migrate the database schema, then deploy to production.", 3).score > 0.8
    True
    >>> score("ultrathink: rename this").forced
    'system2'
    """
    norm = normalize(text)
    return score_tokens(norm, tokenize(norm), domains_touched)


def score_tokens(norm: str, tokens: Sequence[str], domains_touched: int = 1,
                 index: KeywordIndex | None = None) -> Complexity:
    """:func:`score` on a text already normalised and tokenised (saves a pass); ``index`` is
    :func:`keyword_index` when a caller already holds it."""
    counts = (index if index is not None else keyword_index()).counts(tokens)
    forced = "system2" if counts.get("think") or ("--" in norm and _FLAG.search(norm)) else None
    steps = list_items(norm) + counts.get("steps", 0) + 0.5 * max(0, sentence_count(norm) - 1)
    features = {
        "steps": _saturate(steps, SATURATION["steps"]),
        "domains": min(max(domains_touched - 1, 0), 3) / 3,
        "ambiguity": _saturate(counts.get("ambiguity", 0), SATURATION["ambiguity"]),
        "risk": _saturate(counts.get("risk", 0), SATURATION["risk"]),
        "routine": _saturate(counts.get("routine", 0), SATURATION["routine"]),
        "length": min(1.0, math.log1p(len(tokens)) / math.log1p(LENGTH_CAP)),
    }
    z = BIAS + sum(WEIGHTS[name] * value for name, value in features.items())
    value = 1.0 / (1.0 + math.exp(-z))
    return Complexity(score=min(1.0, max(0.0, value)), features=features, forced=forced)
