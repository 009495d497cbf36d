"""The errors people commonly meet, and the other sentences the library words in English (a
doctor's finding, why a turn took its route), said in the configured language.

An error or result that carries a :class:`~artibot.messages.Message` is said from the catalogues
(:func:`say_error`, :func:`said_message`, :func:`say_any`). The library's sentences not converted
to messages yet, and the parser's (:mod:`artibot.cli.words_foreign`), still pass through
:func:`say`, which rewrites the known sentences into the session's language by pattern and keeps
the keys, paths, values and commands they name as they are; a sentence with no entry stays in
English. Each sentence converted to a message deletes its pattern here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Union

from artibot.cli.words_doctor import DOCTOR
from artibot.cli.words_foreign import CLICK_ERRORS
from artibot.cli.words_sentences import SENTENCES
from artibot.cli.words_team import TEAM
from artibot.errors import ArtibotError
from artibot.messages import Message, render

if TYPE_CHECKING:
    from artibot.messages import Param

_Replacement = Union[str, Callable[["re.Match[str]"], str]]
_Rule = tuple["re.Pattern[str]", _Replacement]


def _first_bad(m: re.Match[str]) -> str:
    """doctor's count of records that break the schema, with the first one's problems said too."""
    line, _, problems = m["f"].partition(": ")
    where = f"{line[5:]}번째 줄: " if line.startswith("line ") and problems else ""
    said = "; ".join(say("ko", p) for p in (problems if where else m["f"]).split("; "))
    return f"레코드 {m['n']}개가 스키마에 맞지 않아 `artibot learn`이 멈춥니다 (첫 번째: {where}{said})"


_KO: list[tuple[str, _Replacement]] = [
    # sentences that hold others (said by this module's own rules)
    (r"^(?P<n>\d+) record\(s\) break the schema, so `artibot learn` stops on them \(first: (?P<f>.+)\)$", _first_bad),
    # the library
    # why a turn took its route (artibot.reports.turns.route_reason)
    (r"^explored: (?P<why>.+), sent the other way$", r"탐색: \g<why>, 반대 경로로 보냄"),
    (r"complexity (?P<c>[\d.]+) (?P<s>[≥<]) threshold (?P<t>[\d.]+)", r"복잡도 \g<c> \g<s> 임계값 \g<t>"),
    (r"^the request asks for deliberate thinking$", "요청이 깊은 사고를 요구합니다"),
    (r"^pattern (?P<p>\S+) is in the System 1 cache$", r"패턴 \g<p>이(가) System 1 캐시에 있습니다"),
    (r"^no threshold recorded$", "기록된 임계값 없음"),
    # `artibot report` without its extra (artibot.cli.report_html)
    (r"^the report draws its charts with matplotlib, which artibot's environment lacks: (?P<c>.+)$",
     r"보고서는 matplotlib로 차트를 그리는데, artibot의 환경에 matplotlib가 없습니다: \g<c>"),
    (r" \(see '(?P<c>[^']+)'\)$", r" ('\g<c>' 참고)"),
    (r"; --home goes before the command: (?P<c>.+)$", r"; --home은 명령 앞에 씁니다: \g<c>"),
]
KO: list[_Rule] = [(re.compile(p), r) for p, r in SENTENCES + TEAM + DOCTOR + _KO + CLICK_ERRORS]
"""The specific sentences first; the parser's own, which only artibot's hints follow, last."""

RULES: dict[str, list[_Rule]] = {"ko": KO}

def said_message(lang: str, message: Message) -> str:
    """A library message in ``lang``; the sentences among its parts that are not messages yet
    (a validator's problem beside a converted one) through :func:`say`."""
    return render(_bridged(lang, message), lang)


def _bridged(lang: str, message: Message) -> Message:
    def one(v: Param) -> Param:
        if isinstance(v, Message):
            return _bridged(lang, v)
        if isinstance(v, tuple):
            return tuple(say(lang, x) if isinstance(x, str) else _bridged(lang, x) for x in v)
        return v

    return Message(message.id, **{k: one(v) for k, v in message.params.items()})


def say_error(lang: str, error: ArtibotError) -> str:
    """An error's line (without ``artibot:``) in ``lang``: its message, else its sentence."""
    if error.message is not None:
        return said_message(lang, error.message)
    return say(lang, str(error))


def say_any(lang: str, text: str | Message) -> str:
    """A library message (:func:`said_message`) or a sentence (:func:`say`) in ``lang``."""
    return said_message(lang, text) if isinstance(text, Message) else say(lang, text)


def say(lang: str, message: str) -> str:
    """``message`` (one error line, without the ``artibot:`` prefix) in ``lang``."""
    for pattern, replacement in RULES.get(lang, ()):
        message = pattern.sub(replacement, message)
    return message
