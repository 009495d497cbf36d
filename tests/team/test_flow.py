"""The team end to end against a real PostgreSQL: init, join, push, learn, publish, pull, rollback, leave."""

from __future__ import annotations

import json

import numpy as np
import pytest

from artibot.round import cycle
from artibot.cli.app import run
from artibot.config import load_settings
from artibot.errors import InvalidInput, TeamError
from artibot.store import team_files
from artibot.store.home import Home
from artibot.store.learned.thresholds_file import read_thresholds
from artibot.team import db, member, push
from artibot.team.schema import MIGRATIONS
from artibot.team import round as team_round
from artibot.round.checkpoints import DefaultAnswers, DeferAnswers
from tests.team.conftest import sql
from tests.team.helpers import member as make_member, records


def test_the_whole_flow_through_the_cli(team_url, artibot_home, capsys) -> None:
    assert run(["team", "init", team_url]) == 0
    assert run(["team", "init", team_url]) == 0  # again: nothing to apply
    assert "nothing to apply" in capsys.readouterr().out
    assert sql(team_url, "SELECT version FROM artibot_team.migrations ORDER BY 1") == [(m.version,) for m in MIGRATIONS]

    from artibot.collector import collect_many

    collect_many(records(300))
    assert run(["team", "join", team_url]) == 0
    assert run(["team", "show"]) == 0
    shown = json.loads(capsys.readouterr().out.split("\n", 2)[-1])
    assert shown["text"] is None and "fix the typo" not in json.dumps(shown)  # no free text by default
    assert len(shown["pattern_hash"]) == 32 and shown["record_id"].startswith("exp_m0_")

    assert run(["team", "push"]) == 0
    assert run(["team", "push"]) == 0
    assert sql(team_url, "SELECT count(*), count(DISTINCT record_id) FROM artibot_team.experiences") == [(300, 300)]
    row = sql(team_url, "SELECT domain, complexity, routed_to, outcome, propensity, pattern_hash, text "
                        "FROM artibot_team.experiences WHERE record_id = %s", shown["record_id"])[0]
    assert row == tuple(shown[k] for k in ("domain", "complexity", "routed_to", "outcome", "propensity",
                                          "pattern_hash", "text"))  # exactly what `show` printed

    capsys.readouterr()
    assert run(["team", "learn", "--dry-run"]) == 0
    assert "dry run: nothing was written" in capsys.readouterr().out
    assert sql(team_url, "SELECT count(*) FROM artibot_team.rounds") == [(0,)]
    assert run(["team", "learn", "--yes"]) == 0
    assert "published as state version 1" in capsys.readouterr().out
    assert run(["team", "pull"]) == 0
    capsys.readouterr()
    team = read_thresholds(Home(artibot_home))
    assert team is not None and set(team.domains) == {"backend", "frontend"}
    assert run(["team", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["state"]["version"] == 1 and status["queued"] == 0 and 0 <= status["state"]["age_s"] < 60
    assert run(["status"]) == 0
    assert "team state: version 1" in capsys.readouterr().out

    assert run(["team", "rollback", "--yes"]) == 0
    assert sql(team_url, "SELECT status FROM artibot_team.states") == [("rolled_back",)]
    assert run(["team", "learn", "--yes"]) == 0  # the withdrawn round's records are learned again
    assert sql(team_url, "SELECT seq_from, seq_to FROM artibot_team.rounds WHERE status = 'applied'") == [(0, 300)]
    answers = sql(team_url, "SELECT checkpoint, answer, channel FROM artibot_team.answers ORDER BY round_id, "
                            "checkpoint")
    assert [a[0] for a in answers] == [1, 2, 3, 1, 2, 3] and answers[0][1] == "accept"

    assert run(["team", "leave"]) == 0
    assert read_thresholds(Home(artibot_home)) == team  # one's own state stays
    assert run(["team", "push"]) == 1
    assert "not a team member" in capsys.readouterr().err


def test_the_team_round_is_the_personal_round_on_the_same_records(team_url, tmp_path) -> None:
    recs = records(400, seed=3)
    alone = make_member(tmp_path, "alone", recs)
    report = cycle.learn(home=alone, answers="defaults")
    assert report.status == "applied"
    mine = read_thresholds(alone)

    with db.connect(team_url) as conn:
        db.migrate(conn)
    home = make_member(tmp_path, "m", recs)
    member.join(team_url, home=home)
    push.push(home=home)
    settings = load_settings(home.root)
    with db.connect(team_url) as conn, team_round.RoundLock(conn):
        prepared = team_round.prepare(conn, settings, flush=False, dry_run=False)
        done = team_round.decide(conn, prepared, DefaultAnswers())
    assert done.status == "applied" and done.proposal is not None
    assert done.proposal.new.domains == pytest.approx(mine.domains)
    assert done.proposal.new.default == pytest.approx(mine.default)
    groups = {(g.domain, g.complexity_min): (g.n1, g.k1, g.n2, g.k2) for g in done.proposal.groups}
    assert sum(n1 + n2 for n1, _k1, n2, _k2 in groups.values()) == 400


def test_a_pool_of_members_forgets_more_slowly_per_record_than_one_person(team_url, tmp_path) -> None:
    """Twelve members send twelve times the records in the same days: a window holding two or
    more members' rows forgets over ``POOL_FACTOR`` times one person's half-life."""
    from artibot.learning import bandit

    with db.connect(team_url) as conn:
        db.migrate(conn)
    home = make_member(tmp_path, "m", records(300, seed=5))
    member.join(team_url, home=home)
    push.push(home=home)
    settings = load_settings(home.root)

    def learn() -> team_round.TeamRoundReport:
        with db.connect(team_url) as conn, team_round.RoundLock(conn):
            done = team_round.decide(conn, team_round.prepare(conn, settings, flush=False, dry_run=False),
                                     DefaultAnswers())
        assert done.status == "applied" and done.proposal is not None
        return done

    first = learn().proposal
    assert first is not None and first.params.numbers["members"] == 1
    assert first.params.numbers["half_life"] == bandit.HALF_LIFE
    before = {d: np.asarray(a) for d, a in first.params.extra["cells_after"].items()}  # type: ignore[union-attr]

    from artibot.collector import collect_many

    more = records(300, seed=6, start=300)
    collect_many(more, home=home)
    push.push(home=home)
    # the rows of the second window come from three members (a member is the database role that pushed)
    sql(team_url, "UPDATE artibot_team.experiences SET member = 'p' || (seq % 3) WHERE seq > 300")
    second = learn().proposal
    assert second is not None
    assert second.params.numbers["members"] == 3
    assert second.params.numbers["half_life"] == bandit.POOL_FACTOR * bandit.HALF_LIFE
    after = {d: np.asarray(a) for d, a in second.params.extra["cells_after"].items()}  # type: ignore[union-attr]
    fresh: dict[str, np.ndarray] = {}
    for r in more:
        if r["outcome"] == "interrupted":
            continue
        arr = fresh.setdefault(r["domain"], np.zeros((bandit.BINS, 4)))
        b = min(int(r["complexity"] * bandit.BINS), bandit.BINS - 1)
        s2 = r["routed_to"] == "system2"
        arr[b, 2 if s2 else 0] += 1
        arr[b, 3 if s2 else 1] += r["outcome"] == "success"
    assert second.params.extra["changes"] == []  # no reset: every count is the decayed history plus the fresh
    for d, arr in fresh.items():
        kept = 0.5 ** (arr[:, [0, 2]].sum() / (bandit.POOL_FACTOR * bandit.HALF_LIFE))
        assert after[d] == pytest.approx(before[d] * kept + arr)


def test_a_deferred_round_waits_for_review_and_a_second_learn_does_not_prepare_another(team_url, tmp_path,
                                                                                         capsys) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
    home = make_member(tmp_path, "m", records(120))
    member.join(team_url, home=home)
    push.push(home=home)
    settings = load_settings(home.root)
    with db.connect(team_url) as conn, team_round.RoundLock(conn):
        first = team_round.decide(conn, team_round.prepare(conn, settings, flush=False, dry_run=False), DeferAnswers())
        assert first.status == "deferred"
        again = team_round.prepare(conn, settings, flush=False, dry_run=False)
        assert again.status == "pending" and again.round_id == first.round_id
    assert run(["--home", str(home.root), "team", "rollback", "--yes"]) == 1
    assert "is waiting for review and builds on the latest state" in capsys.readouterr().err
    assert run(["--home", str(home.root), "team", "review", "--answer", "1=accept", "--answer", "2=revert"]) == 0
    assert "thresholds kept (reverted)" in capsys.readouterr().out
    state = sql(team_url, "SELECT state FROM artibot_team.states")[0][0]
    assert state["thresholds"] == {"default": 0.4, "domains": {}}  # reverted: the old thresholds, new cells
    assert set(state["cells"]) == {"backend", "frontend"} and state["seq_to"] == 120


def test_a_url_with_a_password_is_refused_and_nothing_is_written(artibot_home) -> None:
    with pytest.raises(InvalidInput, match="pgpass"):
        member.join("postgresql://alice:secret@db.example/team")
    assert team_files.read_membership(Home(artibot_home)) is None


def test_a_member_round_uses_the_team_state_as_a_prior(team_url, tmp_path) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
    veteran = make_member(tmp_path, "veteran", records(600, seed=1, prefix="v"))
    member.join(team_url, home=veteran)
    push.push(home=veteran)
    with db.connect(team_url) as conn, team_round.RoundLock(conn):
        team_round.decide(conn, team_round.prepare(conn, load_settings(veteran.root), flush=False, dry_run=False),
                          DefaultAnswers())
    newcomer = make_member(tmp_path, "newcomer")
    member.join(team_url, home=newcomer)
    assert member.pull(home=newcomer).used
    team = read_thresholds(newcomer)
    assert team is not None and set(team.domains) == {"backend", "frontend"}
    from artibot.collector import collect_many
    from artibot.learning.learner_state import EvidenceState
    from artibot.store.learned.learner_state import load_learner_state

    collect_many(records(50, seed=9, prefix="n", domains=("backend",)), home=newcomer)
    assert cycle.learn(home=newcomer, answers="defaults").status == "applied"
    own = load_learner_state(newcomer, "evidence")
    assert isinstance(own, EvidenceState)
    cells = own.arrays()
    # frontend: the team's prior only (at most 50 trials); backend: the prior plus 50 own records
    assert 0 < cells["frontend"][:, [0, 2]].sum() <= 50 + 1e-6
    assert cells["backend"][:, [0, 2]].sum() > 50
    assert np.all(cells["backend"] >= 0)


def test_an_unknown_schema_version_is_named(team_url) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
        conn.execute("INSERT INTO artibot_team.migrations (version, name) VALUES (99, 'from the future')")
        with pytest.raises(TeamError, match="newer than this artibot"):
            db.migrate(conn)


def test_a_service_file_names_the_database_and_artibot_stores_only_the_service(team_url, pg_server, tmp_path,
                                                                               monkeypatch) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
    dbname = team_url.split("/")[3].split("?")[0]
    services = tmp_path / "pg_service.conf"
    services.write_text(f"[team]\nhost={pg_server.sock}\nport={pg_server.port}\ndbname={dbname}\nuser=postgres\n")
    monkeypatch.setenv("PGSERVICEFILE", str(services))
    home = make_member(tmp_path, "m", records(10))
    member.join("postgresql:///?service=team", home=home)
    assert team_files.read_membership(home)["url"] == "postgresql:///?service=team"
    assert push.push(home=home).stored == 10


def test_the_detached_learner_pushes_and_pulls(team_url, artibot_home, monkeypatch) -> None:
    with db.connect(team_url) as conn:
        db.migrate(conn)
    from artibot.collector import collect_many

    collect_many(records(60))
    member.join(team_url)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert run(["learn", "--unattended", "--quiet"]) == 0
    assert sql(team_url, "SELECT count(*) FROM artibot_team.experiences") == [(60,)]
    log = (artibot_home / "logs" / "hooks.log").read_text()
    assert "team push: 60 record(s) sent" in log and "team pull: the team has published no state yet" in log
