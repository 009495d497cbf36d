"""Twelve members push at once while rounds run: nothing lost, nothing stored or learned twice."""

from __future__ import annotations

import threading
import time

import psycopg

from artibot.round.checkpoints import DefaultAnswers
from artibot.config import load_settings
from artibot.errors import TeamError
from artibot.team import db, member, push
from artibot.team import round as team_round
from tests.team.helpers import member as make_member, records

MEMBERS = 12
EACH = 400


def test_twelve_members_push_concurrently_while_rounds_run(team_url, tmp_path, monkeypatch) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
        # each insert holds its sequence numbers uncommitted for a while, as a loaded server does:
        # a round that read max(seq) without the push lock would miss the rows still in flight
        conn.execute("CREATE FUNCTION artibot_team.slow() RETURNS trigger LANGUAGE plpgsql AS "
                     "$$ BEGIN PERFORM pg_sleep(random() * 0.06); RETURN NULL; END $$")
        conn.execute("CREATE TRIGGER slow AFTER INSERT ON artibot_team.experiences FOR EACH STATEMENT "
                     "EXECUTE FUNCTION artibot_team.slow()")
    homes = [make_member(tmp_path, f"m{i}", records(EACH, seed=i, prefix=f"m{i}")) for i in range(MEMBERS)]
    for home in homes:
        member.join(team_url, home=home)
    monkeypatch.setattr(push, "BATCH", 25)  # many small transactions: many chances to straddle a cut-off
    errors: list[BaseException] = []
    pushing = threading.Barrier(MEMBERS + 1)

    def pusher(home) -> None:
        try:
            pushing.wait(30)
            push.push(home=home)
            push.push(home=home)  # and once more: a retry stores nothing new
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=pusher, args=(h,)) for h in homes]
    for t in threads:
        t.start()
    pushing.wait(30)
    settings = load_settings(homes[0].root)
    applied = 0
    while any(t.is_alive() for t in threads) or applied == 0:
        with db.connect(team_url) as conn:
            try:
                with team_round.RoundLock(conn):
                    report = team_round.prepare(conn, settings, flush=True, dry_run=False)
                    if report.status == "proposed":
                        applied += team_round.decide(conn, report, DefaultAnswers()).status == "applied"
            except TeamError:
                continue
    for t in threads:
        t.join(60)
    assert not errors
    with db.connect(team_url) as conn, team_round.RoundLock(conn):  # the rows after the last cut-off
        last = team_round.prepare(conn, settings, flush=True, dry_run=False)
        if last.status == "proposed":
            team_round.decide(conn, last, DefaultAnswers())

    with psycopg.connect(team_url, autocommit=True) as conn:
        total, distinct = conn.execute("SELECT count(*), count(DISTINCT record_id) FROM artibot_team.experiences"
                                       ).fetchone()
        assert total == distinct == MEMBERS * EACH
        windows = conn.execute("SELECT seq_from, seq_to, (log->>'records')::int, snapshot FROM artibot_team.rounds "
                               "WHERE status = 'applied' ORDER BY started_at").fetchall()
        assert len(windows) >= 2  # rounds ran while members pushed
        # each round's window starts where the previous one's snapshot stopped: every row learned once
        assert windows[0][0] == 0 and all(a[1] == b[0] for a, b in zip(windows, windows[1:]))
        max_seq = conn.execute("SELECT max(seq) FROM artibot_team.experiences").fetchone()[0]
        assert windows[-1][1] == max_seq
        assert sum(w[2] for w in windows) == MEMBERS * EACH
        learned = conn.execute("SELECT count(*) FROM artibot_team.experiences "
                               "WHERE pg_visible_in_snapshot(xid, %s::pg_snapshot)", (windows[-1][3],)).fetchone()
        assert learned == (MEMBERS * EACH,)
        state = conn.execute("SELECT state FROM artibot_team.states ORDER BY version DESC LIMIT 1").fetchone()[0]
        assert state["seq_to"] == max_seq


def test_a_push_in_flight_delays_no_round_and_is_learned_by_the_next(team_url, tmp_path) -> None:
    """A member's transaction left open with rows in it (lower sequence numbers than rows committed
    after it) neither stalls a round nor is skipped: the next round's window holds it."""
    with db.connect(team_url) as conn:
        db.migrate(conn)
    home = make_member(tmp_path, "m", records(60))
    member.join(team_url, home=home)
    insert = ("INSERT INTO artibot_team.experiences (record_id, domain, complexity, routed_to, outcome, month) "
              "VALUES (%s, 'backend', 0.5, 'system1', 'success', artibot_team.id_month(%s))")
    settings = load_settings(home.root)

    def round_() -> team_round.TeamRoundReport:
        with db.connect(team_url) as conn, team_round.RoundLock(conn):
            report = team_round.prepare(conn, settings, flush=True, dry_run=False)
            return team_round.decide(conn, report, DefaultAnswers()) if report.status == "proposed" else report

    with psycopg.connect(team_url) as slow:  # a transaction: seq 1, not committed yet
        slow.execute(insert, ("in-flight", "in-flight"))
        push.push(home=home)  # seq 2..61, committed
        started = time.monotonic()
        first = round_()
        assert time.monotonic() - started < 10  # no wait on the open transaction
        assert first.status == "applied" and first.proposal.params.extra["pool"]["records"] == 60
        slow.commit()
    second = round_()
    assert second.status == "applied" and second.proposal.params.extra["pool"]["records"] == 1
    assert round_().status == "nothing"  # and nothing twice
