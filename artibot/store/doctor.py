"""``artibot doctor``: check every file of the data home, explain, and repair what can be.

:func:`check` only reads. :func:`repair` runs the same checks and applies each fix it
can; it never deletes anything: a bad copy, a planted link or a leftover temp file is
*moved* into ``quarantine/`` under a timestamped name, a torn log tail is cut into
``quarantine/`` by the experience log itself, and a log damaged in the middle is
salvaged (every complete record line goes into a fresh log) after the damaged copy is
kept in ``quarantine/``. A file written by a newer artibot (unknown ``schema_version``)
is not damage: it is reported and left where it is.
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Literal

import orjson

from artibot.config import load_config_file
from artibot.errors import ArtibotError, ConfigError, CorruptFileError, LockTimeout, UnsafePathError, ValidationError
from artibot.experience import validate
from artibot.store import state
from artibot.store.documents import CURRENT_VERSION, parse_document, read_document
from artibot.store.experiences import HEADER, MOVE_MARKER, ExperienceLog, render
from artibot.store.fs import DIR_MODE, FILE_MODE, FileLock, atomic_write_bytes, ensure_dir, fsync_dir, read_bytes
from artibot.store.home import Home

Severity = Literal["ok", "warning", "error"]


@dataclass(frozen=True)
class Finding:
    """One checked file: ``problem`` says what is wrong (or what was found), ``fix`` what to do."""

    path: Path
    severity: Severity
    problem: str
    fix: str
    repaired: bool = False
    moved_to: Path | None = None


Action = Callable[[], "Path | None"]
"""Applies a repair; returns where a bad copy went (None when nothing was moved)."""

# repair order: planted links first, then contents, then what depends on them, modes last
_LINKS, _CONTENT, _AFTER_LOG, _MODES = 10, 20, 30, 90
_TEMP = re.compile(r"^\..+\.(\d+)\.(\d+)\.tmp$")
_LOCK_WAIT_S = 10.0


@dataclass
class _Item:
    finding: Finding
    action: Action | None = None
    order: int = _CONTENT


def check(home: Home) -> list[Finding]:
    """Every finding about ``home`` (one ``ok`` per healthy file); reads only."""
    return [item.finding for item in _Examination(home).run()]


def repair(home: Home) -> list[Finding]:
    """Check, then apply every available fix; findings say what was repaired and moved where."""
    items = _Examination(home).run()
    results = [item.finding for item in items]
    for index in sorted(range(len(items)), key=lambda i: items[i].order):
        item = items[index]
        if item.action is None:
            continue
        try:
            moved = item.action()
        except (ArtibotError, OSError) as exc:
            results[index] = replace(item.finding, fix=f"{item.finding.fix} — the repair failed: {exc}")
            continue
        results[index] = replace(item.finding, repaired=True, moved_to=moved)
    return results


# ---------------------------------------------------------------------------- moving aside
def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def move_aside(home: Home, path: Path) -> Path:
    """Rename ``path`` (file, link or folder; a link is never followed) into ``quarantine/``."""
    qdir = ensure_dir(home.quarantine_dir)
    base = path.relative_to(home.root).as_posix().replace("/", "__")
    target = qdir / f"{base}.{_stamp()}"
    n = 1
    while os.path.lexists(target):
        n += 1
        target = qdir / f"{base}.{_stamp()}.{n}"
    os.rename(path, target)
    kind = _kind_of(target)
    if kind in ("file", "dir"):  # a copy kept aside is as private as the data it came from
        os.chmod(target, FILE_MODE if kind == "file" else DIR_MODE)
    fsync_dir(qdir)
    fsync_dir(path.parent)
    return target


def _kind_of(path: Path) -> str | None:
    """"file", "dir", "link", "other", or None when missing."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else "other"


