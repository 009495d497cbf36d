"""``doctor``'s checks of the experience log: classify it (``log_scan``), check its records,
and the two repairs, cutting a torn tail and salvaging a log damaged in the middle.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from artibot.errors import LockTimeout, ValidationError
from artibot.experience import validate
from artibot.store.experiences import ExperienceLog, render
from artibot.store.fs import FileLock, atomic_write_bytes, ensure_dir, read_bytes
from artibot.store.home import Home
from artibot.store.log_scan import scan_log
from artibot.store.quarantine import kind_of, stamp

LOCK_WAIT_S = 10.0


class LogChecks:
    """The experience-log part of ``doctor``'s examination, which mixes it in and provides
    these three: the home, ``add`` (a finding and its repair) and ``regular``."""

    home: Home
    add: Callable[..., None]
    regular: Callable[[Path, str], bool]

    def experience_log(self) -> None:
        path = self.home.experiences
        if not self.regular(path, "a fresh log starts with the next experience"):
            return
        lock_path = self.home.experiences_lock
        lock = FileLock(lock_path, shared=True, timeout=LOCK_WAIT_S) if kind_of(lock_path) == "file" else None
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
                     "this by itself); only the interrupted append is lost", self.cut_tail)
        elif scan.state == "layout":
            self.add(path, "warning", "is a valid JSON array but not one record per line as artibot writes it, so "
                     "an interrupted append could not be cut off cleanly",
                     f"rewrite its {len(scan.records)} records in artibot's layout; the original goes to quarantine/",
                     self.salvage)
        else:
            self.add(path, "error", f"is damaged in the middle ({scan.detail}), so it cannot be read",
                     f"keep every complete record line ({len(scan.records)} records) in a fresh log and move the "
                     "damaged copy to quarantine/ (records on damaged lines stay only there)",
                     self.salvage)

    @staticmethod
    def journal(path: Path, lock_path: Path) -> int | None:
        """The offset journalled by the last append, if it applies to the current file."""
        if kind_of(lock_path) != "file":
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
        with FileLock(self.home.experiences_lock, timeout=LOCK_WAIT_S):
            data = read_bytes(path)
            if data is None:
                return None
            scan = scan_log(data, self.journal(path, self.home.experiences_lock))
            if scan.state in ("ok", "torn"):
                return None  # someone repaired or rewrote it meanwhile
            qdir = ensure_dir(self.home.quarantine_dir)
            kept = qdir / f"daily-experiences.json.{stamp()}.{time.time_ns() % 10**9}.damaged"
            try:
                os.link(path, kept)
            except OSError:
                atomic_write_bytes(kept, data)
            atomic_write_bytes(path, render(scan.records))
            return kept

