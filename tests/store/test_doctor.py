"""``artibot doctor``: every file of the home is checked; repairs move bad copies aside, never delete."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import orjson
import pytest

from artibot.experience import validate
from artibot.store import doctor
from artibot.store.round import snapshots
from artibot.store.learned import state_files as state
from artibot.store.documents import dump_document, write_document
from artibot.store.log.experiences import MOVE_MARKER, ExperienceLog, encode, render
from artibot.store.home import Home
from artibot.learning.learner_state import EvidenceState
from artibot.store.learned.learner_state import write_learner_state
from tests.factories import record, write_pattern_stats, write_pending, write_thresholds


def make(i: int) -> dict:
    return validate(record(i, id=f"r{i:03d}", timestamp="2026-01-31T09:30:00Z", domain="data", latency_ms=1,
                           confidence=0.5))


@pytest.fixture
def home(artibot_home) -> Home:
    """A healthy home with every kind of file."""
    home = Home(artibot_home).ensure()
    log = ExperienceLog(home)
    log.append([make(i) for i in range(6)])
    log.move_to_archive(["r000", "r001"], "round-0001")
    write_thresholds(home, {"default": 0.4, "domains": {"data": 0.35}})
    state.write_system1_patterns(home, {"patterns": [{"key": "data:sql", "status": "active"}]})
    snapshots.take(home, "round-0002")
    write_pattern_stats(home, {"patterns": {"data:sql": {"s2_streak": 1}}})
    write_learner_state(home, EvidenceState())
    state.write_learning_log(home, [{"round_id": "round-0001"}])
    state.write_transfer_log(home, [])
    write_pending(home, {"round_id": "round-0003", "proposal": {}})
    (home.root / "sessions").mkdir(mode=0o700)
    write_document(home.root / "sessions" / "abc.json", {"session_id": "abc", "turn": None}, "session")
    (home.root / "pending").mkdir(mode=0o700)
    write_document(home.root / "pending" / "dec1.json", {"input": "x"}, "pending-decision")
    return home


def problems(findings):
    return [f for f in findings if f.severity != "ok"]


def by_path(findings, path: Path):
    """The finding about ``path``'s content (a mode finding only when it is the only one)."""
    found = [f for f in findings if f.path == path and f.severity != "ok"]
    found.sort(key=lambda f: "mode is" in f.problem)
    assert found, f"no finding for {path}: {findings}"
    return found[0]


def render_said(finding) -> str:
    """A finding's problem as the command line says it in Korean."""
    from artibot.cli.words_errors import say_any

    return say_any("ko", finding.said or finding.problem)