def _foreign_version(path: Path, kind: str) -> int | None:
    """The file's schema_version when it is newer than this artibot knows (a newer artibot's file)."""
    try:
        doc = orjson.loads(read_bytes(path) or b"")
    except (orjson.JSONDecodeError, ArtibotError):
        return None
    version = doc.get("schema_version") if isinstance(doc, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > CURRENT_VERSION[kind]:
        return version
    return None


def _check_archive(doc: dict[str, Any]) -> str | None:
    records = doc.get("records")
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        return '"records" must be a list of experience objects'
    return None


_SNAPSHOT_KINDS = {"manifest.json": "snapshot", "thresholds.json": "thresholds",
                   "system1-patterns.json": "system1-patterns", "patterns__stats.json": "pattern-stats"}


class _Examination:
    def __init__(self, home: Home):
        self.home = home
        self.root = home.root
        self.items: list[_Item] = []
        self.reported: set[Path] = set()

    def add(self, path: Path, severity: Severity, problem: str, fix: str = "",
            action: Action | None = None, order: int = _CONTENT) -> None:
        self.items.append(_Item(Finding(path, severity, problem, fix), action, order))
        if severity != "ok":
            self.reported.add(path)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def run(self) -> list[_Item]:
        kind = _kind_of(self.root)
        if kind is None:
            self.add(self.root, "ok", "the data home does not exist yet; artibot creates it on first use")
            return self.items
        if kind != "dir":
            what = "a symbolic link" if kind == "link" else "not a directory"
            self.add(self.root, "error", f"the data home is {what}; artibot never follows a link in place of it",
                     "point ARTIBOT_HOME at the real directory, or replace the link with a directory")
            return self.items
        self.walk(self.root)
        self.experience_log()
        self.state_files()
        self.archives()
        self.snapshots()
        self.spools(self.home.sessions_dir, "session",
                    "the turn in progress of that session is forgotten (at most one experience)")
        self.spools(self.home.pending_dir, "pending-decision",
                    "that recorded decision can no longer be completed with `artibot outcome`")
        self.spools(self.home.pending_dir / "done", "pending-decision",
                    "nothing the learner needs: the decision's experience is already in the log")
        self.config()
        self.quarantine_summary()
        return self.items

    # ------------------------------------------------------------------ links, modes, temp files
    def walk(self, folder: Path) -> None:
        self.mode(folder, DIR_MODE)
        in_quarantine = folder == self.home.quarantine_dir or self.home.quarantine_dir in folder.parents
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = Path(entry.path)
                if entry.is_symlink():
                    # a link in quarantine/ is one doctor moved there; the config file is the user's own
                    # (artibot only reads it), so a link to a dotfiles checkout is fine
                    if not in_quarantine and path != self.home.config_file:
                        target = os.readlink(path)
                        self.add(path, "error", f"is a symbolic link (to {target}); artibot never follows links "
                                 "planted in its data home",
                                 "move the link itself aside into quarantine/; its target is not touched",
                                 self.mover(path), _LINKS)
                elif entry.is_dir(follow_symlinks=False):
                    self.walk(path)
                elif entry.is_file(follow_symlinks=False):
                    self.mode(path, FILE_MODE)
                    self.temp_file(path)
                elif not in_quarantine:
                    self.add(path, "error", "is not a regular file (a FIFO, socket or device)",
                             "move it aside into quarantine/", self.mover(path), _LINKS)

    def mode(self, path: Path, wanted: int) -> None:
        have = stat.S_IMODE(os.lstat(path).st_mode)
        if have == wanted:
            return
        what = "folder" if wanted == DIR_MODE else "file"

        def chmod() -> None:
            if _kind_of(path) == ("dir" if wanted == DIR_MODE else "file"):
                os.chmod(path, wanted)

        self.items.append(_Item(Finding(path, "warning", f"{what} mode is {have:04o}, expected {wanted:04o} "
                                        "(only you may read artibot's data)", f"chmod {wanted:04o}"),
                                chmod, _MODES))

    def temp_file(self, path: Path) -> None:
        match = _TEMP.match(path.name)
        if not match or self.home.quarantine_dir in path.parents:
            return
        try:
            os.kill(int(match.group(1)), 0)
            return  # its writer is alive: a write in progress
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError, ValueError):
            return
        self.add(path, "warning", "leftover temp file of a write interrupted by a crash (the file it was "
                 "meant to replace is intact)", "move it aside into quarantine/", self.mover(path), _CONTENT)

    def mover(self, path: Path, lock: Path | None = None, still_bad: Callable[[], bool] | None = None) -> Action:
        def act() -> Path | None:
            if lock is None:
                return move_aside(self.home, path) if os.path.lexists(path) else None
            with FileLock(lock, timeout=_LOCK_WAIT_S):
                if not os.path.lexists(path) or (still_bad is not None and not still_bad()):
                    return None
                return move_aside(self.home, path)
        return act

    def regular(self, path: Path, lost: str) -> bool:
        """True for a regular file; reports a folder or device planted in its place (links: see walk)."""
        kind = _kind_of(path)
        if kind in ("dir", "other") and path not in self.reported:
            self.add(path, "error", "is not a regular file", f"move it aside into quarantine/; {lost}",
                     self.mover(path), _LINKS)
        return kind == "file"

    # ------------------------------------------------------------------ the experience log
    def experience_log(self) -> None:
        path = self.home.experiences
        if not self.regular(path, "a fresh log starts with the next experience"):
            return
        lock_path = self.home.experiences_lock
        lock = FileLock(lock_path, shared=True, timeout=_LOCK_WAIT_S) if _kind_of(lock_path) == "file" else None
        try:
            if lock:
                lock.acquire()
            try:
                data = read_bytes(path) or b""
                journal = self.journal(path, lock_path)
            finally:
                if lock:
                    lock.release()
        except LockTimeout as exc:
            self.add(path, "warning", f"could not be checked: {exc}", "run `artibot doctor` again")
            return
        scan = scan_log(data, journal)
        if scan.state == "ok":
            self.log_records(path, scan.records)
        elif scan.state == "torn":
            self.add(path, "warning", f"the last append was interrupted: {scan.detail}",
                     "cut the torn tail into quarantine/ and restore the closing bracket (the next append does "
                     "this by itself); only the interrupted append is lost", self.cut_tail, _CONTENT)
        elif scan.state == "layout":
            self.add(path, "warning", "is a valid JSON array but not one record per line as artibot writes it, so "
                     "an interrupted append could not be cut off cleanly",
                     f"rewrite its {len(scan.records)} records in artibot's layout; the original goes to quarantine/",
                     self.salvage, _CONTENT)
        else:
            self.add(path, "error", f"is damaged in the middle ({scan.detail}), so it cannot be read",
                     f"keep every complete record line ({len(scan.records)} records) in a fresh log and move the "
                     "damaged copy to quarantine/ (records on damaged lines stay only there)",
                     self.salvage, _CONTENT)

    @staticmethod
    def journal(path: Path, lock_path: Path) -> int | None:
        """The offset journalled by the last append, if it applies to the current file."""
        if _kind_of(lock_path) != "file":
            return None
        raw = (read_bytes(lock_path) or b"")[:64].strip()
        try:
            offset, inode = (int(x) for x in raw.split())
        except ValueError:
            return None
        return offset if inode == os.lstat(path).st_ino else None

    def log_records(self, path: Path, records: list[dict[str, Any]]) -> None:
        invalid: list[str] = []
        seen: set[Any] = set()
        duplicates = 0
        for i, record in enumerate(records, start=1):
            try:
                validate(record, assign=False)
                missing = [name for name in ("id", "timestamp") if record.get(name) is None]
                if missing:
                    raise ValidationError([f"{name} is required" for name in missing])
            except ValidationError as exc:
                invalid.append(f"record {i}: {'; '.join(exc.problems)}")
            duplicates += record.get("id") in seen
            seen.add(record.get("id"))
        if invalid:
            self.add(path, "warning", f"{len(invalid)} record(s) break the schema (first: {invalid[0]})",
                     "edit or remove them by hand, one record per line; doctor never edits records")
        if duplicates:
            self.add(path, "warning", f"{duplicates} record(s) repeat an id already in the log",
                     "remove the repeated lines by hand; doctor never edits records")
        if not invalid and not duplicates:
            self.add(path, "ok", f"{len(records)} unprocessed experience(s)")

    def cut_tail(self) -> Path | None:
        done = ExperienceLog(self.home).repair()
        return done.quarantined_to if done else None

    def salvage(self) -> Path | None:
        """Under the log's lock: keep the bad copy (hard link, else a byte copy) in quarantine/, write a fresh log."""
        path = self.home.experiences
        with FileLock(self.home.experiences_lock, timeout=_LOCK_WAIT_S):
            data = read_bytes(path)
            if data is None:
                return None
            scan = scan_log(data, self.journal(path, self.home.experiences_lock))
            if scan.state in ("ok", "torn"):
                return None  # someone repaired or rewrote it meanwhile
            qdir = ensure_dir(self.home.quarantine_dir)
            kept = qdir / f"daily-experiences.json.{_stamp()}.{time.time_ns() % 10**9}.damaged"
            try:
                os.link(path, kept)
            except OSError:
                atomic_write_bytes(kept, data)
            atomic_write_bytes(path, render(scan.records))
            return kept

    # ------------------------------------------------------------------ state documents
    def state_files(self) -> None:
        home = self.home
        table = [
            (home.thresholds, "thresholds", state.read_thresholds,
             "thresholds fall back to the configured default (cognitive.router.threshold) for every domain"),
            (home.system1_patterns, "system1-patterns", state.read_system1_patterns,
             "the System 1 cache starts empty until patterns are promoted again"),
            (home.pattern_stats, "pattern-stats", state.read_pattern_stats,
             "pattern streaks, counts and confidence restart from zero"),
            (home.learning_log, "learning-log", state.read_learning_log,
             "`artibot history` no longer lists the rounds so far"),
            (home.transfer_log, "transfer-log", state.read_transfer_log,
             "the record of past promotions and demotions starts empty"),
            (home.pending_review, "pending-review", state.read_pending,
             "the round waiting for review is dropped; its experiences stay unprocessed, so the next "
             "`artibot learn` prepares it again"),
        ]
        for path, kind, reader, lost in table:
            lost = f"{lost}{self.restore_hint(path)}"
            self.document(path, kind, lambda reader=reader: reader(self.home), lost, lock=home.state_lock)

    def restore_hint(self, path: Path) -> str:
        name = self.rel(path).replace("/", "__")
        folder = self.home.snapshots_dir
        rounds = sorted(p.name for p in folder.iterdir() if (p / name).is_file()) if _kind_of(folder) == "dir" else []
        if rounds:
            return f"; restore from snapshots/{rounds[-1]}/ with `artibot rollback {rounds[-1]}`"
        return "; no snapshot holds a copy of it"

    def document(self, path: Path, kind: str, read: Callable[[], Any], lost: str, *, lock: Path | None = None,
                 order: int = _CONTENT) -> None:
        """Check one JSON document with ``read``; a bad copy is moved aside, a newer artibot's file is not."""
        if not self.regular(path, lost):
            return
        try:
            read()
        except UnsafePathError:
            return  # reported by walk
        except CorruptFileError as exc:
            version = _foreign_version(path, kind)
            if version is not None:
                self.add(path, "error", f"was written by a newer artibot (schema_version {version}; this one "
                         f"understands {CURRENT_VERSION[kind]})",
                         "upgrade artibot; doctor leaves a newer artibot's file where it is")
                return

            def still_bad() -> bool:
                try:
                    read()
                except CorruptFileError:
                    return True
                return False

            self.add(path, "error", exc.problem,
                     f"move the bad copy to quarantine/ so the next run starts this file fresh: {lost}",
                     self.mover(path, lock or self.home.state_lock, still_bad), order)
            return
        self.add(path, "ok", "valid")

    def archives(self) -> None:
        folder = self.home.archive_dir
        if _kind_of(folder) != "dir":
            return
        for path in sorted(folder.glob("*.json")):
            if path.name == MOVE_MARKER:
                continue
            self.document(path, "archive", lambda p=path: read_document(p, "archive", require=_check_archive),
                          "the processed experiences in it are no longer replayed (the copy stays in quarantine/)",
                          lock=self.home.experiences_lock)
        marker = folder / MOVE_MARKER
        if _kind_of(marker) != "file":
            return
        try:
            info = orjson.loads(read_bytes(marker) or b"")
            name = Path(info["archive"]).name
        except (orjson.JSONDecodeError, KeyError, TypeError):
            self.add(marker, "error", "unreadable marker of an interrupted archive move",
                     "move the marker to quarantine/; records of that move may then be in both the log and "
                     "archive/", self.mover(marker, self.home.experiences_lock), _AFTER_LOG)
            return
        self.add(marker, "warning", f"a move of processed experiences to archive/{name} was interrupted",
                 "finish it: drop from the log the records already archived (the next write to the log does "
                 "this by itself)", self.finish_move, _AFTER_LOG)

    def finish_move(self) -> None:
        log = ExperienceLog(self.home, lock_timeout=_LOCK_WAIT_S)
        with log._exclusive():  # taking the log's lock finishes an interrupted move
            pass

    def snapshots(self) -> None:
        folder = self.home.snapshots_dir
        if _kind_of(folder) != "dir":
            return
        for snap in sorted(p for p in folder.iterdir() if _kind_of(p) == "dir"):
            if _kind_of(snap / "manifest.json") is None:
                self.add(snap, "warning", "this snapshot has no manifest.json (a round interrupted while taking "
                         "it?); `artibot rollback` cannot use it", "nothing to repair; leave it or move it by hand")
            for path in sorted(snap.rglob("*.json")):
                kind = _SNAPSHOT_KINDS.get(path.name)
                self.document(path, kind or "snapshot", lambda p=path, k=kind: self.parse(p, k),
                              f"`artibot rollback {snap.name}` will stop, naming the missing copy")

    @staticmethod
    def parse(path: Path, kind: str | None) -> None:
        data = read_bytes(path) or b""
        if kind is not None:
            parse_document(data, path, kind)
            return
        try:
            orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise CorruptFileError(path, f"not valid JSON ({exc})") from None

    def spools(self, folder: Path, kind: str, lost: str) -> None:
        if _kind_of(folder) != "dir":
            return
        for path in sorted(folder.glob("*.json")):
            hidden = path.name.startswith(".")  # sessions/.learner-stamp.json
            self.document(path, kind, lambda p=path: self.parse(p, kind),
                          "the learner's start stamp is forgotten: the next session end may start the learner "
                          "again" if hidden else lost,
                          lock=folder / f".{path.stem}.lock" if kind == "session" and not hidden else None)

    # ------------------------------------------------------------------ config and quarantine
    def config(self) -> None:
        path = self.home.config_file
        if not path.is_file():  # a link is fine here: see walk
            return
        try:
            load_config_file(path)
        except ConfigError as exc:
            self.add(path, "error", "; ".join(exc.problems),
                     "edit the file: each problem names the key and what is allowed (doctor never changes your "
                     "configuration)")
            return
        self.add(path, "ok", "valid configuration")

    def quarantine_summary(self) -> None:
        folder = self.home.quarantine_dir
        if _kind_of(folder) == "dir":
            count = sum(1 for _ in folder.iterdir())
            if count:
                self.add(folder, "ok", f"{count} item(s) kept aside (cut log tails, bad copies)",
                         "inspect them; delete them by hand once you no longer need them")


