"""What the library means, by id: a :class:`Message` is an id and its parameters, said in a
language only at the edge (:func:`render`), from one catalogue per language.

The library's results and errors carry a :class:`Message` instead of (or, where an English
field is a contract of a JSON output or a file, beside) a finished sentence; the command line
renders it in the session's language. ``str(message)`` is its English sentence, which is what
an API caller reads in an exception or a ``reason`` field.

A catalogue (:mod:`artibot.messages.en`, :mod:`artibot.messages.ko`) maps each id to a
``str.format`` template; a parameter that is itself a :class:`Message` is rendered first, in
the same language, so a sentence made of parts (a comparison, then the move it implies) is
one id per part rather than one text per combination; a tuple of parts (an error's problems)
is said part by part, joined by ``"; "``. Numbers are formatted by the template
(``{old:.2f}``) or, where the library decides the precision (as many decimals as a comparison
needs to read true), passed already formatted. tests/test_messages.py holds every language to
every id and every parameter.

The same catalogues hold the words the command line says by key: the screens' words
(``w.KEY``, :func:`artibot.cli.words.w`) and the single values it shows (``value.*``,
``action.*``, ``status.*``, ``change.*``, ``counter.*``), the checkpoints' titles, questions
and options (``checkpoint.*``, :mod:`artibot.round.checkpoint_texts`), the pending round's
brief (``brief.*``) and each command's ``--help`` (``help.PATH.PARAM``, whose English is the
command's own help).

Imported by :mod:`artibot.errors`, so it stays at the lowest floor: no artibot import, and no
module the prompt hook would pay for (the catalogues load on the first render).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's own: artibot.errors imports this module
if TYPE_CHECKING:
    from typing import Any, Mapping, Union

    Param = Union[str, int, float, None, "Message", tuple[Union[str, "Message"], ...]]

LANGS = ("en", "ko")
"""The languages shipped: each has every id (tests/test_messages.py)."""


class Message:
    """A message id with its parameters: a value (equal by id and parameters), JSON-able."""

    __slots__ = ("id", "params")

    def __init__(self, id: str, /, **params: Param) -> None:  # positional: a parameter may be called id
        self.id = id
        self.params = params

    def __str__(self) -> str:
        return render(self, "en")

    def __repr__(self) -> str:
        inside = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"Message({self.id!r}{', ' if inside else ''}{inside})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.id, self.params) == (other.id, other.params)

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self.params.items(), key=lambda kv: kv[0]))))

    def to_json(self) -> dict[str, Any]:
        def one(v: Param) -> Any:
            if isinstance(v, tuple):
                return [one(x) for x in v]
            return v.to_json() if isinstance(v, Message) else v

        return {"id": self.id, "params": {k: one(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Message:
        """The message :meth:`to_json` wrote; a ValueError names what does not fit."""
        if not isinstance(doc, dict) or not isinstance(doc.get("id"), str) or not isinstance(doc.get("params"), dict):
            raise ValueError(f"a message is an object with an id and its params, not {doc!r}")
        if doc["id"] not in catalogue("en"):
            raise ValueError(f"no message has the id {doc['id']!r}")
        def one(k: str, v: Any, inside: bool = False) -> Any:
            if isinstance(v, dict):
                return cls.from_json(v)
            if isinstance(v, list) and not inside:
                return tuple(one(k, x, inside=True) for x in v)
            if isinstance(v, str) or (not inside and (v is None or isinstance(v, (int, float)))):
                return v
            raise ValueError(f"message {doc['id']}: parameter {k} is {v!r}, not a text, number, message or list")

        return cls(doc["id"], **{k: one(k, v) for k, v in doc["params"].items()})


def render(message: Message | str, lang: str) -> str:
    """``message`` in ``lang`` (English for a language artibot does not ship); a text that is
    not a :class:`Message` (a sentence from elsewhere) as it is."""
    if not isinstance(message, Message):
        return message
    texts = catalogue(lang)
    template = texts.get(message.id)
    if template is None:
        template = catalogue("en")[message.id]  # a KeyError: an id no catalogue has is a bug
    values = {k: "; ".join(render(x, lang) for x in v) if isinstance(v, tuple) else
              render(v, lang) if isinstance(v, Message) else v for k, v in message.params.items()}
    return template.format(**values)


def fields(template: str) -> set[str]:
    """The parameters a template names (``{old:.2f}`` names ``old``)."""
    from string import Formatter

    return {name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(template) if name}


_CATALOGUES: dict[str, dict[str, str]] = {}


def catalogue(lang: str) -> dict[str, str]:
    """The id -> template catalogue of ``lang`` ({} for a language artibot does not ship)."""
    if lang not in _CATALOGUES:
        if lang == "en":
            from artibot.messages.en import TEXTS
        elif lang == "ko":
            from artibot.messages.ko import TEXTS
        else:
            return {}
        _CATALOGUES[lang] = TEXTS
    return _CATALOGUES[lang]
