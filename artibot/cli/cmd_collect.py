"""``artibot collect``: append one experience from flags, or records from stdin."""

from __future__ import annotations

import sys
from typing import Any, Optional

import orjson
import typer

from artibot.collector import collect, collect_many
from artibot.errors import ValidationError
from artibot.cli import completion
from artibot.cli.render import console, emit_json
from artibot.cli.team_sync import team_push


def parse_stdin(data: bytes) -> tuple[list[Any], str]:
    """Records from one JSON object, a JSON array, or JSON lines; returns (records, label)."""
    text = data.strip()
    if not text:
        raise ValidationError(["stdin is empty: give one JSON object, a JSON array, or JSON lines"])
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        doc = None
        records = []
        problems = []
        for n, line in enumerate(text.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                records.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                problems.append(f"line {n}: not valid JSON ({exc})")
        if problems:
            raise ValidationError(problems[:20] + ([f"… and {len(problems) - 20} more"] if len(problems) > 20 else []),
                                  where="stdin")
        return records, "line"
    if isinstance(doc, dict):
        return [doc], "record"
    if isinstance(doc, list):
        return doc, "record"
    raise ValidationError([f"stdin holds a JSON {type(doc).__name__}; give an object, an array, or JSON lines"])


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
        from artibot.integrations.turns.call import settle_waiting_turns
        from artibot.store.home import Home

        settle_waiting_turns(str(Home.of(None).root))  # ended sessions' turns past their hold go first
        if stdin:
            if given:
                raise ValidationError([f"--{next(iter(given)).replace('_', '-')} cannot be combined with --stdin"])
            # a bulk import makes a few dicts per record, none in a cycle: the cyclic collector
            # would only walk them again and again (the CLI has loaded the learner already)
            from artibot.cycle import collector_paused

            with collector_paused():
                records, label = parse_stdin(sys.stdin.buffer.read())
                stored = collect_many(records, label=label)
        else:
            stored = [collect(given)]
        if as_json:
            emit_json(stored if stdin else stored[0])
        elif not quiet:
            from artibot.cli.words import session_lang, w

            lang = session_lang()
            console.print(w(lang, "co_collected", n=len(stored)) + (w(lang, "co_one", id=stored[0]["id"])
                                                                    if len(stored) == 1 else ""))
        team_push()
