"""``artibot team …``: a team pools its experiences on PostgreSQL and learns one reviewed round."""

from __future__ import annotations

import sys
from typing import Any, List, Optional

import typer

from artibot.round import checkpoints as cp
from artibot.cli.confirm import confirm
from artibot.cli.checkpoint_prompts import TerminalCheckpoints
from artibot.cli.checkpoint_view import evidence_table, threshold_result
from artibot.cli.render import Hanging, console, emit_json, err_console
from artibot.cli.words import session_lang, w
from artibot.cli.words_errors import say_any, say_error
from artibot.config import load_settings
from artibot.errors import ArtibotError, InvalidInput
from artibot.hookpath.inert import terminal
from artibot.messages import Message
from artibot.store.home import Home

def said(text: str | Message | ArtibotError) -> str:
    """A message, error or sentence of the team's library (a push's or pull's result, a problem) in the session's
    language."""
    if isinstance(text, ArtibotError):
        return say_error(session_lang(), text)
    return say_any(session_lang(), text)


def said_kept(doc: dict[str, Any], english: str, message: str) -> str:
    """A line the library kept in a file or a status document: its message (``doc[message]``,
    as :meth:`Message.to_json` wrote it) in the session's language, else its English (``doc[english]``,
    from an artibot that kept no message, or a message this one does not know)."""
    kept = doc.get(message)
    if isinstance(kept, dict):
        try:
            return said(Message.from_json(kept))
        except ValueError:
            pass
    return str(doc.get(english, ""))


team_app = typer.Typer(help="Learn as a team: pool experiences on a shared PostgreSQL, one reviewed round.",
                       no_args_is_help=True)


def _url(url: Optional[str]) -> str:
    if url:
        return url
    from artibot.team.push import membership_or_raise

    return membership_or_raise(Home.of(None))["url"]


@team_app.command("init")
def init_cmd(url: str = typer.Argument(..., help="postgresql://user@host/db?sslmode=… (no password)"),
             roles: bool = typer.Option(False, "--roles", help="Print the SQL that creates the least-privilege roles.")
             ) -> None:
    """Create or upgrade the team schema (numbered migrations) in the database URL names."""
    from artibot.team import db
    from artibot.team.schema import ROLES_SQL

    with db.connect(url) as conn:
        applied = db.migrate(conn)
    lang = session_lang()
    where = said(db.place(url))
    console.print(w(lang, "tm_schema", version=max(applied) if applied else w(lang, "tm_current"), where=where)
                  + (w(lang, "tm_applied", versions=", ".join(map(str, applied))) if applied
                     else w(lang, "tm_nothing_to_apply")))
    if roles:
        console.print(ROLES_SQL, markup=False, highlight=False)


@team_app.command("join")
def join_cmd(url: str = typer.Argument(..., help="The team database URL (credentials: ~/.pgpass, PGPASSWORD or "
                                                 "a service file)")) -> None:
    """Make this data home a member: its records are pushed, the team's state is pulled."""
    from artibot.team import member

    m = member.join(url)
    lang = session_lang()
    console.print(w(lang, "tm_joined", url=url, text=w(lang, "tm_shared" if m["share_text"] else "tm_never_sent")))
    _try_pull()


def _try_pull() -> None:
    from artibot.errors import TeamError
    from artibot.team import member

    try:
        report = member.pull()
        console.print(terminal(said(report.said or report.message)), markup=False, highlight=False)
    except TeamError as exc:
        err_console.print(w(session_lang(), "tm_not_pulled", why=said(exc)))


@team_app.command("push")
def push_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
    """Send the records the team's database has not acknowledged (idempotent by record id)."""
    from artibot.team.push import push

    report = push()
    emit_json(report.to_json()) if as_json else console.print(terminal(said(report.said or report.message)),
                                                              markup=False, highlight=False)


@team_app.command("pull")
def pull_cmd() -> None:
    """Cache the team's latest published state; domains you have not learned start from it."""
    _try_pull()


@team_app.command("show")
def show_cmd() -> None:
    """Print exactly what would be sent for the last turn."""
    from artibot.team.push import show

    record, row = show()
    if row is None:
        console.print(w(session_lang(), "tm_no_record"))
        return
    emit_json(row)


def _policy(yes: bool, unattended: bool, lang: str) -> cp.Checkpoints:
    if yes and unattended:
        raise InvalidInput(Message("team.yes_and_unattended"))
    if yes:
        return cp.DefaultAnswers("pre-approved")
    if unattended or not sys.stdin.isatty():
        return cp.DeferAnswers()
    return TerminalCheckpoints(console, lang, read=_read_line)


