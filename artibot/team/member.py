"""A member's side: join, leave, pull the team's state, and what ``status`` says of the team.

**Starting from the team.** A pull caches the latest published state in the data home
(``team/state.json``) and gives the router a starting point: every domain this member has
not learned itself takes the team's threshold, and so does the default threshold while the
member has never applied a round. The member's own rounds then treat the team's cells as
a prior for those domains (:func:`artibot.learning.team_pool.prior_cells`, at most
:data:`artibot.team.prior.PRIOR_TRIALS` trials a domain), which the member's own outcomes move away from.
The cached state's pattern table is the router's starting point for System 1 too
(:mod:`artibot.hookpath.router.team_table`): the router reads it from the cached file.

Pulls run in the detached learner and in ``artibot team pull|join|status --pull``, never in
a hook that waits on them. A published state that does not parse is not used: the member
keeps the state it had, and the pull says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from artibot.errors import CorruptFileError, TeamError
from artibot.hookpath.inert import DOMAIN_ALPHABET, is_domain
from artibot.hookpath.router.thresholds import Thresholds
from artibot.messages import Message
from artibot.store import team_files as files
from artibot.store.fs import FileLock
from artibot.store.home import Home, HomeArg
from artibot.store.learned.thresholds_file import read_document_checked, write_thresholds
from artibot.team.push import QUEUE_FULL, membership_or_raise, queue_size
from artibot.team.schema import SCHEMA

TEAM_ROUND_PREFIX = "team:"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def join(url: str, *, home: HomeArg = None) -> files.Membership:
    from artibot.team import db

    h = Home.of(home)
    db.check_url(url)
    with db.connect(url) as conn:
        db.require_schema(conn, url)
        settings = db.team_settings(conn)
    member: files.Membership = {"url": url, "joined": _now(), "share_text": settings.get("share_text") == "true",
                                "pattern_key": settings["pattern_key"]}
    files.write_membership(h, member)
    return member


def leave(*, home: HomeArg = None) -> bool:
    """Stop being a member; the home keeps its own thresholds, cells and every record."""
    return files.remove_membership(Home.of(home))


@dataclass(frozen=True)
class PullReport:
    version: int | None
    round_id: str | None
    used: bool
    message: str
    """The result in English (the sync's log and stamp keep it); :attr:`said` is the same to be
    said in any language."""
    said: Message | None = None


def _report(version: int | None, round_id: str | None, used: bool, said: Message) -> PullReport:
    return PullReport(version, round_id, used, str(said), said)


def pull(*, home: HomeArg = None, timeout_s: float = 5.0) -> PullReport:
    from artibot.learning.team_pool import parse_state, problem  # scipy: here, not in `artibot status`
    from artibot.team import db

    h = Home.of(home)
    member = membership_or_raise(h)
    with db.connect(member["url"], timeout_s=timeout_s, statement_ms=int(timeout_s * 4000)) as conn:
        row = conn.execute(f"SELECT version, round_id, published_at, extract(epoch FROM now() - published_at), state "
                           f"FROM {SCHEMA}.states WHERE status = 'published' ORDER BY version DESC LIMIT 1").fetchone()
    if row is None:
        return _report(None, None, False, Message("team.no_state"))
    version, round_id = int(row[0]), str(row[1])
    doc, refused = names_only(row[4])
    try:
        state = parse_state(doc)
    except ValueError as exc:
        return _report(version, round_id, False, Message("team.state_unusable", version=version, round=round_id,
                                                          why=problem(exc)))
    with FileLock(h.learner_lock, timeout=30.0, holder="the artibot learner"):
        previous, _problem = files.cached_state_or_problem(h)
        try:
            parse_state(previous["state"]) if previous else None
        except ValueError:
            previous = None
        team_domains = _start_from(h, state.thresholds, previous, round_id)
        files.write_cached_state(h, {"version": version, "round_id": round_id,
                                     "published_at": row[2].isoformat(), "age_s": float(row[3]),
                                     "pulled_at": _now(), "state": dict(doc), "team_domains": team_domains})
    said = Message("team.pulled", version=version, round=round_id, n=len(team_domains))
    if refused:
        said = Message("team.pulled_aside", pulled=said, n=len(refused), alphabet=DOMAIN_ALPHABET)
    return _report(version, round_id, True, said)


def names_only(doc: Any) -> tuple[Any, list[str]]:
    """A published state without the domains whose name is outside the alphabet
    (:data:`artibot.hookpath.inert.DOMAIN_ALPHABET`), and those names: a state written around the
    database's check (by a reviewer's own SQL) still never puts such a name into this
    member's thresholds, ``status`` or agent context."""
    if not isinstance(doc, dict):
        return doc, []
    refused: set[str] = set()

    def keep(mapping: Any) -> Any:
        if not isinstance(mapping, dict):
            return mapping
        bad = {k for k in mapping if not is_domain(k)}
        refused.update(str(k) for k in bad)
        return {k: v for k, v in mapping.items() if k not in bad} if bad else mapping

    out = dict(doc)
    out["cells"] = keep(doc.get("cells"))
    th = doc.get("thresholds")
    if isinstance(th, dict):
        out["thresholds"] = {**th, "domains": keep(th.get("domains"))}
        if "exploration" in th:
            out["thresholds"]["exploration"] = keep(th.get("exploration"))
    if "cells" not in doc:
        del out["cells"]
    return (out if refused else doc), sorted(refused)


