"""The terminal's words: keyed texts of the one catalogue per language (:mod:`artibot.messages`).

:func:`w` says a word of the screens (table headings, captions, the prompt, the closing
summary; ``status``, ``history``, ``turns``, ``demo``, ``report cost`` and the other commands'
lines): the catalogue's id ``w.KEY``, so a screen names its word by key and the catalogue
holds it in every language (tests/test_messages.py). :func:`value`, :func:`action`,
:func:`status_word`, :func:`change_word` and :func:`counter` say a single value the library
reports in English (a round's status, a pattern's action, an install plan's action, a
gateway counter) by its id, and the value itself where the catalogue has none.
:mod:`artibot.round.checkpoint_texts` says the checkpoints' questions and options (shared
with ``/learn``), :mod:`artibot.cli.words_errors` the errors. A Korean screen keeps in
English only proper names (System 1, GRPO), numbers, pattern keys, domain names, config
keys, paths and commands. :func:`session_lang` is the configured language.
"""

from __future__ import annotations

from typing import Any

from artibot.messages import LANGS, Message, catalogue, render


def w(lang: str, key: str, **values: Any) -> str:
    """The word ``key`` of the screens in ``lang`` (English where ``lang`` has none), filled with ``values``."""
    return render(Message(f"w.{key}", **values), lang)


def _said(family: str, lang: str, name: str, **values: Any) -> str | None:
    key = f"{family}.{str(name).replace(' ', '_')}"  # str(): a row's value may be missing (None)
    return render(Message(key, **values), lang) if key in catalogue(lang) else None


def value(lang: str, word: str) -> str:
    """A single value the library reports in English (a round's status, an outcome), in ``lang``."""
    return _said("value", lang, word) or word


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
    return lang if lang in LANGS else "en"


def price_said(lang: str, price: float, source: str) -> str:
    """The price of System 2 in a person's words: with the cost objective (source ``cost``), the
    failure rate under which System 1 goes first; otherwise the success points System 2 must
    add to be worth its cost."""
    if source == "cost":
        return w(lang, "price_cost", pct=f"{price:.1%}")
    return w(lang, "price_points", pts=f"{price * 100:.1f}", source=value(lang, source))


def action(lang: str, name: str) -> str:
    """A pattern's action (promote, demote, hold) in ``lang``."""
    return _said("action", lang, name) or name


def status_word(lang: str, name: str) -> str:
    """A pattern's status (candidate, active, demoted) in ``lang``."""
    return _said("status", lang, name) or name


def change_word(lang: str, name: str) -> str:
    """An install plan's action on a file (create, update, unchanged, remove) in ``lang``."""
    return _said("change", lang, name) or name


def counter(lang: str, name: str, count: int) -> str:
    """A gateway counter and its count, as ``status`` lists them ("3 requests")."""
    return _said("counter", lang, name, n=count) or f"{count} {name.replace('_', ' ')}"