# ---------------------------------------------------------------------------- log analysis
@dataclass(frozen=True)
class LogScan:
    state: Literal["ok", "layout", "torn", "damaged"]
    records: list[dict[str, Any]]
    """Every record the file holds (ok/layout) or every complete record line (salvage)."""
    detail: str = ""


def _record(line: bytes, *, first: bool | None = None) -> dict[str, Any] | None:
    """The record on a log line; with ``first`` also insist on the comma layout."""
    comma = line.startswith(b",")
    if first is not None and comma == first:
        return None
    try:
        value = orjson.loads(line[1:] if comma else line)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _salvage(data: bytes) -> list[dict[str, Any]]:
    """Every line that holds a whole record (an object with a string id), first copy of each id."""
    out, seen = [], set()
    for line in data.split(b"\n"):
        record = _record(line.strip())
        if record is not None and isinstance(record.get("id"), str) and record["id"] not in seen:
            seen.add(record["id"])
            out.append(record)
    return out


def scan_log(data: bytes, journal: int | None = None) -> LogScan:
    """Classify the bytes of ``daily-experiences.json`` the way the log's own repair would."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        doc = None
    if isinstance(doc, list) and all(isinstance(r, dict) for r in doc):
        in_layout = data.startswith(HEADER) and data.endswith(b"\n]\n") and data.count(b"\n") == len(doc) + 2
        return LogScan("ok" if in_layout else "layout", doc)
    if not data.startswith(HEADER):
        return LogScan("damaged", _salvage(data), "it does not start with the '[' line of an experience log")
    lines = data[len(HEADER):].split(b"\n")
    complete = lines[:-1]
    first_bad = next((i for i, line in enumerate(complete) if _record(line, first=(i == 0)) is None), None)
    where = f"line {first_bad + 2} is not a complete record" if first_bad is not None else "it is not a JSON array"
    if data.endswith(b"\n]\n"):  # the appender sees an intact tail here: only a salvage can help
        return LogScan("damaged", _salvage(data), where)
    if journal is not None and len(HEADER) <= journal <= len(data) and data[journal - 1:journal] == b"\n":
        head = data[len(HEADER):journal].split(b"\n")[:-1]
        if all(_record(line, first=(i == 0)) is not None for i, line in enumerate(head)):
            return LogScan("torn", _salvage(data), f"{len(data) - journal} bytes after the last complete append")
        return LogScan("damaged", _salvage(data), where)
    if first_bad is not None and any(_record(line) is not None for line in complete[first_bad + 1:]):
        return LogScan("damaged", _salvage(data), where)
    keep = len(HEADER) + sum(len(line) + 1 for line in complete[:first_bad])
    return LogScan("torn", _salvage(data), f"{len(data) - keep} bytes after the last complete record")
