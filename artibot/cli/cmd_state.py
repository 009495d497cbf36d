"""``artibot status``, ``history``, ``rollback`` and ``doctor``."""

from __future__ import annotations

import sys

from typing import Any, Optional, cast

import typer

from artibot.store.home import Home
from artibot.round.rollback import history, plan_rollback, rollback
from artibot.hookpath.router.thresholds import domain_label
from artibot.cli import completion
from artibot.cli.confirm import confirm
from artibot.cli.render import NBSP, Hanging, Listing, console, emit_json, fmt, working
from artibot.cli.status_view import show_status
from artibot.cli.words import action
from artibot.cli.words_errors import say_any as finding


def register(app: typer.Typer) -> None:
    @app.command("status")
    def status_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
        """Thresholds, System 1 cache, counts, last round, pending review."""
        show_status(as_json)

    @app.command("history")
    def history_cmd(limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, metavar="N",
                                                        help="Only the last N entries."),
                    as_json: bool = typer.Option(False, "--json")) -> None:
        """Past rounds and rollbacks, oldest first."""
        items = history(home=Home.of(None))
        if limit is not None:
            items = items[-limit:]
        if as_json:
            emit_json(items)
            return
        from artibot.cli.words import session_lang, value, w

        lang = session_lang()
        if not items:
            console.print(w(lang, "h_none"))
            return
        rows: list[tuple[str, object, str, str]] = []
        notes = []
        for it in items:
            if it["type"] == "rollback":
                rows.append((it["round_id"], "", _minute(it["at"]), w(lang, "h_rollback")))
                notes.append([w(lang, "h_undid", rounds=", ".join(it["undone"]))])
                continue
            changes = ", ".join(f"{domain_label(d)}{NBSP}{fmt(c['old'], 2)}→{fmt(c['new'], 2)}"
                                for d, c in it["threshold_changes"].items())
            moved = ", ".join(f"{action(lang, a)}{NBSP}{k}" for k, a in it["transfers"].items() if a != "hold")
            status_text = value(lang, cast(str, it["status"])) + (w(lang, "h_rolled_back") if it["rolled_back"] else "")
            if it["status"] == "applied" and it["thresholds_applied"] is False:
                status_text += w(lang, "h_thr_reverted")
            rows.append((it["round_id"], it["processed"], _minute(it["finished"]), status_text))
            note = [w(lang, "h_thresholds", changes=changes or "—"), w(lang, "h_transfers", moved=moved or "—")]
            costs = it.get("costs") or {}
            measured = [f"{r.replace('system', 'S')} ${c['mean_usd']:.4f} ({c['turns']})"
                        for r, c in costs.items() if c.get("turns")]
            if measured:
                note.append(w(lang, "h_costs", costs=", ".join(measured)))
            notes.append(note)
        console.print(Listing(w(lang, "h_title"), [w(lang, k) for k in ("round", "processed", "finished", "status")],
                              rows, notes))

    @app.command("rollback")
    def rollback_cmd(round_id: str = typer.Argument(..., metavar="ROUND_ID",
                                                    help="A round id from `artibot history`, or `last`.",
                                                    autocompletion=completion.rounds),
                     dry_run: bool = typer.Option(False, "--dry-run", help="Show what would be undone; "
                                                                           "change nothing."),
                     yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
                     as_json: bool = typer.Option(False, "--json")) -> None:
        """Restore the learned state from before ROUND_ID (later rounds are undone too).

        On a terminal it shows what would be undone and asks first; --yes skips the question.
        """
        from artibot.cli.words import session_lang, w

        lang = session_lang()
        home = Home.of(None)
        if round_id == "last":  # named in the preview and the result
            from artibot.round.rollback import resolve_round

            round_id = resolve_round(home, round_id)
        if dry_run or (not yes and not as_json and sys.stdin.isatty()):
            preview = plan_rollback(round_id, home=home)
            if dry_run and as_json:
                emit_json(preview)
                return
            for line in _preview_lines(preview, lang):
                console.print(Hanging(line))
            if dry_run:
                console.print(w(lang, "rb_dry"))
                return
            if not confirm(w(lang, "rb_ask"), default=False):
                console.print(w(lang, "rb_nothing"))
                raise typer.Exit(1)
        result = rollback(round_id, home=home)
        if as_json:
            emit_json(result)
            return
        console.print(w(lang, "rb_done", first=result["undone"][0], undone=", ".join(result["undone"]),
                        n=result["experiences_restored"], kept=result["replaced_state_kept_in"]))

    @app.command("doctor")
    def doctor_cmd(repair: bool = typer.Option(False, "--repair", help="Repair what can be repaired; bad copies "
                                                                        "are moved aside, never deleted."),
                   as_json: bool = typer.Option(False, "--json")) -> None:
        """Verify every file in the data home."""
        from artibot.round.rollback import recover_interrupted
        from artibot.store import doctor

        from artibot.cli.render_health import gateway_findings, hook_findings

        from artibot.cli.words import session_lang, value, w

        lang = session_lang()
        home = Home.of(None).require(folder=False)  # a file in its place: a finding
        with working(w(lang, "dr_checking")):
            findings = doctor.repair(home, finish_rollback=recover_interrupted) if repair else doctor.check(home)
        findings += hook_findings(home)
        if home.is_folder():  # a file in its place is the finding; no gateway to ask about
            findings += gateway_findings(home)
        problems = [f for f in findings if f.severity != "ok"]
        if as_json:
            emit_json({"home": str(home.root), "findings": [
                {"path": str(f.path), "severity": f.severity, "problem": f.problem, "fix": f.fix,
                 "repaired": f.repaired, "moved_to": str(f.moved_to) if f.moved_to else None} for f in findings]})
        else:
            if not problems:
                console.print(w(lang, "dr_fine", home=home.root))
            for f in problems:
                state_text = value(lang, "repaired" if f.repaired else f.severity)
                # markup=False: rich would read "[warning]" as a style and print nothing of it
                console.print(f"[{state_text}] {f.path}: {finding(lang, f.said or f.problem)}", markup=False)
                console.print(f"    → {finding(lang, f.fix_said or f.fix)}" + (w(lang, "dr_moved", path=f.moved_to) if f.moved_to
                                                                 else ""), markup=False)
        unrepaired = [f for f in problems if f.severity == "error" and not f.repaired]
        if unrepaired:
            raise typer.Exit(1)


def _preview_lines(preview: dict[str, Any], lang: str) -> list[str]:
    from artibot.cli.words import w

    undone = preview["undone"]
    lines = [w(lang, "rb_restore", round=preview["round_id"]),
             w(lang, "rb_undone", rounds=", ".join(undone)) + (w(lang, "rb_built_on") if len(undone) > 1 else ""),
             w(lang, "rb_back", n=preview["experiences_restored"])]
    if preview["discards_pending"]:
        lines.append(w(lang, "rb_discards", round=preview["discards_pending"]))
    lines.append(w(lang, "rb_kept"))
    return lines


def _minute(stamp: str | None) -> str:
    """``2026-11-24T14:33:53+00:00`` as ``2026-11-24 14:33`` (the log keeps the full time)."""
    return stamp[:16].replace("T", " ") if stamp else "—"
