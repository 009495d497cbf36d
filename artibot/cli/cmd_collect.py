"""``artibot collect``: append one experience from flags, or records from stdin."""

from __future__ import annotations

import io
import sys
from typing import Any, BinaryIO, Callable, Iterable, Optional

import orjson
import typer

from artibot.collector import collect, collect_lines, collect_many, first_problems
from artibot.errors import InvalidInput, ValidationError
from artibot.messages import Message
from artibot.cli import completion
from artibot.cli.render import console, emit_json
from artibot.cli.team_sync import team_push


def parse_stdin(data: bytes) -> tuple[list[Any], str]:
    """Records from one JSON object, a JSON array, or JSON lines; returns (records, label)."""
    text = data.strip()
    if not text:
        raise _refused(Message("collect.stdin_empty"))
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        doc = None
        records = []
        problems: list[Message] = []
        for n, line in enumerate(text.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                records.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                problems.append(Message("record.at_line", n=n, problem=Message("json.invalid", reason=str(exc))))
        if problems:
            raise ValidationError(first_problems(problems), where="stdin")
        return records, "line"
    if isinstance(doc, dict):
        return [doc], "record"
    if isinstance(doc, list):
        return doc, "record"
    raise _refused(Message("collect.stdin_kind", kind=type(doc).__name__))


def _refused(problem: Message) -> InvalidInput:
    """The input as a whole refused (no record of it is at fault), before anything is written."""
    return InvalidInput(Message("collect.refused", problem=problem))


def json_lines(stream: BinaryIO) -> tuple[Callable[[], Iterable[bytes]] | None, bytes | None]:
    """``(lines, None)`` when the input is JSON lines (a first line that is a JSON object by
    itself, and more lines): ``lines()`` yields them from the start each time it is called
    (the file read again, or, from a pipe, the input's bytes kept, never its parsed records);
    else ``(None, every byte)`` for :func:`parse_stdin`."""
    try:
        start: int | None = stream.tell() if stream.seekable() else None
    except OSError:
        start = None
    head: list[bytes] = []
    eof = False  # seen: a terminal's end of input is not sticky, so nothing is read after it
    while True:
        line = stream.readline()
        if not line:
            eof = True
            break
        head.append(line)
        if line.strip():
            break
    first = head[-1] if head else b""
    try:
        one = isinstance(orjson.loads(first), dict) if first.strip() else False
    except orjson.JSONDecodeError:
        one = False
    second = stream.readline() if one and not eof else b""
    while one and second and not second.strip():
        head.append(second)
        second = stream.readline()
    eof = eof or (one and not second)
    if not (one and second.strip()):
        return None, b"".join(head) + second + (b"" if eof else stream.read())
    if start is not None:
        def again() -> Iterable[bytes]:
            stream.seek(start)
            return iter(stream.readline, b"")
        return again, None
    data = b"".join(head) + second + stream.read()
    return (lambda: io.BytesIO(data)), None


def register(app: typer.Typer) -> None:
    @app.command("collect")
    def collect_cmd(
        stdin: bool = typer.Option(False, "--stdin", help="Read one JSON object, a JSON array, or JSON lines."),
        input: Optional[str] = typer.Option(None, "--input", help="The request text (anonymized before it is stored)."),
        domain: Optional[str] = typer.Option(None, "--domain", autocompletion=completion.domains),
        complexity: Optional[float] = typer.Option(None, "--complexity", help="0 to 1."),
        routed_to: Optional[str] = typer.Option(None, "--routed-to", help="system1 or system2."),
        outcome: Optional[str] = typer.Option(None, "--outcome", help="success, escalated or failed."),
        latency_ms: Optional[float] = typer.Option(None, "--latency-ms"),
        confidence: Optional[float] = typer.Option(None, "--confidence", help="0 to 1."),
        pattern: Optional[str] = typer.Option(None, "--pattern"),
        threshold: Optional[float] = typer.Option(None, "--threshold"),
        propensity: Optional[float] = typer.Option(None, "--propensity", help="(0, 1]."),
        session_id: Optional[str] = typer.Option(None, "--session-id"),
        id: Optional[str] = typer.Option(None, "--id"),
        timestamp: Optional[str] = typer.Option(None, "--timestamp", help="ISO 8601 with a timezone."),
        as_json: bool = typer.Option(False, "--json", help="Print the stored record(s)."),
        quiet: bool = typer.Option(False, "--quiet", "-q"),
    ) -> None:
        """Append experiences. A batch with any invalid record writes nothing (exit 2)."""
        flags = {"input": input, "domain": domain, "complexity": complexity, "routed_to": routed_to,
                 "outcome": outcome, "latency_ms": latency_ms, "confidence": confidence, "pattern": pattern,
                 "threshold": threshold, "propensity": propensity, "session_id": session_id, "id": id,
                 "timestamp": timestamp}
        given = {k: v for k, v in flags.items() if v is not None}
        from artibot.hookpath.turns.call import settle_waiting_turns
        from artibot.store.home import Home

        settle_waiting_turns(str(Home.of(None).root))  # ended sessions' turns past their hold go first
        if stdin:
            if given:
                raise _refused(Message("collect.stdin_and_flag", option=f"--{next(iter(given)).replace('_', '-')}"))
            # a bulk import makes a few dicts per record, none in a cycle: the cyclic collector
            # would only walk them again and again (the CLI has loaded the learner already)
            from artibot.round.cycle import collector_paused

            with collector_paused():
                lines, data = json_lines(sys.stdin.buffer) if not as_json else (None, sys.stdin.buffer.read())
                if lines is not None:  # JSON lines: a batch at a time (--json prints every record: whole)
                    count = collect_lines(lines)
                else:
                    records, label = parse_stdin(data or b"")
                    stored = collect_many(records, label=label)
                    count = len(stored)
        else:
            stored = [collect(given)]
            count = 1
        if as_json:
            emit_json(stored if stdin else stored[0])
        elif not quiet:
            from artibot.cli.words import session_lang, w

            lang = session_lang()
            console.print(w(lang, "co_collected", n=count) + (w(lang, "co_one", id=stored[0]["id"])
                                                              if count == 1 and stored else ""))
        team_push()
