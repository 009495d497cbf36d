"""What ``artibot drift`` prints, free of the CLI framework: :mod:`artibot.cli.quick` runs
``artibot drift`` (the weekly check, most weeks with nothing to report) from here before typer
loads, and the command of :mod:`artibot.cli.cmd_integrate` runs the same function."""

from __future__ import annotations

from artibot.cli.render import console, emit_json, fmt, table, working
from artibot.cli.words import session_lang, w
from artibot.store.home import Home


def run_drift(as_json: bool = False) -> None:
    from artibot.reports.drift import drift_report

    lang = session_lang()
    with working(w(lang, "dr_working")):
        report = drift_report(home=Home.of(None))
    if as_json:
        emit_json(report)
        return
    # a row too small to test says so: "ok" would claim a test that never ran
    rows = [(d["domain"], d["system"], d["recent"], d["history"],
             fmt(d["p_value"], 4) if d.get("tested", True) else "—",
             w(lang, "dr_drift" if d["drift"] else "dr_ok") if d.get("tested", True) else w(lang, "dr_untested"))
            for d in report["domains"]]
    console.print(table(w(lang, "dr_title"), [w(lang, "domain"), w(lang, "dr_system"), w(lang, "dr_recent"),
                                              w(lang, "dr_history"), "p", w(lang, "dr_verdict")], rows))
    if lang == "en":
        console.print(report["summary"])
    else:  # the same line, from the report's rows, in the session's language
        from artibot.learning.drift import summary
        from artibot.messages import render

        tested = [d for d in report["domains"] if d.get("tested", True)]
        console.print(render(summary([f"{d['domain']}/{d['system']}" for d in report["domains"] if d["drift"]],
                                     tested=len(tested), days=report["days"], alpha=report["alpha"]), lang))
