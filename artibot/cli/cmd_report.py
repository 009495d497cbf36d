"""``artibot report cost``: what the routes cost, measured by the gateway, against all System 2."""

from __future__ import annotations

import typer

from artibot.cli.render import console, emit_json, fmt
from artibot.cli.render import Listing
from artibot.cli.render_costs import usd as _usd
from artibot.costs import cache_report, cost_report
from artibot.store.home import Home
from artibot.cli import cmd_report_html as _html

report_app = typer.Typer(help="Reports over the recorded turns.")
_html.register(report_app)  # `artibot report` alone writes the HTML page


@report_app.command("cost")
def cost_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
    """Cost per route and per day (turns through the gateway), against every turn at System 2."""
    home = Home.of(None)
    doc = cost_report(home=home).to_json()
    doc["cache"] = cache_report(home=home)
    if as_json:
        emit_json(doc)
        return
    routes = doc["routes"]
    rows = [[name, r["turns"], fmt(r["success_rate"], 2) if r["success_rate"] is not None else "—",
             _usd(r["total_usd"]), _usd(r["mean_usd"])] for name, r in routes.items()]
    console.print(Listing("Cost per route", ["route", "turns", "success", "total", "per turn"], rows))
    day_rows = [[day, by["system1"]["turns"], _usd(by["system1"]["total_usd"]), by["system2"]["turns"],
                 _usd(by["system2"]["total_usd"])] for day, by in doc["days"].items()]
    if day_rows:
        console.print(Listing("Cost per day", ["day", "S1 turns", "S1 cost", "S2 turns", "S2 cost"], day_rows))
    saved = doc["saved_usd"]
    if saved is None:
        console.print("all at System 2: needs measured turns of both routes")
    else:
        console.print(f"total {_usd(doc['total_usd'])}; every turn at System 2: {_usd(doc['all_system2_usd'])}; "
                      f"saved {_usd(saved['estimate'])} (95% interval {_usd(saved['low'])} to {_usd(saved['high'])})")
        console.print(f"note: {doc['note']}")
    cache = doc["cache"]
    if any(c["turns"] for c in cache["routes"].values()):
        console.print("prompt cache (tokens written / read): " + "; ".join(
            f"{route.replace('system', 'System ')} {c['written']:,} / {c['read']:,}"
            for route, c in cache["routes"].items() if c["turns"]))
        switched = cache["switched"]
        console.print(f"route switches: {switched['turns']} turn(s) changed the session's effort or model; their "
                      f"first requests wrote {switched['rewrite_tokens']:,} cached tokens again "
                      f"({_usd(switched['rewrite_cost_usd'])} over reading them), charged to System 1 above")
    if saved is not None:
        console.print(f"net saving after cache rewrites: {_usd(saved['estimate'])}")
    chores = cache["housekeeping"]
    if chores["requests"]:
        console.print(f"client housekeeping (compaction): {chores['requests']} request(s), "
                      f"{_usd(chores['cost_usd'])}, not counted in any route")
    if doc["unmeasured_turns"]:
        console.print(f"{doc['unmeasured_turns']} turn(s) without a measured cost (recorded without the gateway, "
                      "or on a model with no price: gateway.pricing.models)")
    _pending_hint(home)


def _pending_hint(home: Home) -> None:
    """The turns still in open or held sessions: not in these sums until their session ends."""
    from artibot.cli.render_health import pending_line
    from artibot.store.sessions import pending_turns

    line = pending_line(pending_turns(home))
    if line:
        console.print(line)


def register(app: typer.Typer) -> None:
    app.add_typer(report_app, name="report")
