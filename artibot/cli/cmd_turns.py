"""``artibot turns``: the last turns, what the router decided and why, and how they ended."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Optional

import typer

from artibot.cli.render import Listing, console, emit_json, fmt
from artibot.cli.words import session_lang, value, w
from artibot.cli.words_errors import said_message, say
from artibot.shapes import TurnLine

if TYPE_CHECKING:
    from artibot.reports.turns import SaidTurn

FOLLOW_POLL_S = 1.0


def _row(t: TurnLine, lang: str) -> list[str]:
    route = {"system1": "S1", "system2": "S2"}.get(t["route"] or "", "—")
    gateway = " ".join(x for x in (t["effort"], t["model"]) if x) or "—"
    tokens = f"{t['tokens']:,}" if t["tokens"] is not None else "—"
    cost = f"${t['cost_usd']:.4f}" if t["cost_usd"] is not None else "—"
    numbers = f"{fmt(t['complexity'], 2)}/{fmt(t['threshold'], 2)}"
    return [t["time"][:19].replace("T", " "), t["agent"], t["domain"], numbers, route, gateway,
            value(lang, t["outcome"]), tokens, cost]


WAITS = {"in progress": "t_wait_open", "next prompt": "t_wait_next", "resumed session": "t_wait_resume",
         "session end": "t_wait_queued"}


def _notes(turn: SaidTurn, lang: str) -> list[str]:
    t, why_said = turn
    why = w(lang, "t_why", route=t["route"] or w(lang, "t_no_route"), why=said_message(lang, why_said))
    ended = f"; {value(lang, t['outcome'])}: {say(lang, t['outcome_reason'])}" if t["outcome_reason"] else ""
    notes = [f"“{t['prompt']}”", why + ended]
    waits = t.get("waits_for")
    if waits in WAITS:  # what a pending turn waits for, and until when
        until = (t.get("until") or "")[11:16]
        notes.append(w(lang, "t_pending") + w(lang, WAITS[waits], until=until or "?"))
    return notes


COLUMNS = ["t_time", "t_agent", "domain", "t_cx", "route", "t_gateway", "t_outcome", "t_tokens", "t_cost"]


def register(app: typer.Typer) -> None:
    @app.command("turns")
    def turns_cmd(limit: int = typer.Option(20, "-n", "--limit", min=1, metavar="N", help="How many turns."),
                  session: Optional[str] = typer.Option(None, "--session", metavar="S",
                                                        help="Only this session's turns (an id or its start)."),
                  follow: bool = typer.Option(False, "--follow", "-f", help="Keep printing turns as they land."),
                  as_json: bool = typer.Option(False, "--json", help="JSON (with --follow: one object a line).")
                  ) -> None:
        """The last turns: time, agent, prompt (anonymized), domain, complexity/threshold, route and why,
        the gateway's effort and model, outcome, tokens, cost."""
        from artibot.store.home import Home
        from artibot.reports.turns import said_turns

        home = Home.of(None).require()
        lines = said_turns(limit, session=session, home=home)
        if as_json and not follow:
            emit_json([line for line, _ in lines])
            return
        _show(lines, as_json, header=True)
        if not lines and not follow:
            lang = session_lang()
            console.print(w(lang, "t_none_in", session=session) if session else w(lang, "t_none"))
        if not follow:
            return
        shown = {(t["id"], t["outcome"]) for t, _ in lines}
        try:
            while True:
                time.sleep(FOLLOW_POLL_S)
                fresh = [(t, why) for t, why in said_turns(limit, session=session, home=home)
                         if (t["id"], t["outcome"]) not in shown]
                shown.update((t["id"], t["outcome"]) for t, _ in fresh)
                _show(fresh, as_json, header=False)
        except KeyboardInterrupt:
            raise typer.Exit(0) from None


def _show(lines: list[SaidTurn], as_json: bool, *, header: bool) -> None:
    if as_json:
        import orjson
        import sys

        for t, _ in lines:
            sys.stdout.write(orjson.dumps(t).decode() + "\n")
        sys.stdout.flush()
        return
    if not lines:
        return
    lang = session_lang()
    listing = Listing(None, [w(lang, c) for c in COLUMNS], [_row(t, lang) for t, _ in lines],
                      [_notes(turn, lang) for turn in lines])
    if header:
        console.print(listing)
        return
    # --follow: the new rows only, without repeating the column names
    with console.capture() as captured:
        console.print(listing)
    console.file.write(captured.get().split("\n", 1)[1])
    console.file.flush()