def _read_line(prompt: str) -> str:
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def _show(report: Any, as_json: bool) -> None:
    if as_json:
        emit_json(report.to_json())
        return
    if report.status == "dry-run" and report.evidence is not None:
        for n in (1, 2, 3):
            console.print(evidence_table(report.evidence[n]))
    if report.proposal is not None and report.status in ("applied", "dry-run", "deferred"):
        changes = {d: {"old": o, "new": n, "direction": cp.direction(o, n, "en"),
                       "applied": report.status == "applied"}
                   for d, (o, n) in report.proposal.net_changes().items()}
        if changes:
            console.print(threshold_result(changes, session_lang()))
    if report.set_aside:
        console.print(terminal(w(session_lang(), "tm_set_aside",
                                 members=", ".join(f"{m} {n}" for m, n in sorted(report.set_aside.items())))),
                      markup=False, highlight=False)
    if report.held_out:
        console.print(Hanging(held_out_line(report.held_out, session_lang())))
    console.print(Hanging(said(report.said or report.message)))


def held_out_line(held: dict[str, dict[str, int]], lang: str) -> str:
    """Whose new domains a round held out, and why (after the round; checkpoint 1 says it too)."""
    from artibot.cli.checkpoint_view import held_out_text
    from artibot.team.round import MAX_NEW_DOMAINS, MAX_NEW_DOMAINS_PER_MEMBER

    return held_out_text(held, [MAX_NEW_DOMAINS_PER_MEMBER, MAX_NEW_DOMAINS], lang)