def _start_from(h: Home, team: Thresholds, previous: files.CachedState | None, round_id: str) -> list[str]:
    """Write the team's thresholds for the domains this member has not learned itself (all of
    them, and the default, while every threshold it has came from the team); returns those domains.

    A domain stays the team's while the member's threshold is still the one the last pull
    wrote; once the member's own round moved it, it is the member's."""
    from artibot.learning.team_pool import parse_state

    doc = read_document_checked(h)
    own = Thresholds.from_json(doc) if doc is not None else None
    if own is None or str(doc.get("round_id", "")).startswith(TEAM_ROUND_PREFIX):  # type: ignore[union-attr]
        merged = Thresholds(team.default, {**(own.domains if own else {}), **team.domains}, dict(team.exploration))
        domains = set(team.domains)
    else:
        before = parse_state(previous["state"]).thresholds if previous is not None else None
        still = {d for d in (previous["team_domains"] if previous else ())
                 if before is not None and own.domains.get(d) == before.domains.get(d)}
        domains = {d for d in team.domains if d not in own.domains or d in still}
        merged = Thresholds(own.default, {**own.domains, **{d: team.domains[d] for d in domains}},
                            dict(own.exploration))
    if own is None or merged != own:
        write_thresholds(h, merged, updated=_now(), round_id=f"{TEAM_ROUND_PREFIX}{round_id}")
    return sorted(domains)


def age_s(cached: files.CachedState, now: datetime | None = None) -> float:
    """The state's age now: its server age at the pull plus the time since (member clock, only a difference)."""
    now = now or datetime.now(timezone.utc)
    try:
        since = (now - datetime.fromisoformat(cached["pulled_at"])).total_seconds()
    except ValueError:
        since = 0.0
    return cached["age_s"] + max(0.0, since)


def _where(url: str) -> Message | str:
    try:
        from artibot.team import db
    except TeamError:
        return url  # no psycopg to parse it; the URL has no password (join refuses one)
    return db.place(url)


def _active(state: dict[str, Any]) -> int:
    patterns = state.get("patterns")
    if not isinstance(patterns, dict):
        return 0
    return sum(1 for p in patterns.values() if isinstance(p, dict) and p.get("status") == "active")


def team_status(home: HomeArg = None) -> dict[str, Any] | None:
    """What ``artibot status`` shows of the team (None: not a member and never was).

    The database and the last push's and pull's results are English sentences (``--json``
    shows them); beside each, where this artibot wrote it, the same as a message's JSON
    (``database_said``, ``said``) for the terminal to say in the session's language."""
    h = Home.of(home)
    try:
        member = files.read_membership(h)
    except CorruptFileError as exc:
        return {"member": False, "problem": str(exc)}
    cached, problem = files.cached_state_or_problem(h)
    if member is None and cached is None:
        return None
    out: dict[str, Any] = {"member": member is not None}
    if member is not None:
        where = _where(member["url"])
        out["database"] = str(where)
        if isinstance(where, Message):
            out["database_said"] = where.to_json()
        waiting = queue_size(h)
        out["queued"] = waiting
        out["queue_full"] = waiting >= QUEUE_FULL
        out["last_push"] = files.last_push(h)
    from artibot.team.sync import read_stamp

    last_pull = (read_stamp(str(h.root)) or {}).get("last")
    if isinstance(last_pull, dict) and {"at", "ok", "message"} <= set(last_pull):
        out["last_pull"] = {"at": str(last_pull["at"]), "ok": bool(last_pull["ok"]),
                            "message": str(last_pull["message"])}
        if isinstance(last_pull.get("said"), dict):
            out["last_pull"]["said"] = last_pull["said"]
    if cached is not None:
        out["state"] = {"version": cached["version"], "round_id": cached["round_id"],
                        "published_at": cached["published_at"], "age_s": round(age_s(cached), 1),
                        "team_domains": cached["team_domains"], "patterns_active": _active(cached["state"])}
    if problem:
        out["problem"] = problem
    return out
