"""What ``artibot status`` prints: the report of :func:`artibot.status.status`, as JSON or for a person.

Free of the CLI framework: :mod:`artibot.cli.quick` runs it before typer is imported (the
command must start within ~300 ms, and typer with its parameter machinery costs about half
of that), and the ``status`` command of :mod:`artibot.cli.cmd_state` runs the same function.
"""

from __future__ import annotations

from artibot.cli.json_out import emit_json
from artibot.status import status
from artibot.store.home import Home


def show_status(as_json: bool) -> None:
    """The report for the data home in force (``--home`` or ``ARTIBOT_HOME``)."""
    doc = status(home=Home.of(None).require())
    if as_json:
        emit_json(doc)
        return
    from artibot.cli.render import Hanging, Listing, console, fmt  # rich: for a person only
    from artibot.cli.render_round_checks import validation_block

    th = doc["thresholds"]
    rows = [("default", fmt(th["default"]))] + [(d, fmt(v)) for d, v in sorted(th["domains"].items())]
    console.print(Listing("Thresholds (complexity below → System 1)", ["domain", "threshold"], rows))
    cache = doc["system1_patterns"]
    console.print(Hanging(f"System 1 cache: {len(cache)} pattern(s)" + (": " + ", ".join(cache[:10]) if cache else "")
                          + (" …" if len(cache) > 10 else "")))
    console.print(f"unprocessed experiences: {doc['unprocessed']} ({doc['full_batches']} full batch(es) of "
                  f"{doc['batch_size']}); mode: {doc['mode']}; patterns tracked: {doc['patterns_tracked']}")
    price = doc.get("price")
    if price:
        console.print(f"price of a System 2 call: {price['value']:.3f} ({price['source']}"
                      + (", no round yet" if price.get("round", "") is None else "") + ")")
    from artibot.cli.render_costs import cost_lines

    if doc.get("interrupted"):
        console.print(f"interrupted turns: {doc['interrupted']} (an API error, a turn limit, Ctrl-C or Esc; "
                      "kept, and left out of learning)")
    if doc.get("held_for_resume"):
        console.print(f"turns waiting for a resumed session: {doc['held_for_resume']} (each ended session's "
                      "last turn, for up to 30 min: a correction after `claude --continue` still reaches it)")
    from artibot.cli.render_health import failure_lines, pending_line

    pending_text = pending_line(doc.get("pending_turns"))
    if pending_text:
        console.print(Hanging(pending_text))
    for line in failure_lines(doc.get("hook_failures") or [], f"{doc['home']}/logs/hooks.log"):
        console.print(line, markup=False, highlight=False)
    for line in cost_lines(doc["costs"]):
        console.print(Hanging(line))
    console.print(f"last round: {doc['last_round'] or 'none yet'}"
                  + (f" ({doc['last_round_status']})" if doc["last_round"] else ""))
    for part in validation_block(doc["validation"]):
        console.print(part)
    if doc["pending_review"]:
        console.print(f"round {doc['pending_round']} is waiting for review: `artibot review`")
    for gw in doc["gateway"]:
        line = f"gateway on port {gw['port']}: {gw['state']}"
        if gw["state"] == "up":
            counters = gw["counters"] or {}
            line += (f" (version {gw['version']}, pid {gw['pid']}; " + ", ".join(
                f"{value} {name.replace('_', ' ')}" for name, value in counters.items()) + ")")
        elif gw["state"] == "another program":
            line += " — it is not this data home's gateway: Claude Code's requests must not go there"
        console.print(Hanging(line))
    if doc.get("team"):
        from artibot.cli.cmd_team import render_team

        for line in render_team(doc["team"]):
            console.print(line, markup=False, highlight=False)
    console.print(f"home: {doc['home']}")
