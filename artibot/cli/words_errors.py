"""The errors people commonly meet, and the other sentences the library words in English (a
doctor's finding), said in the configured language.

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

from artibot.cli.words_foreign import CLICK_ERRORS
from artibot.cli.words_sentences import SENTENCES
from artibot.errors import ArtibotError, ValidationError
from artibot.messages import Message, render

if TYPE_CHECKING:
    from artibot.messages import Param

_Replacement = Union[str, Callable[["re.Match[str]"], str]]
_Rule = tuple["re.Pattern[str]", _Replacement]


_KO: list[tuple[str, _Replacement]] = [
    # the library
    (r"(?P<key>[\w.]+) must be a number in (?P<range>[\[(][^\])]*[\])]), not (?P<v>[^;]+)",
     r"\g<key>은(는) \g<range> 범위의 숫자여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"(?P<key>[\w.]+) must be one of (?P<opts>.+?), not (?P<v>[^;]+)",
     r"\g<key>은(는) \g<opts> 중 하나여야 합니다 (\g<v>은(는) 안 됨)"),
    (r"not valid JSON \((?P<why>.*)\)", r"올바른 JSON이 아닙니다 (\g<why>)"),
]
KO: list[_Rule] = [(re.compile(p), r) for p, r in SENTENCES + _KO + CLICK_ERRORS]
"""The specific sentences first; the parser's own last."""

RULES: dict[str, list[_Rule]] = {"ko": KO}

_PROBLEM_AT = re.compile(r"^(?P<what>record|line) (?P<n>\d+): ")
PROBLEM_AT = {"ko": {"record": "레코드 {n}: ", "line": "{n}번째 줄: "}}
NOTHING_WRITTEN = {"en": " (nothing was written)", "ko": " (아무것도 기록하지 않았습니다)"}


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
    """An error's line (without ``artibot:``) in ``lang``: its message, else its sentence (a
    record's validation problems one by one)."""
    if error.message is not None:
        return said_message(lang, error.message)
    if isinstance(error, ValidationError):
        return say_problems(lang, error.problems, error.where)
    return say(lang, str(error))


def say_any(lang: str, text: str | Message) -> str:
    """A library message (:func:`said_message`) or a sentence (:func:`say`) in ``lang``."""
    return said_message(lang, text) if isinstance(text, Message) else say(lang, text)


def say(lang: str, message: str) -> str:
    """``message`` (one error line, without the ``artibot:`` prefix) in ``lang``."""
    for pattern, replacement in RULES.get(lang, ()):
        message = pattern.sub(replacement, message)
    return message


def say_problems(lang: str, problems: list[str], where: str | None) -> str:
    """A :class:`~artibot.errors.ValidationError`'s line in ``lang``, said one problem at a time
    (each names its record or line first, as the library words it)."""
    said = []
    for problem in problems:
        m = _PROBLEM_AT.match(problem)
        head = PROBLEM_AT.get(lang, {}).get(m["what"], m.group()).format(n=m["n"]) if m else ""
        said.append(head + say(lang, problem[m.end():] if m else problem))
    return (f"{where}: " if where else "") + "; ".join(said) + NOTHING_WRITTEN.get(lang, NOTHING_WRITTEN["en"])