@team_app.command("learn")
def learn_cmd(
    yes: bool = typer.Option(False, "--yes", "-y", help="Pre-approve: take every checkpoint's default."),
    unattended: bool = typer.Option(False, "--unattended", help="Prepare the round and save it for `team review`."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show everything, write nothing."),
    flush: bool = typer.Option(False, "--flush", help="Learn even fewer records than a batch."),
    url: Optional[str] = typer.Option(None, "--url", help="The team database [default: the one joined]."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """One team round on the pool (a reviewer's role), with the three checkpoints."""
    from artibot.team import db
    from artibot.team import round as team_round

    home = Home.of(None)
    settings = load_settings(home.root)
    policy = _policy(yes, unattended, settings.lang)
    target = _url(url)
    with db.connect(target, statement_ms=3_600_000) as conn:
        db.require_schema(conn, target)
        with team_round.RoundLock(conn):
            report = team_round.prepare(conn, settings, flush=flush, dry_run=dry_run)
            if report.status == "proposed":
                report = team_round.decide(conn, report, policy)
    _show(report, as_json)


@team_app.command("review")
def review_cmd(
    answer: Optional[List[str]] = typer.Option(None, "--answer", "-a", help="N=CHOICE: 1=accept|reset, "
                                               "2=apply|revert, 3=auto|promote|demote|hold or "
                                               "3.HASH=auto|promote|demote|hold. Repeatable."),
    url: Optional[str] = typer.Option(None, "--url", help="The team database [default: the one joined]."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Show and answer the team round waiting for review."""
    from artibot.team import db
    from artibot.team import round as team_round

    home = Home.of(None)
    settings = load_settings(home.root)
    target = _url(url)
    with db.connect(target) as conn:
        db.require_schema(conn, target)
        with team_round.RoundLock(conn):
            report = team_round.load_pending(conn, settings)
            if answer:
                policy: cp.Checkpoints = cp.ScriptedAnswers(cp.parse_answers(answer), channel="team-review")
            elif sys.stdin.isatty():
                policy = TerminalCheckpoints(console, settings.lang, read=_read_line)
            else:
                assert report.evidence is not None
                for n in (1, 2, 3):
                    console.print(evidence_table(report.evidence[n]))
                console.print(w(settings.lang, "tm_waits", round=report.round_id))
                return
            report = team_round.decide(conn, report, policy)
    _show(report, as_json)


@team_app.command("rollback")
def rollback_cmd(url: Optional[str] = typer.Option(None, "--url"),
                 yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask.")) -> None:
    """Withdraw the latest published team state; the one before it is the team's again."""
    from artibot.team import db
    from artibot.team import round as team_round

    lang = session_lang()
    if not yes and not confirm(w(lang, "tm_withdraw_ask"), default=False):
        console.print(w(lang, "tm_nothing_rolled"))
        return
    target = _url(url)
    with db.connect(target) as conn:
        db.require_schema(conn, target)
        with team_round.RoundLock(conn):
            (version, rid), now = team_round.rollback(conn)
    console.print(w(lang, "tm_withdrawn", version=version, round=rid)
                  + (w(lang, "tm_again", version=now[0], round=now[1]) if now else w(lang, "tm_no_state")))


@team_app.command("retention")
def retention_cmd(months: Optional[int] = typer.Option(None, "--months", help="Keep this many months before the "
                                                       "current one [default: the team's retention_months]."),
                  dry_run: bool = typer.Option(False, "--dry-run", help="Say what would be dropped, drop nothing."),
                  yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask."),
                  url: Optional[str] = typer.Option(None, "--url")) -> None:
    """Drop the pooled experiences of old months (the database owner; never a row not yet learned)."""
    from artibot.team import db, retention

    lang = session_lang()
    target = _url(url)
    with db.connect(target, statement_ms=3_600_000) as conn:
        db.require_schema(conn, target)
        keep = months if months is not None else retention.months_setting(conn)
        if keep is None:
            console.print(w(lang, "tm_no_retention"))
            return
        if not dry_run and not yes and not confirm(w(lang, "tm_drop_ask", keep=keep), default=False):
            console.print(w(lang, "tm_nothing_dropped"))
            return
        cutoff, results = retention.apply(conn, keep, dry_run=dry_run)
    for r in results:
        console.print(said(r.line()), markup=False, highlight=False)
    dropped = [r for r in results if r.dropped]
    console.print(w(lang, "tm_months", cutoff=cutoff, dropped=len(dropped), rows=sum(r.rows for r in dropped),
                    kept=sum(1 for r in results if not r.dropped)))


@team_app.command("leave")
def leave_cmd() -> None:
    """Stop being a member; your own thresholds, cells and records stay as they are."""
    from artibot.team.member import leave

    console.print(w(session_lang(), "tm_left_now" if leave() else "tm_not_a_member"))


@team_app.command("status")
def status_cmd(as_json: bool = typer.Option(False, "--json"),
               rounds: bool = typer.Option(False, "--rounds", help="Also list the team's rounds (a database read).")
               ) -> None:
    """Membership, the push queue, and the cached team state's round and age."""
    from artibot.team.member import team_status

    doc = team_status() or {"member": False}
    if rounds:
        from artibot.team import db
        from artibot.team import round as team_round

        with db.connect(_url(None)) as conn:
            doc["rounds"] = team_round.history(conn)
    if as_json:
        emit_json(doc)
        return
    for line in render_team(doc):
        console.print(line, markup=False, highlight=False)


def render_team(doc: dict[str, Any]) -> list[str]:
    """The team block of ``status`` (also ``artibot status``)."""
    from artibot.cli.words import value

    lang = session_lang()
    if not doc.get("member") and "state" not in doc:
        return [w(lang, "tm_not_member")]
    lines = [w(lang, "tm_member", database=said_kept(doc, "database", "database_said")) if doc.get("member")
             else w(lang, "tm_left")]
    if doc.get("member"):
        full = w(lang, "tm_queue_full") if doc.get("queue_full") else ""
        lines.append(w(lang, "tm_queued", n=doc["queued"], full=full))
    for what, last in (("tm_push", doc.get("last_push") if doc.get("member") else None),
                       ("tm_pull", doc.get("last_pull"))):
        if last:
            lines.append(w(lang, "tm_last", what=w(lang, what), at=last["at"],
                           state=value(lang, "ok" if last["ok"] else "failed"),
                           message=said_kept(last, "message", "said")))
    state = doc.get("state")
    if state:
        lines.append(w(lang, "tm_state", version=state["version"], round=state["round_id"], age=state["age_s"] / 3600,
                       n=len(state["team_domains"]))
                     + (w(lang, "tm_patterns", n=state["patterns_active"]) if state.get("patterns_active") else ""))
    if doc.get("problem"):
        lines.append(w(lang, "tm_problem", problem=said(doc["problem"])))
    for r in doc.get("rounds") or []:
        lines.append(w(lang, "tm_round", round=r["round_id"], status=value(lang, r["status"]), reviewer=r["reviewer"],
                       first=r["seq_from"], last=r["seq_to"]))
    return [terminal(line) for line in lines]  # a name or message in them may come from the team


def register(app: typer.Typer) -> None:
    app.add_typer(team_app, name="team")