def tree(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: kind, mode and bytes (links: their target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out[str(path.relative_to(root))] = ("link", os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                out[str(path.relative_to(root))] = ("file", stat.S_IMODE(st.st_mode), path.read_bytes())
            else:
                out[str(path.relative_to(root))] = ("dir", stat.S_IMODE(st.st_mode))
    return out


def contents(root: Path) -> set[bytes]:
    return {entry[2] for entry in tree(root).values() if entry[0] == "file"}


def test_a_healthy_home_has_no_problems(home):
    findings = doctor.check(home)
    assert problems(findings) == []
    ok = {f.path for f in findings}
    for path in (home.experiences, home.thresholds, home.system1_patterns, home.pattern_stats, home.learning_log,
                 home.transfer_log, home.pending_review, home.archive_dir / "round-0001.json",
                 home.snapshots_dir / "round-0002" / "manifest.json", home.root / "sessions" / "abc.json",
                 home.root / "pending" / "dec1.json"):
        assert path in ok, path
    assert doctor.repair(home) == findings


def test_a_missing_home_is_fine_and_stays_missing(tmp_path):
    home = Home(tmp_path / "nothing")
    assert [f.severity for f in doctor.check(home)] == ["ok"]
    assert [f.severity for f in doctor.repair(home)] == ["ok"]
    assert not home.root.exists()


def test_check_only_reads(home):
    home.thresholds.write_bytes(b"{bad")
    home.experiences.write_bytes(home.experiences.read_bytes()[:-5])
    os.chmod(home.transfer_log, 0o644)
    before = tree(home.root)
    assert problems(doctor.check(home))
    assert tree(home.root) == before


# ------------------------------------------------------------------ damaged state files
STATE_FILES = {
    "thresholds": (lambda h: h.thresholds, "thresholds fall back to the configured default"),
    "system1-patterns": (lambda h: h.system1_patterns, "System 1 cache starts empty"),
    "pattern-stats": (lambda h: h.pattern_stats, "restart from zero"),
    "learner-state": (lambda h: h.learner_state("evidence"), "per domain and complexity restart from zero"),
    "learning-log": (lambda h: h.learning_log, "artibot history"),
    "transfer-log": (lambda h: h.transfer_log, "promotions and demotions"),
    "pending-review": (lambda h: h.pending_review, "next `artibot learn` prepares it again"),
    "archive": (lambda h: h.archive_dir / "round-0001.json", "no longer replayed"),
    "snapshot": (lambda h: h.snapshots_dir / "round-0002" / "thresholds.json", "artibot rollback round-0002"),
    "session": (lambda h: h.root / "sessions" / "abc.json", "turn in progress"),
    "pending-decision": (lambda h: h.root / "pending" / "dec1.json", "artibot outcome"),
}
BAD = {
    "not-json": b"{not json",
    "truncated": b'{\n  "schema_version": 1,\n  "defa',
    "empty": b"",
    "wrong-shape": b'{"schema_version": 1, "unexpected": true}',
}


SHAPE_UNCHECKED = ("snapshot", "session", "pending-decision")  # only parsing and the version are checked


@pytest.mark.parametrize("kind,damage", [(k, d) for k in STATE_FILES for d in BAD
                                         if not (d == "wrong-shape" and k in SHAPE_UNCHECKED)])
def test_a_damaged_file_is_explained_then_moved_aside(home, kind, damage):
    where, lost = STATE_FILES[kind]
    path = where(home)
    bad = BAD[damage]
    path.write_bytes(bad)
    finding = by_path(doctor.check(home), path)
    assert finding.severity == "error" and not finding.repaired
    assert lost in finding.fix and "quarantine/" in finding.fix
    assert path.read_bytes() == bad

    done = by_path(doctor.repair(home), path)
    assert done.repaired and done.moved_to is not None
    assert done.moved_to.parent == home.quarantine_dir
    assert done.moved_to.read_bytes() == bad
    assert stat.S_IMODE(done.moved_to.stat().st_mode) == 0o600
    assert not path.exists()
    assert problems(doctor.check(home)) == []


def test_thresholds_fix_names_the_snapshot_to_restore_from(home):
    home.thresholds.write_bytes(b"[]")
    finding = by_path(doctor.check(home), home.thresholds)
    assert "snapshots/round-0002/" in finding.fix and "artibot rollback round-0002" in finding.fix


@pytest.mark.parametrize("kind", list(STATE_FILES))
def test_a_newer_artibots_file_is_reported_and_never_moved(home, kind):
    path = STATE_FILES[kind][0](home)
    doc = orjson.loads(path.read_bytes())
    doc["schema_version"] = 42
    data = orjson.dumps(doc)
    path.write_bytes(data)
    finding = by_path(doctor.check(home), path)
    assert finding.severity == "error" and "upgrade artibot" in finding.fix and "42" in finding.problem
    done = by_path(doctor.repair(home), path)
    assert not done.repaired and done.moved_to is None
    assert path.read_bytes() == data
    assert not home.quarantine_dir.exists()


# ------------------------------------------------------------------ the experience log
def test_a_torn_tail_is_a_warning_and_repair_cuts_it_into_quarantine(home):
    path = home.experiences
    torn = b"," + encode(make(50))[:30]
    path.write_bytes(path.read_bytes()[:-2] + torn)
    finding = by_path(doctor.check(home), path)
    assert finding.severity == "warning" and "interrupted" in finding.problem
    assert finding.problem == "the last append was interrupted: 31 bytes after the last complete record"
    assert render_said(finding) == "마지막 추가가 중단되었습니다: 마지막 온전한 레코드 뒤의 31바이트"
    done = by_path(doctor.repair(home), path)
    assert done.repaired and done.moved_to.read_bytes() == torn
    assert [r["id"] for r in ExperienceLog(home).read()] == ["r002", "r003", "r004", "r005"]
    assert problems(doctor.check(home)) == []


def test_damage_in_the_middle_is_an_error_and_repair_salvages_every_complete_line(home):
    path = home.experiences
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2][:15]  # r003 broken
    bad = b"\n".join(lines)
    path.write_bytes(bad)
    finding = by_path(doctor.check(home), path)
    assert finding.severity == "error" and "middle" in finding.problem and "line 3" in finding.problem
    assert render_said(finding) == "손상되어 (3번째 줄이 온전한 레코드가 아닙니다) 읽을 수 없습니다"
    with pytest.raises(Exception):
        ExperienceLog(home).read()
    assert path.read_bytes() == bad

    done = by_path(doctor.repair(home), path)
    assert done.repaired and done.moved_to.read_bytes() == bad
    assert [r["id"] for r in ExperienceLog(home).read()] == ["r002", "r004", "r005"]
    assert path.read_bytes() == render([make(2), make(4), make(5)])
    assert problems(doctor.check(home)) == []


@pytest.mark.parametrize("bad", [b"", b"garbage", b"\x00" * 4096, b'{"records": []}'])
def test_an_unrecognisable_log_is_moved_aside_and_replaced_by_an_empty_one(home, bad):
    home.experiences.write_bytes(bad)
    assert by_path(doctor.check(home), home.experiences).severity == "error"
    done = by_path(doctor.repair(home), home.experiences)
    assert done.moved_to.read_bytes() == bad
    assert ExperienceLog(home).read() == []


def test_a_log_in_another_json_layout_is_rewritten_with_the_same_records(home):
    records = [make(i) for i in range(3)]
    pretty = json.dumps(records, indent=2).encode()
    home.experiences.write_bytes(pretty)
    finding = by_path(doctor.check(home), home.experiences)
    assert finding.severity == "warning" and "one record per line" in finding.problem
    done = by_path(doctor.repair(home), home.experiences)
    assert done.moved_to.read_bytes() == pretty
    assert home.experiences.read_bytes() == render(records)


def test_invalid_records_and_repeated_ids_are_reported_then_quarantined(home):
    data = render([make(2), {**make(3), "complexity": 7}, make(2), make(4)])
    home.experiences.write_bytes(data)
    found = [f for f in doctor.check(home) if f.path == home.experiences]
    assert {f.severity for f in found} == {"error", "warning"}
    text = " ".join(f.problem for f in found)
    assert "line 3" in text and "complexity" in text and "repeat an id" in text
    assert home.experiences.read_bytes() == data  # check only reads
    doctor.repair(home)
    assert [r["id"] for r in ExperienceLog(home).read()] == ["r002", "r004"]
    [kept] = home.quarantine_dir.glob("*.bad-records")
    assert kept.read_bytes() == encode({**make(3), "complexity": 7}) + b"\n" + encode(make(2)) + b"\n"
    assert all(f.severity == "ok" for f in doctor.check(home))


def test_an_interrupted_archive_move_is_finished(home):
    log = ExperienceLog(home)
    moved = [make(2), make(3)]
    write_document(home.archive_dir / "round-0002.json", {"name": "round-0002", "meta": {}, "records": moved},
                   "archive")
    (home.archive_dir / MOVE_MARKER).write_bytes(orjson.dumps({"archive": "round-0002.json"}))
    os.chmod(home.archive_dir / MOVE_MARKER, 0o600)
    finding = by_path(doctor.check(home), home.archive_dir / MOVE_MARKER)
    assert finding.severity == "warning" and "interrupted" in finding.problem
    assert by_path(doctor.repair(home), home.archive_dir / MOVE_MARKER).repaired
    assert [r["id"] for r in log.read()] == ["r004", "r005"]
    assert not (home.archive_dir / MOVE_MARKER).exists()


def test_an_unreadable_move_marker_is_moved_aside(home):
    marker = home.archive_dir / MOVE_MARKER
    marker.write_bytes(b"{{")
    assert by_path(doctor.check(home), marker).severity == "error"
    done = by_path(doctor.repair(home), marker)
    assert done.moved_to.read_bytes() == b"{{"
    assert len(ExperienceLog(home).read()) == 4


# ------------------------------------------------------------------ links, folders, modes, temp files
@pytest.mark.parametrize("name", ["daily-experiences.json", "thresholds.json", "archive/round-0009.json",
                                  ".daily-experiences.lock", "patterns/stats.json"])
def test_a_planted_symlink_is_moved_aside_and_its_target_untouched(home, tmp_path, name):
    target = tmp_path / "victim.txt"
    target.write_bytes(b"secret")
    os.chmod(target, 0o644)
    path = home.root / name
    if path.exists():
        path.unlink()
    os.symlink(target, path)
    finding = by_path(doctor.check(home), path)
    assert finding.severity == "error" and "symbolic link" in finding.problem
    done = by_path(doctor.repair(home), path)
    assert done.repaired and os.path.islink(done.moved_to) and os.readlink(done.moved_to) == str(target)
    assert not os.path.lexists(path)
    assert target.read_bytes() == b"secret" and stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [f for f in problems(doctor.check(home)) if f.severity == "error"] == []


def test_a_folder_in_place_of_a_state_file_is_moved_aside(home):
    home.thresholds.unlink()
    home.thresholds.mkdir()
    (home.thresholds / "x").write_text("x")
    assert by_path(doctor.check(home), home.thresholds).severity == "error"
    done = by_path(doctor.repair(home), home.thresholds)
    assert (done.moved_to / "x").read_text() == "x"
    assert not home.thresholds.exists()


def test_a_fifo_is_moved_aside(home):
    fifo = home.root / "learning-log.json"
    fifo.unlink()
    os.mkfifo(fifo, 0o600)
    assert by_path(doctor.check(home), fifo).severity == "error"  # and check did not block on it
    assert by_path(doctor.repair(home), fifo).repaired
    assert not os.path.lexists(fifo)


def test_modes_are_reported_and_repaired(home):
    os.chmod(home.root, 0o755)
    os.chmod(home.thresholds, 0o644)
    os.chmod(home.archive_dir, 0o777)
    os.chmod(home.experiences, 0o640)
    found = problems(doctor.check(home))
    assert {f.path for f in found} == {home.root, home.thresholds, home.archive_dir, home.experiences}
    assert all(f.severity == "warning" and "mode" in f.problem for f in found)
    assert all(f.repaired for f in problems(doctor.repair(home)))
    assert stat.S_IMODE(home.root.stat().st_mode) == 0o700
    assert stat.S_IMODE(home.thresholds.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.archive_dir.stat().st_mode) == 0o700
    assert problems(doctor.check(home)) == []


def test_a_temp_file_left_by_a_dead_writer_is_moved_aside(home):
    dead = home.root / ".thresholds.json.999999999.123.tmp"
    alive = home.root / f".thresholds.json.{os.getpid()}.456.tmp"
    for path in (dead, alive):
        path.write_bytes(b"partial")
        os.chmod(path, 0o600)
    found = problems(doctor.check(home))
    assert [f.path for f in found] == [dead]
    assert by_path(doctor.repair(home), dead).moved_to.read_bytes() == b"partial"
    assert alive.exists()


def test_an_invalid_config_in_the_home_is_explained_and_left_alone(home):
    config = home.config_file
    config.write_text('{"learning": {"lifelong": {"batchSize": 0}}}')
    os.chmod(config, 0o600)
    finding = by_path(doctor.check(home), config)
    assert finding.severity == "error" and "learning.lifelong.batchSize" in finding.problem
    assert not by_path(doctor.repair(home), config).repaired
    assert config.exists()


def test_a_snapshot_without_manifest_is_a_warning(home):
    (home.snapshots_dir / "round-0009").mkdir(mode=0o700)
    finding = by_path(doctor.check(home), home.snapshots_dir / "round-0009")
    assert finding.severity == "warning"


# ------------------------------------------------------------------ never deletes
def test_repair_of_a_messy_home_keeps_every_byte(home, tmp_path):
    home.thresholds.write_bytes(b"{bad")
    home.system1_patterns.write_bytes(dump_document({"patterns": "nope"}, "system1-patterns"))
    (home.archive_dir / "round-0001.json").write_bytes(b"\x00\x01")
    lines = home.experiences.read_bytes().split(b"\n")
    lines[3] = b",{broken"
    home.experiences.write_bytes(b"\n".join(lines))
    home.pattern_stats.unlink()
    os.symlink(tmp_path, home.pattern_stats)
    os.chmod(home.learning_log, 0o666)
    before = contents(home.root)
    findings = doctor.repair(home)
    assert all(f.repaired for f in problems(findings)), [f for f in problems(findings) if not f.repaired]
    assert before <= contents(home.root)
    assert problems(doctor.check(home)) == []
    assert doctor.check(home)[-1].path == home.quarantine_dir  # the summary of what is kept aside


def test_a_linked_config_file_is_the_users_choice(home, tmp_path):
    real = tmp_path / "dotfiles" / "artibot.config.json"
    real.parent.mkdir()
    real.write_text('{"lang": "ko"}')
    os.symlink(real, home.config_file)
    assert problems(doctor.check(home)) == []
    assert [f for f in doctor.check(home) if f.path == home.config_file][0].severity == "ok"


def test_a_damaged_learner_stamp_is_explained(home):
    stamp = home.root / "sessions" / ".learner-stamp.json"
    stamp.write_bytes(b"{")
    os.chmod(stamp, 0o600)
    finding = by_path(doctor.check(home), stamp)
    assert finding.severity == "error" and "learner" in finding.fix
    assert by_path(doctor.repair(home), stamp).moved_to.read_bytes() == b"{"


def test_a_bad_copy_with_a_loose_mode_is_private_once_kept_aside(home):
    home.transfer_log.write_bytes(b"nope")
    os.chmod(home.transfer_log, 0o666)
    done = by_path(doctor.repair(home), home.transfer_log)
    assert stat.S_IMODE(done.moved_to.stat().st_mode) == 0o600
    assert problems(doctor.check(home)) == []


# ------------------------------------------------------------------ said in Korean
def test_the_findings_are_said_in_korean_and_their_english_is_the_json_output(home):
    from artibot.cli.words_errors import say_any
    from artibot.store.log.experiences import MOVE_MARKER as MOVE

    home.pattern_stats.unlink()
    home.pattern_stats.mkdir(mode=0o700)
    home.thresholds.write_bytes(b'{"schema_version": 99}')
    home.experiences.write_bytes(render([make(2), {**make(3), "complexity": 7, "outcome": None}, make(2), make(4)]))
    (home.archive_dir / MOVE).write_bytes(orjson.dumps({"archive": "round-0002.json"}))
    (home.snapshots_dir / "round-0009").mkdir(mode=0o700)
    (home.snapshots_dir / ".rollback-in-progress.json").write_bytes(b'{"rounds": ["round-0002", "round-0003"]}')
    for path in (home.archive_dir / MOVE, home.snapshots_dir / ".rollback-in-progress.json"):
        os.chmod(path, 0o600)
    said = {(f.problem, f.fix): (say_any("ko", f.said or f.problem), say_any("ko", f.fix_said or f.fix))
            for f in problems(doctor.check(home))}
    assert said == {
        ("is not a regular file", "move it aside into quarantine/; pattern streaks, counts and confidence restart "
                                  "from zero; no snapshot holds a copy of it"):
            ("일반 파일이 아닙니다", "quarantine/로 옮깁니다; 패턴의 연속 기록, 횟수, 신뢰도가 0부터 다시 시작합니다; 사본을 가진 "
                                "스냅숏이 없습니다"),
        ("was written by a newer artibot (schema_version 99; this one understands 1)",
         "upgrade artibot; doctor leaves a newer artibot's file where it is"):
            ("더 새 artibot이 쓴 파일입니다 (schema_version 99; 이 artibot은 1까지 압니다)",
             "artibot을 업그레이드하세요; doctor는 더 새 artibot의 파일을 그대로 둡니다"),
        ("1 record(s) break the schema, so `artibot learn` stops on them (first: line 3: outcome is required; "
         "complexity must be a number from 0 to 1, not 7)",
         "move those records into quarantine/ (the rest of the log stays as it is)"):
            ("레코드 1개가 스키마에 맞지 않아 `artibot learn`이 멈춥니다 (첫 번째: 3번째 줄: outcome이(가) 필요합니다; "
             "complexity은(는) 0부터 1까지의 숫자여야 합니다 (7은(는) 안 됨))",
             "그 레코드들을 quarantine/로 옮깁니다 (로그의 나머지는 그대로)"),
        ("1 record(s) repeat an id already in the log",
         "move the later copies into quarantine/ (the first of each id stays)"):
            ("레코드 1개가 로그에 이미 있는 id를 되풀이합니다", "나중 사본을 quarantine/로 옮깁니다 (id마다 첫 번째는 남습니다)"),
        ("a move of processed experiences to archive/round-0002.json was interrupted",
         "finish it: drop from the log the records already archived (the next write to the log does this by itself)"):
            ("처리된 경험을 archive/round-0002.json(으)로 옮기는 작업이 중단되었습니다",
             "마무리합니다: 이미 보관된 레코드를 로그에서 뺍니다 (다음에 로그에 쓸 때 저절로 됩니다)"),
        ("this snapshot has no manifest.json (a round interrupted while taking it?); `artibot rollback` cannot use it",
         "nothing to repair; leave it or move it by hand"):
            ("이 스냅숏에는 manifest.json이 없습니다 (찍는 도중 중단된 라운드?); `artibot rollback`이 쓸 수 없습니다",
             "복구할 것 없음; 그대로 두거나 직접 옮기세요"),
        ("a rollback of round(s) round-0002, round-0003 was interrupted",
         "run `artibot learn` or `artibot rollback` (or this repair): it finishes the rollback"):
            ("라운드 round-0002, round-0003의 롤백이 중단되었습니다",
             "`artibot learn`이나 `artibot rollback`을 실행하세요 (또는 이 복구): 롤백을 마무리합니다"),
    }


def test_what_was_said_in_english_only_is_said_in_korean_too(home):
    from artibot.cli.words_errors import say_any

    state = home.learner_state("evidence")
    state.unlink()
    state.mkdir(mode=0o700)
    (home.quarantine_dir).mkdir(mode=0o700)
    (home.quarantine_dir / "x").write_bytes(b"")
    os.chmod(home.quarantine_dir / "x", 0o600)
    findings = doctor.check(home)
    found = by_path(findings, state)
    assert found.fix == ("move it aside into quarantine/; the evidence learner's counts per domain and complexity "
                         "restart from zero; no snapshot holds a copy of it")
    assert say_any("ko", found.fix_said or found.fix) == ("quarantine/로 옮깁니다; 증거 학습기의 도메인별, 복잡도별 횟수가 "
                                                          "0부터 다시 시작합니다; 사본을 가진 스냅숏이 없습니다")
    ok = {f.problem: (say_any("ko", f.said or f.problem), say_any("ko", f.fix_said or f.fix))
          for f in findings if f.severity == "ok"}
    assert ok["valid"] == ("올바릅니다", "")
    assert ok["4 unprocessed experience(s)"] == ("미처리 경험 4개", "")
    assert ok["1 item(s) kept aside (cut log tails, bad copies)"] == (
        "따로 보관된 항목 1개 (잘라 낸 로그 끝부분, 손상된 사본)", "살펴보고, 더 필요 없으면 직접 지우세요")


def test_where_a_zero_filled_log_is_damaged_is_said_in_korean(home):
    home.experiences.write_bytes(b"\x00" * 4096)
    finding = by_path(doctor.check(home), home.experiences)
    assert finding.problem == "is damaged (it holds 4.0 KiB of zero bytes from byte 0), so it cannot be read"
    assert render_said(finding) == "손상되어 (바이트 0부터 0으로 채워진 4.0 KiB이(가) 있습니다) 읽을 수 없습니다"
