"""``artibot doctor``: check every file of the data home, explain, and repair what can be.

:func:`check` only reads. :func:`repair` runs the same checks and applies each fix it
can; it never deletes anything: a bad copy, a planted link or a leftover temp file is
*moved* into ``quarantine/`` under a timestamped name, a torn log tail is cut into
``quarantine/`` by the experience log itself, and a log damaged in the middle is
salvaged (every complete record line goes into a fresh log) after the damaged copy is
kept in ``quarantine/``. A file written by a newer artibot (unknown ``schema_version``)
is not damage: it is reported and left where it is.

The checks of the experience log are in ``doctor_log``; moving aside is ``quarantine``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Literal

import orjson

from artibot.hookpath import names
from artibot.config import load_config_file
from artibot.errors import ArtibotError, ConfigError, CorruptFileError, UnsafePathError
from artibot.messages import Message
from artibot.store.log.doctor_log import LOCK_WAIT_S, LogChecks, why
from artibot.store import archive
from artibot.store.round import commit as round_commit
from artibot.store.round import recovery
from artibot.store.round import rollback_journal
from artibot.store.learned import state_files as state
from artibot.store.documents import CURRENT_VERSION, parse_document
from artibot.store.log.experiences import ExperienceLog
from artibot.store.fs import DIR_MODE, FILE_MODE, FileLock, read_bytes
from artibot.store.home import Home
from artibot.store.learned.learner_state import read_learner_state
from artibot.store.log.log_scan import LogScan, scan_log  # noqa: F401  (public names of this module before the split)
from artibot.store.quarantine import is_dead_temp, kind_of, move_aside

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
    said: Message | None = None
    """``problem`` as a message, to be said in another language (None: a finding worded in English only)."""
    fix_said: Message | None = None
    """``fix`` as a message, likewise."""


Action = Callable[[], "Path | None"]
"""Applies a repair; returns where a bad copy went (None when nothing was moved)."""

# repair order: planted links first, then contents, then what depends on them, modes last
_LINKS, _CONTENT, _AFTER_LOG, _MODES = 10, 20, 30, 90


@dataclass
class _Item:
    finding: Finding
    action: Action | None = None
    order: int = _CONTENT


def check(home: Home) -> list[Finding]:
    """Every finding about ``home`` (one ``ok`` per healthy file); reads only."""
    return [item.finding for item in _Examination(home).run()]


def repair(home: Home, *, finish_rollback: Callable[[Home], object] | None = None) -> list[Finding]:
    """Check, then apply every available fix; findings say what was repaired and moved where.

    ``finish_rollback``: how to finish a rollback found interrupted (default: the store's one
    recovery, :func:`artibot.store.round.recovery.recover`, under the learner lock).
    """
    items = _Examination(home, finish_rollback or recovery.recover).run()
    results = [item.finding for item in items]
    for index in sorted(range(len(items)), key=lambda i: items[i].order):
        item = items[index]
        if item.action is None:
            continue
        try:
            moved = item.action()
        except (ArtibotError, OSError) as exc:
            failed = Message("doctor.repair_failed", fix=item.finding.fix_said or item.finding.fix, why=why(exc))
            results[index] = replace(item.finding, fix=str(failed), fix_said=failed)
            continue
        results[index] = replace(item.finding, repaired=True, moved_to=moved)
    return results


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


_SNAPSHOT_KINDS = {"manifest.json": "snapshot", "thresholds.json": "thresholds",
                   "system1-patterns.json": "system1-patterns", "patterns__stats.json": "pattern-stats"}


class _Examination(LogChecks):
    def __init__(self, home: Home, recover_rollback: Callable[[Home], object] | None = None):
        self.home = home
        self.recover_rollback = recover_rollback
        self.root = home.root
        self.items: list[_Item] = []
        self.reported: set[Path] = set()

    def add(self, path: Path, severity: Severity, problem: str | Message, fix: str | Message = "",
            action: Action | None = None, order: int = _CONTENT) -> None:
        said = problem if isinstance(problem, Message) else None
        fix_said = fix if isinstance(fix, Message) else None
        self.items.append(_Item(Finding(path, severity, str(problem), str(fix), said=said, fix_said=fix_said),
                                action, order))
        if severity != "ok":
            self.reported.add(path)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def run(self) -> list[_Item]:
        kind = kind_of(self.root)
        if kind is None:
            parent = next((p for p in self.root.parents if p.exists()), None)
            if parent is not None and not os.access(parent, os.W_OK | os.X_OK):
                self.add(self.root, "error", Message("doctor.home_parent", parent=str(parent)),
                         Message("doctor.home_parent_fix", parent=str(parent)))
                return self.items
            self.add(self.root, "ok", Message("doctor.home_not_yet"))
            return self.items
        if kind == "link":
            self.add(self.root, "error", Message("doctor.home_link"), Message("doctor.home_link_fix"))
            return self.items
        if kind != "dir":
            # a plain file (or a FIFO, a device) where the folder should be: no link in sight
            what = Message("doctor.a_file" if kind == "file" else "doctor.a_special")
            self.add(self.root, "error", Message("doctor.home_not_folder", what=what), Message("doctor.home_not_folder_fix"))
            return self.items
        if not os.access(self.root, os.W_OK | os.X_OK):
            # reading works, so every other check still runs; but nothing can be recorded or learned
            # a warning, not an error: every read command works on a read-only home
            self.add(self.root, "warning", Message("doctor.home_readonly"), Message("doctor.home_readonly_fix"))
        self.walk(self.root)
        self.experience_log()
        self.state_files()
        self.archives()
        self.snapshots()
        self.rollback_plan()
        self.round_files_commit()
        self.spools(self.home.sessions_dir, "session", Message("doctor.lost.session"))
        self.spools(self.home.pending_dir, "pending-decision", Message("doctor.lost.pending"))
        self.spools(self.home.pending_dir / "done", "pending-decision", Message("doctor.lost.done"))
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
                        self.add(path, "error", Message("doctor.link", target=target), Message("doctor.link_fix"),
                                 self.mover(path), _LINKS)
                elif entry.is_dir(follow_symlinks=False):
                    self.walk(path)
                elif entry.is_file(follow_symlinks=False):
                    self.mode(path, FILE_MODE)
                    self.temp_file(path)
                elif not in_quarantine:
                    self.add(path, "error", Message("doctor.special"), Message("doctor.move_aside"),
                             self.mover(path), _LINKS)

    def mode(self, path: Path, wanted: int) -> None:
        have = stat.S_IMODE(os.lstat(path).st_mode)
        if have == wanted:
            return
        what = Message("doctor.folder" if wanted == DIR_MODE else "doctor.file")

        def chmod() -> None:
            if kind_of(path) == ("dir" if wanted == DIR_MODE else "file"):
                os.chmod(path, wanted)

        said = Message("doctor.mode", what=what, have=f"{have:04o}", wanted=f"{wanted:04o}")
        self.items.append(_Item(Finding(path, "warning", str(said), f"chmod {wanted:04o}", said=said), chmod, _MODES))

    def temp_file(self, path: Path) -> None:
        if self.home.quarantine_dir in path.parents or not is_dead_temp(path):
            return
        if path.parent == round_commit.staging_dir(self.home):
            return  # an interrupted commit's own: reported (and finished) as one, by round_files_commit
        self.add(path, "warning", Message("doctor.temp_file"), Message("doctor.move_aside"), self.mover(path),
                 _CONTENT)

    def mover(self, path: Path, lock: Path | None = None, still_bad: Callable[[], bool] | None = None) -> Action:
        def act() -> Path | None:
            if lock is None:
                return move_aside(self.home, path) if os.path.lexists(path) else None
            with FileLock(lock, timeout=LOCK_WAIT_S):
                if not os.path.lexists(path) or (still_bad is not None and not still_bad()):
                    return None
                return move_aside(self.home, path)
        return act

    def regular(self, path: Path, lost: Message) -> bool:
        """True for a regular file; reports a folder or device planted in its place (links: see walk)."""
        kind = kind_of(path)
        if kind in ("dir", "other") and path not in self.reported:
            self.add(path, "error", Message("doctor.not_regular"), Message("doctor.move_aside_lost", lost=lost),
                     self.mover(path), _LINKS)
        return kind == "file"

    # ------------------------------------------------------------------ the experience log
    # ------------------------------------------------------------------ state documents
    def state_files(self) -> None:
        home = self.home
        table: list[tuple[Path, str, Callable[[Home], object], Message]] = [
            (home.thresholds, "thresholds", state.read_thresholds, Message("doctor.lost.thresholds")),
            (home.system1_patterns, "system1-patterns", state.read_system1_patterns, Message("doctor.lost.system1")),
            (home.pattern_stats, "pattern-stats", state.read_pattern_stats, Message("doctor.lost.pattern_stats")),
            (home.learning_log, "learning-log", state.read_learning_log, Message("doctor.lost.history")),
            (home.transfer_log, "transfer-log", state.read_transfer_log, Message("doctor.lost.transfers")),
            (home.learner_state("evidence"), "learner-state", partial(read_learner_state, mode="evidence"),
             Message("doctor.lost.learner_state")),
            (home.pending_review, "pending-review", state.read_pending, Message("doctor.lost.pending_review")),
        ]
        for path, kind, reader, lost in table:
            self.document(path, kind, partial(reader, self.home), self.restore_hint(path, lost), lock=home.state_lock)

    def restore_hint(self, path: Path, lost: Message) -> Message:
        """What is lost without ``path``, and the snapshot that can bring it back (if any holds it)."""
        name = self.rel(path).replace("/", "__")
        folder = self.home.snapshots_dir
        rounds = sorted(p.name for p in folder.iterdir() if (p / name).is_file()) if kind_of(folder) == "dir" else []
        if rounds:
            return Message("doctor.lost_restore", lost=lost, round=rounds[-1])
        return Message("doctor.lost_no_copy", lost=lost)

    def document(self, path: Path, kind: str, read: Callable[[], Any], lost: Message, *, lock: Path | None = None,
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
                self.add(path, "error", Message("doctor.newer", version=version, known=CURRENT_VERSION[kind]),
                         Message("doctor.newer_fix"))
                return

            def still_bad() -> bool:
                try:
                    read()
                except CorruptFileError:
                    return True
                return False

            self.add(path, "error", exc.said_problem, Message("doctor.bad_copy_fix", lost=lost),
                     self.mover(path, lock or self.home.state_lock, still_bad), order)
            return
        self.add(path, "ok", Message("doctor.valid"))

    def archives(self) -> None:
        folder = self.home.archive_dir
        if kind_of(folder) != "dir":
            return
        for path in sorted(folder.glob("*.json")):
            if path.name in archive.MARKERS:
                continue
            self.document(path, "archive", partial(archive.read_path, path), Message("doctor.lost.archive"),
                          lock=self.home.experiences_lock)
        for name in archive.MARKERS:
            marker = folder / name
            if kind_of(marker) != "file":
                continue
            try:
                info = archive.read_marker(self.home, name)
            except CorruptFileError:
                self.add(marker, "error", Message("doctor.marker_unreadable"), Message("doctor.marker_unreadable_fix"),
                         self.mover(marker, self.home.experiences_lock), _AFTER_LOG)
                continue
            which = info["archive"] if info else "?"
            if name == archive.MOVE_MARKER:
                what, finish = Message("doctor.move_interrupted", archive=which), Message("doctor.move_finish")
            else:
                what, finish = Message("doctor.restore_interrupted", archive=which), Message("doctor.restore_finish")
            self.add(marker, "warning", what, finish, self.finish_move, _AFTER_LOG)

    def rollback_plan(self) -> None:
        path = self.home.snapshots_dir / rollback_journal.NAME
        if kind_of(path) != "file":
            return
        try:
            plan = rollback_journal.read(self.home)
        except CorruptFileError as exc:
            self.add(path, "error", exc.problem, Message("doctor.move_then_run", command="artibot rollback <round>"),
                     self.mover(path, self.home.learner_lock), _AFTER_LOG)
            return
        rounds = ", ".join(plan["rounds"]) if plan else "?"
        self.add(path, "warning", Message("doctor.rollback_interrupted", rounds=rounds), Message("doctor.rollback_finish"),
                 self.finish_rollback if self.recover_rollback is not None else None, _AFTER_LOG)

    def round_files_commit(self) -> None:
        """What an interrupted commit of a round's files left in ``.commit/``: finished (or its
        uncommitted files dropped) by the next ``learn``, ``rollback`` or ``review``, or here."""
        folder = round_commit.staging_dir(self.home)
        if kind_of(folder) != "dir" or not round_commit.leftovers(self.home):
            return
        try:
            journaled = round_commit.read_journal(self.home) is not None
        except CorruptFileError as exc:
            self.add(folder, "error", exc.problem, Message("doctor.commit_unreadable_fix", folder=round_commit.STAGING),
                     self.mover(folder, self.home.learner_lock), _AFTER_LOG)
            return
        if journaled:
            what, fix = Message("doctor.commit_unfinished"), Message("doctor.commit_finish")
        else:
            what, fix = Message("doctor.commit_interrupted"), Message("doctor.commit_drop")
        self.add(folder, "warning", what, fix, self.finish_round_commit, _AFTER_LOG)

    def finish_round_commit(self) -> None:
        with FileLock(self.home.learner_lock, timeout=LOCK_WAIT_S, holder="another artibot learner"):
            round_commit.recover(self.home)

    def finish_rollback(self) -> None:
        assert self.recover_rollback is not None  # the action is offered only with it
        with FileLock(self.home.learner_lock, timeout=LOCK_WAIT_S, holder="another artibot learner"):
            self.recover_rollback(self.home)

    def finish_move(self) -> None:
        log = ExperienceLog(self.home, lock_timeout=LOCK_WAIT_S)
        with log._exclusive():  # taking the log's lock finishes an interrupted move
            pass

    def snapshots(self) -> None:
        folder = self.home.snapshots_dir
        if kind_of(folder) != "dir":
            return
        for snap in sorted(p for p in folder.iterdir() if kind_of(p) == "dir"):
            if kind_of(snap / "manifest.json") is None:
                self.add(snap, "warning", Message("doctor.no_manifest"), Message("doctor.no_manifest_fix"))
            for path in sorted(snap.rglob("*.json")):
                kind = _SNAPSHOT_KINDS.get(path.name)
                self.document(path, kind or "snapshot", partial(self.parse, path, kind),
                              Message("doctor.lost.snapshot", round=snap.name))

    @staticmethod
    def parse(path: Path, kind: str | None) -> None:
        data = read_bytes(path) or b""
        if kind is not None:
            parse_document(data, path, kind)
            return
        try:
            orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise CorruptFileError(path, Message("json.invalid", reason=str(exc))) from None

    def spools(self, folder: Path, kind: str, lost: Message) -> None:
        if kind_of(folder) != "dir":
            return
        for path in sorted(folder.glob("*.json")):
            if kind == "session" and path.name in names.HOOK_CACHES:
                continue  # rebuilt by the hooks whenever it does not parse (see names.HOOK_CACHES)
            hidden = path.name.startswith(".")  # sessions/.learner-stamp.json
            self.document(path, kind, partial(self.parse, path, kind),
                          Message("doctor.lost.learner_stamp") if hidden else lost,
                          lock=folder / f".{path.stem}.lock" if kind == "session" and not hidden else None)

    # ------------------------------------------------------------------ config and quarantine
    def config(self) -> None:
        path = self.home.config_file
        if not path.is_file():  # a link is fine here: see walk
            return
        try:
            load_config_file(path)
        except ConfigError as exc:
            self.add(path, "error", Message("doctor.problems", problems=exc.said_problems), Message("doctor.config_fix"))
            return
        self.add(path, "ok", Message("doctor.config_valid"))

    def quarantine_summary(self) -> None:
        folder = self.home.quarantine_dir
        if kind_of(folder) == "dir":
            count = sum(1 for _ in folder.iterdir())
            if count:
                self.add(folder, "ok", Message("doctor.kept_aside", n=count), Message("doctor.kept_aside_fix"))
