"""What ``artibot status`` prints: the report of :func:`artibot.reports.status.status`, as JSON or for a person.

Free of the CLI framework: :mod:`artibot.cli.quick` runs it before typer is imported (the
command must start within its 300 ms target, and typer with its parameter machinery takes
about half of it: docs/benchmarks.md, "Costs behind the code"), and the ``status`` command of
:mod:`artibot.cli.cmd_state` runs the same function.
"""

from __future__ import annotations

from artibot.cli.json_out import emit_json
from artibot.reports.status import status
from artibot.store.home import Home


def show_status(as_json: bool) -> None:
    """The report for the data home in force (``--home`` or ``ARTIBOT_HOME``)."""
    from artibot.config import load_settings
    from artibot.cli.words import know_lang

    home = Home.of(None).require()
    settings = load_settings(home.root)
    know_lang(settings.lang)
    from artibot.cli.render_health import installed_ports

    doc = status(home=home, settings=settings, installed_ports=installed_ports(home))
    if as_json:
        emit_json(doc)
        return
    from artibot.cli.render import Hanging, Listing, console, fmt  # rich: for a person only
    from artibot.cli.render_round_checks import validation_block
    from artibot.cli.words import counter, price_said, value, w

    lang = settings.lang
    from artibot.cli.render_costs import any_turns, cost_lines, lead_lines

    if any_turns(doc["costs"]):  # before any turn there is nothing to lead with
        for line in lead_lines(doc["costs"], lang):
            console.print(Hanging(line))
    th = doc["thresholds"]
    rows = [("default", fmt(th["default"]))] + [(d, fmt(v)) for d, v in sorted(th["domains"].items())]
    console.print(Listing(w(lang, "st_thresholds"), [w(lang, "domain"), w(lang, "threshold")], rows))
    cache = doc["system1_patterns"]
    console.print(Hanging(w(lang, "st_cache", n=len(cache)) + (": " + ", ".join(cache[:10]) if cache else "")
                          + (" …" if len(cache) > 10 else "")))
    console.print(w(lang, "st_counts", n=doc["unprocessed"], full=doc["full_batches"], size=doc["batch_size"],
                    mode=doc["mode"], tracked=doc["patterns_tracked"]))
    price = doc.get("price")
    if price:
        console.print(Hanging(w(lang, "st_price", said=price_said(lang, price["value"], price["source"]),
                                extra=w(lang, "st_no_round") if price.get("round", "") is None else "")))
    if doc.get("interrupted"):
        console.print(w(lang, "st_interrupted", n=doc["interrupted"]))
    if doc.get("held_for_resume"):
        console.print(w(lang, "st_held", n=doc["held_for_resume"]))
    from artibot.cli.render_health import failure_lines, pending_line

    pending_text = pending_line(doc.get("pending_turns"))
    if pending_text:
        console.print(Hanging(pending_text))
    for line in failure_lines(doc.get("hook_failures") or [], f"{doc['home']}/logs/hooks.log"):
        console.print(line, markup=False, highlight=False)
    for line in cost_lines(doc["costs"]):
        console.print(Hanging(line))
    console.print(w(lang, "st_last_round", round=doc["last_round"] or w(lang, "none_yet"))
                  + (f" ({value(lang, str(doc['last_round_status']))}"
                     + (w(lang, "st_rolled_back") if doc.get("last_round_rolled_back") else "") + ")"
                     if doc["last_round"] else ""))
    for part in validation_block(doc["validation"]):
        console.print(part)
    if doc["pending_review"]:
        console.print(w(lang, "st_review", round=doc["pending_round"]))
    for gw in doc["gateway"]:
        line = w(lang, "st_gateway", port=gw["port"], state=value(lang, gw["state"]))
        if gw["state"] == "up":
            counters = gw["counters"] or {}
            line += w(lang, "st_gateway_up", version=gw["version"], pid=gw["pid"], counters=", ".join(
                counter(lang, name, count) for name, count in counters.items()))
        from artibot.cli.render_health import blocked_sentences

        blocked = blocked_sentences(gw)
        if blocked is not None:  # every prompt is stopped: say why and what to do
            console.print(Hanging(blocked[0]))
            console.print(Hanging("  → " + blocked[1]))
            continue
        if gw["state"] == "another program":
            line += w(lang, "st_gateway_foreign")
        console.print(Hanging(line))
        if gw.get("unrouted_models"):
            console.print(Hanging(w(lang, "st_gateway_unrouted", models=", ".join(gw["unrouted_models"]))))
    if doc.get("team"):
        from artibot.cli.cmd_team import render_team

        for line in render_team(doc["team"]):
            console.print(line, markup=False, highlight=False)
    console.print(w(lang, "st_home", home=doc["home"]))
