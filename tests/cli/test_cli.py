"""The CLI as a user drives it: exit codes, one-line errors, JSON shapes, checkpoint answers."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.factories import mixed, record


def jsonl(records) -> bytes:
    return b"\n".join(orjson.dumps(r) for r in records)


def test_collect_from_flags_and_status(cli, artibot_home: Path) -> None:
    r = cli("collect", "--input", "fix typo, mail a@b.io", "--domain", "docs", "--complexity", "0.1",
            "--routed-to", "system1", "--outcome", "success", "--latency-ms", "12", "--confidence", "0.9", "--json")
    assert r.code == 0, r.err
    assert "<EMAIL>" in r.json()["input"]
    s = cli("status", "--json")
    doc = s.json()
    assert doc["unprocessed"] == 1 and doc["pending_review"] is False and doc["last_round"] is None
    assert doc["thresholds"] == {"default": 0.4, "domains": {}} and doc["system1_patterns"] == []


@pytest.mark.parametrize("shape", ["object", "array", "lines"])
def test_collect_stdin_shapes(cli, shape: str) -> None:
    recs = mixed(3)
    data = {"object": orjson.dumps(recs[0]), "array": orjson.dumps(recs), "lines": jsonl(recs)}[shape]
    r = cli("collect", "--stdin", "--quiet", stdin=data)
    assert r.code == 0, r.err
    assert cli("status", "--json").json()["unprocessed"] == (1 if shape == "object" else 3)


def test_invalid_batch_writes_nothing_and_names_line_and_field(cli, artibot_home: Path) -> None:
    recs = mixed(3)
    recs[1]["complexity"] = 7
    r = cli("collect", "--stdin", stdin=jsonl(recs))
    assert r.code == 2
    assert "line 2" in r.err and "complexity" in r.err and "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1
    assert not (artibot_home / "daily-experiences.json").exists()


def test_bad_json_line_is_named(cli) -> None:
    r = cli("collect", "--stdin", stdin=b'{"a": 1}\n{oops\n')
    assert r.code == 2 and "line 2" in r.err


def test_invalid_config_is_one_line_exit_2(cli, artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"learning": {"lifelong": {"batchSize": 0}}}')
    r = cli("status")
    assert r.code == 2 and "learning.lifelong.batchSize" in r.err and "Traceback" not in r.err


def test_corrupt_state_file_exit_1_and_untouched(cli, artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    bad = b'{"schema_version": 1, "default": '
    (artibot_home / "thresholds.json").write_bytes(bad)
    r = cli("status", "--json")
    assert r.code == 1 and "thresholds.json" in r.err and "doctor" in r.err
    assert (artibot_home / "thresholds.json").read_bytes() == bad


def test_usage_error_exit_2(cli) -> None:
    assert cli("learn", "--nope").code == 2
    assert cli("learn", "--yes", "--unattended").code == 2


def test_learn_yes_then_history_and_rollback(cli) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(100)))
    r = cli("learn", "--yes", "--json")
    assert r.code == 0, r.err
    rep = r.json()
    assert rep["status"] == "applied" and rep["processed"] == 100
    assert [a["channel"] for a in rep["answers"]] == ["pre-approved"] * 3
    h = cli("history", "--json").json()
    assert h[-1]["round_id"] == rep["round_id"]
    assert cli("history").code == 0
    rb = cli("rollback", rep["round_id"], "--json")
    assert rb.code == 0 and rb.json()["experiences_restored"] == 100
    assert cli("rollback", "r-does-not-exist").code == 2


@pytest.mark.parametrize("lines,status,thresholds_written", [
    ("\n\n\n", "applied", True),            # Enter everywhere: defaults (3 is skipped)
    ("2\n", "reset", False),                 # reset at checkpoint 1 ends the round
    ("1\n2\n1\n", "applied", False),         # accept, revert, skip transfers
])
def test_learn_terminal_answers_from_stdin(cli, artibot_home: Path, lines: str, status: str,
                                           thresholds_written: bool) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(100)))
    r = cli("learn", "--json", stdin=lines)
    assert r.code == 0, r.err
    assert r.json()["status"] == status
    assert (artibot_home / "thresholds.json").exists() is thresholds_written


def test_learn_per_pattern_from_terminal(cli, artibot_home: Path) -> None:
    recs = [record(i, routed_to="system2", outcome="success", pattern="p:a" if i % 2 else "p:b",
                   confidence=0.95) for i in range(50)]
    cli("collect", "--stdin", "--quiet", stdin=jsonl(recs))
    # accept, apply, decide per pattern: p:a -> Demote (3), p:b -> Hold (4)
    r = cli("learn", "--json", stdin="1\n1\n2\n3\n4\n")
    assert r.code == 0, r.err
    finals = {t["key"]: t["final"] for t in r.json()["transfers"]}
    assert finals == {"p:a": "demote", "p:b": "hold"}


def test_closed_stdin_defers_instead_of_approving(cli, artibot_home: Path) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(50)))
    r = cli("learn", "--json", stdin="")
    assert r.json()["status"] == "deferred"
    assert (artibot_home / "pending-review.json").exists()


def test_unattended_defers_then_review_answers(cli, artibot_home: Path) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(100)))
    r = cli("learn", "--unattended", "--json")
    assert r.json()["status"] == "deferred"
    q = cli("review", "--json").json()
    assert q["pending"] and q["questions"][0]["options"][0] == {
        "choice": "accept", "label": "Accept", "meaning": q["questions"][0]["options"][0]["meaning"],
        "default": True}
    assert cli("status", "--json").json()["pending_review"] is True
    bad = cli("review", "--answer", "1=maybe")
    assert bad.code == 2 and "accept|reset" in bad.err
    done = cli("review", "--answer", "1=accept", "--answer", "2=apply", "--answer", "3=auto", "--json")
    assert done.code == 0, done.err
    assert done.json()["status"] == "applied"
    assert [a["channel"] for a in done.json()["answers"]] == ["review"] * 3
    assert cli("review", "--json").json()["pending"] is False


def test_review_prepare_always_exits_0(cli, artibot_home: Path) -> None:
    r = cli("review", "--json", "--prepare")
    assert r.code == 0 and r.json()["pending"] is False and "message" in r.json()
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(60)))
    r = cli("review", "--json", "--prepare")
    assert r.code == 0 and r.json()["pending"] is True
    (artibot_home / "pending-review.json").write_bytes(b"{broken")
    r = cli("review", "--json", "--prepare")
    assert r.code == 0 and "pending-review.json" in r.json()["error"]


def test_dry_run(cli, artibot_home: Path) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(100)))
    r = cli("learn", "--dry-run")
    assert r.code == 0 and "dry run" in r.out
    assert not (artibot_home / "thresholds.json").exists()


def test_piped_output_is_not_hard_wrapped(cli) -> None:
    key = "frontend:refactor:component+dashboard+hook+management+~94feaa"
    recs = [record(i, routed_to="system2", pattern=key, confidence=0.95) for i in range(20)] + mixed(80, start=100)
    cli("collect", "--stdin", "--quiet", stdin=jsonl(recs))
    transfers = cli("learn", "--dry-run", "--json").json()["transfers"]
    reasons = {t["key"]: t["reason"] for t in transfers if t["automatic"] != "hold"}
    held = sum(1 for t in transfers if t["automatic"] == "hold")
    lines = cli("learn", "--dry-run").out.splitlines()
    assert any(line.split() == ["promote", key] for line in lines)
    # each reason on one line, however long: a pipe has no width to wrap at
    shown = [line.strip() for line in lines if line.strip().startswith("why: ")]
    assert set(shown) == {f"why: {reason}" for reason in reasons.values()}
    # what is held needs no decision: one line (the JSON has every pattern)
    assert held and f"{held} pattern(s) held where they are: nothing changes for them" in "\n".join(lines)
    assert any(len(line) > 80 for line in lines)


def test_route_record_and_outcome(cli) -> None:
    r = cli("route", "fix the typo in README.md", "--json", "--record")
    assert r.code == 0, r.err
    d = r.json()
    assert d["system"] in ("system1", "system2") and 0 <= d["complexity"] <= 1 and d["id"]
    o = cli("outcome", d["id"], "success", "--latency-ms", "42", "--json")
    assert o.code == 0, o.err
    assert o.json()["latency_ms"] == 42 and o.json()["routed_to"] == d["system"]
    assert o.json()["agent"] == o.json()["source"] == "cli"  # written as the hooks write theirs
    again = cli("outcome", d["id"], "success")
    assert again.code == 2 and "already" in again.err
    assert cli("outcome", d["id"], "great").code == 2


def test_doctor_clean_and_damaged(cli, artibot_home: Path) -> None:
    cli("collect", "--stdin", "--quiet", stdin=jsonl(mixed(3)))
    assert cli("doctor").code == 0
    (artibot_home / "learning-log.json").write_bytes(b"not json")
    r = cli("doctor", "--json")
    assert r.code == 1
    bad = [f for f in r.json()["findings"] if f["severity"] == "error"]
    assert bad and bad[0]["path"].endswith("learning-log.json")
    fixed = cli("doctor", "--repair")
    assert fixed.code == 0
    assert not (artibot_home / "learning-log.json").exists()
    assert any(p.read_bytes() == b"not json" for p in (artibot_home / "quarantine").iterdir())


def test_version_and_help(cli) -> None:
    assert "artibot" in cli("--version").out
    assert cli("--help").code == 0


def test_demo_runs_both_modes_in_a_temporary_home(cli, tmp_path: Path, artibot_home: Path) -> None:
    r = cli("demo", "--rounds", "2", "--keep", str(tmp_path / "demo"), "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert set(doc["modes"]) == {"seed", "evidence"}
    for mode in ("seed", "evidence"):
        rounds = doc["modes"][mode]["rounds"]
        assert [x["learned"] for x in rounds] == ["applied", "applied"]
        assert (tmp_path / "demo" / mode / "learning-log.json").exists()
    assert not artibot_home.exists()  # the user's home is never touched
