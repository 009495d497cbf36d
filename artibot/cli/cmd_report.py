"""``artibot report cost``: what the routes cost, measured by the gateway, against all System 2."""

from __future__ import annotations

import typer

from artibot.cli.render import console, emit_json, fmt
from artibot.cli.render import Listing
from artibot.cli.render_costs import lead_lines, usd as _usd
from artibot.reports.costs import cache_report, cost_report
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
    from artibot.cli.words import session_lang, w
    from artibot.learning.route_costs import REDO_NOTE, SAVING_NOTE
    from artibot.messages import render

    lang = session_lang()
    for line in lead_lines(doc, lang):
        console.print(line)
    routes = doc["routes"]
    rows = [[name, r["turns"], fmt(r["success_rate"], 2) if r["success_rate"] is not None else "—",
             _usd(r["total_usd"]), _usd(r["mean_usd"])] for name, r in routes.items()]
    console.print(Listing(w(lang, "rc_routes"), [w(lang, k) for k in ("route", "turns", "success", "total",
                                                                       "per_turn")], rows))
    day_rows = [[day, by["system1"]["turns"], _usd(by["system1"]["total_usd"]), by["system2"]["turns"],
                 _usd(by["system2"]["total_usd"])] for day, by in doc["days"].items()]
    if day_rows:
        console.print(Listing(w(lang, "rc_days"), [w(lang, k) for k in ("day", "s1_turns", "s1_cost", "s2_turns",
                                                                        "s2_cost")], day_rows))
    saved = doc["saved_usd"]
    if saved is not None:  # the lead said why there is none
        console.print(w(lang, "rc_saving", total=_usd(doc["total_usd"]), all=_usd(doc["all_system2_usd"]),
                        est=_usd(saved["estimate"]), low=_usd(saved["low"]), high=_usd(saved["high"])))
        console.print(w(lang, "rc_note", note=render(SAVING_NOTE, lang)))
    if doc["redos"] is not None:
        console.print(w(lang, "rc_note", note=render(REDO_NOTE, lang)))
    cache = doc["cache"]
    if any(c["turns"] for c in cache["routes"].values()):
        console.print(w(lang, "rc_cache") + "; ".join(
            f"{route.replace('system', 'System ')} {c['written']:,} / {c['read']:,}"
            for route, c in cache["routes"].items() if c["turns"]))
        switched = cache["switched"]
        console.print(w(lang, "rc_switches", n=switched["turns"], tokens=f"{switched['rewrite_tokens']:,}",
                        usd=_usd(switched["rewrite_cost_usd"])))
    if saved is not None:
        console.print(w(lang, "rc_net", usd=_usd(saved["estimate"])))
    chores = cache["housekeeping"]
    if chores["requests"]:
        console.print(w(lang, "rc_chores", n=chores["requests"], usd=_usd(chores["cost_usd"])))
    helpers = cache.get("agents") or {}
    if helpers.get("requests"):
        console.print(w(lang, "rc_agents", n=helpers["requests"], usd=_usd(helpers["cost_usd"]),
                        models=", ".join(helpers["models"]) or "?"))
    if doc["unmeasured_turns"]:
        console.print(w(lang, "rc_unmeasured", n=doc["unmeasured_turns"]))
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
