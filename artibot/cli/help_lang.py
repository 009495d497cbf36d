"""``--help`` in the configured language.

The commands define their help in English (typer reads it from the signatures when a
command's module loads). A help screen is rendered through :class:`LocalContext`, the
context of ``artibot`` and of every command the lazy group loads: only when a screen is
actually shown does it look up the language, put each help text the catalogue of that
language has (:mod:`artibot.messages`, ids ``help.PATH.PARAM``) in place for the rendering,
and put the English back. The English entries are the commands' own help (a test holds them
equal), so a language's catalogue names every text it words. A command that runs, and TAB
completion, never come here, so they load nothing more.
"""

from __future__ import annotations

from typing import Any, Callable

try:  # typer vendors click since 0.2x
    from typer._click import formatting
    from typer._click.core import Command, Context
except ImportError:  # pragma: no cover - older typer
    from click import Command, Context, formatting  # type: ignore[no-redef,import-not-found,unused-ignore]

LANG_KEY = "artibot.lang"
"""``ctx.meta``'s entry for the language of the help being rendered (the command list reads it)."""


class LocalContext(Context):
    """A context whose help screen is said in the configured language."""

    def get_help(self) -> str:
        return localized(self, super().get_help)


def adopt(command: Command) -> None:
    """Render ``command``'s help, and its subcommands', through :class:`LocalContext`."""
    command.context_class = LocalContext
    for sub in getattr(command, "commands", {}).values():
        adopt(sub)


def localized(ctx: Context, render: Callable[[], str]) -> str:
    """``render()`` with the help texts of ``ctx``'s command in the session's language."""
    from artibot.cli.words import session_lang

    try:
        lang = session_lang()
    except Exception:  # noqa: BLE001 - the help matters more than its language
        lang = "en"
    if lang == "en":
        return render()
    path = " ".join(ctx.command_path.split(" ")[1:])
    saved: list[tuple[Any, str, Any]] = []

    def put(obj: Any, attr: str, key: str) -> None:
        said = help_text(lang, key)
        if said is not None:
            saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, said)

    command = ctx.command
    put(command, "help", path)
    for param in command.params:
        put(param, "help", f"{path} {param.opts[0] if param.param_type_name == 'option' else param.name}")
    for name, sub in getattr(command, "commands", {}).items():
        put(sub, "help", f"{path} {name}".strip())
    ctx.meta[LANG_KEY] = lang
    english_wrap = formatting.wrap_text
    formatting.wrap_text = wrap_wide  # Hangul takes two columns: wrap by what the terminal shows
    try:
        return headings(lang, render())
    finally:
        formatting.wrap_text = english_wrap
        for obj, attr, english in reversed(saved):
            setattr(obj, attr, english)


def help_text(lang: str, key: str) -> str | None:
    """The help of ``key`` (a command's path under ``artibot``, then a parameter: its first
    option name or its argument's name; "" is ``artibot`` itself) in ``lang``: the catalogue's
    ``help.PATH.PARAM`` (``help.team.learn.--yes``); None: as the command defines it."""
    from artibot.messages import Message, catalogue, render

    key = "help" + "".join(f".{part}" for part in key.split())
    return render(Message(key), lang) if key in catalogue(lang) else None


def headings(lang: str, text: str) -> str:
    """A rendered help screen with the parser's own words (Usage, Options, [default: …], the
    parameters' types) in ``lang``: click's and typer's English, not artibot's, so matched
    (:data:`artibot.cli.words_foreign.CLICK_HELP`)."""
    import re

    from artibot.cli.words_foreign import CLICK_HELP

    for pattern, replacement in CLICK_HELP.get(lang, ()):
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    return text


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a wide character, Hangul or CJK, takes two)."""
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)


def wrap_wide(text: str, width: int = 78, initial_indent: str = "", subsequent_indent: str = "",
              preserve_paragraphs: bool = False) -> str:
    """The parser's ``wrap_text`` counting columns rather than characters: each paragraph
    (a blank line apart when ``preserve_paragraphs``) re-flowed at word boundaries."""
    paragraphs = text.split("\n\n") if preserve_paragraphs else [text]
    out: list[str] = []
    for paragraph in paragraphs:
        lines: list[str] = []
        line = initial_indent if not out else subsequent_indent
        empty = True
        for word in paragraph.split():
            if not empty and columns(line) + 1 + columns(word) > width:
                lines.append(line)
                line, empty = subsequent_indent, True
            line += word if empty else " " + word
            empty = False
        lines.append(line)
        out.append("\n".join(lines))
    return "\n\n".join(out)
