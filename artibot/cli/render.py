"""Rendering shared by the commands: JSON to stdout, tables and listings to the terminal.

Designed for an 80-column terminal. In a terminal, text is word-wrapped with a hanging
indent; piped into a file or another program, nothing is hard-wrapped (a line is one
line, whatever its length), so ``grep`` and ``less -S`` see whole values.
"""

from __future__ import annotations

import errno
import os
from typing import Any, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.table import Table

# JSON output lives apart from rich (`status --json` starts without it); the commands import it from here too
from artibot.cli.json_out import emit_json as emit_json, tidy as tidy
from artibot.hookpath.inert import terminal


class _Console(Console):
    """A console that word-wraps for a person and never hard-wraps for a pipe."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if "soft_wrap" not in kwargs and not self.is_terminal:
            kwargs["soft_wrap"] = True
        super().print(*objects, **kwargs)

    def on_broken_pipe(self) -> None:
        # rich exits 1 here; a reader that went away (`artibot demo | head`) is not a
        # failure: silence the stream and let the CLI's one handler stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self.file.fileno())
        raise BrokenPipeError(errno.EPIPE, "the reader closed the pipe")


console = _Console(highlight=False)
err_console = _Console(stderr=True, highlight=False)


def working(what: str, out: Console | None = None) -> Any:
    """Before something that takes more than a moment: one dim line saying what, on a
    terminal (stderr: never in a piped result); nothing in a pipe. A line, not a spinner:
    it stays readable in a terminal's scrollback and in a recorded session."""
    from contextlib import nullcontext

    progress_line(out or err_console)(what)
    return nullcontext()


def progress_line(out: Console) -> Any:
    """A ``say(message)`` that prints each step of a long run as a dim line on a terminal."""
    def say(message: str) -> None:
        if out.is_terminal:
            out.print(f"artibot: {message}", style="dim", highlight=False, markup=False)
    return say


def table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    t = Table(title=title, title_justify="left", show_lines=False)
    for col in columns:
        t.add_column(col)
    for row in rows:
        t.add_row(*("—" if v is None else str(v) for v in row))
    return t


def fmt(x: float | None, nd: int = 3) -> str:
    return "—" if x is None else f"{x:.{nd}f}"


NBSP = "\u00a0"


def wrap(text: str, width: int | None, *, first: str = "", indent: str = "") -> list[str]:
    """``first + text`` word-wrapped to ``width`` terminal cells, later lines after ``indent``.

    Counts cells, not characters (a Korean syllable takes two). Breaks only at plain spaces
    (a no-break space keeps a name with its value). A word longer than a whole line is put
    on a line of its own, never cut. ``width=None``: one line.

    >>> wrap("the results look reasonable", 20, first="  1) ", indent="     ")
    ['  1) the results look', '     reasonable']
    """
    words = [w.replace(NBSP, " ") if width is None else w for w in text.replace("\n", " ").split(" ") if w]
    if width is None or not words:
        return [first + " ".join(words)]
    lines: list[str] = []
    line, used, bare = first, cell_len(first), True
    for word in words:
        size = cell_len(word)
        if not bare and used + 1 + size > width:
            lines.append(line)
            line, used, bare = indent, cell_len(indent), True
        line, used, bare = (line + word, used + size, False) if bare else (line + " " + word, used + 1 + size, False)
    lines.append(line)
    return [x.replace(NBSP, " ") for x in lines]


class Hanging:
    """One paragraph, wrapped with a hanging indent in a terminal, one line in a pipe."""

    def __init__(self, text: str, first: str = "", indent: str | None = None, style: str = ""):
        self.text, self.first = terminal(text, lines=True), first  # a name in it may be a team member's
        self.indent = " " * cell_len(first) if indent is None else indent
        self.style = Style.parse(style) if style else None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width if console.is_terminal else None
        for line in wrap(self.text, width, first=self.first, indent=self.indent):
            yield Segment(line, self.style)
            yield Segment.line()


class Listing:
    """Rows in aligned columns, each optionally followed by notes indented under it.

    The long "why" of a row goes in a note, wrapped under its row, so that the columns
    stay narrow enough for 80 columns and no value is ever cut short.
    """

    def __init__(self, title: str | None, columns: Sequence[str], rows: Sequence[Sequence[Any]],
                 notes: Sequence[Sequence[str]] | None = None, *, caption: str | None = None,
                 note_indent: int = 4):
        # what is printed raw is inert: a value (a domain name) may be a team member's text
        self.title = terminal(title, lines=True) if title is not None else None
        self.caption = terminal(caption, lines=True) if caption is not None else None
        self.columns = list(columns)
        self.rows = [["—" if v is None else terminal(v) for v in row] for row in rows]
        self.notes = [[terminal(n, lines=True) for n in note] for note in notes] if notes is not None \
            else [[] for _ in self.rows]
        self.note_indent = note_indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width if console.is_terminal else None
        bold = Style(bold=True)
        if self.title:
            yield from (Segment(line, bold) for line in _lines(wrap(self.title, width)))
        widths = [max([cell_len(c)] + [cell_len(r[i]) for r in self.rows]) for i, c in enumerate(self.columns)]

        def line(cells: Sequence[str]) -> str:
            padded = [c + " " * (w - cell_len(c)) for c, w in zip(cells, widths)]
            return "  ".join(padded).rstrip()

        pad = " " * self.note_indent
        yield Segment(line(self.columns), Style(bold=True, underline=True) if console.is_terminal else None)
        yield Segment.line()
        for row, notes in zip(self.rows, self.notes):
            text = line(row)
            if width is not None and cell_len(text) > width and len(row) > 1:
                # the last value does not fit beside the others: it goes whole on the next line
                text = line(row[:-1]) + "\n" + "\n".join(wrap(row[-1], width, first=pad, indent=pad))
            yield Segment(text)
            yield Segment.line()
            for note in notes:
                yield from (Segment(x) for x in _lines(wrap(note, width, first=pad, indent=pad)))
        if self.caption:
            yield from (Segment(x, Style(dim=True)) for x in _lines(wrap(self.caption, width)))


def _lines(lines: Iterable[str]) -> Iterable[str]:
    for text in lines:
        yield text + "\n"
