"""A power cut (or a kill) at any instant of an ``artibot`` command, rebuilt under persistence models.

:func:`trace` runs a command in a forked child (``tests/store/forked.py``) whose ``os``
mutation functions (the ones listed in ``forked.MUTATIONS``: writes, renames, unlinks,
truncations, ``fsync``/``fdatasync``, ``mkdir`` …) first record a snapshot of the whole
data home (each file's inode, mtime and bytes, each folder) and, for a sync, which file
or folder it syncs. Each recorded mutation is a crash point: the power goes just after
it (or before the first one). For each crash point a model says which disk states the
machine can come back to:

* ``posix`` (strict POSIX): only what was synced survives. A file's bytes are the ones
  its last ``fsync``/``fdatasync`` saw (empty if it was never synced); a name created,
  renamed or removed counts only once its folder was synced. One state per crash point.
* ``ext4`` (ext4 ``data=ordered``, the Linux default): metadata changes (creates,
  renames, removes, sizes) reach the disk in order, a prefix at a time, and each sync
  commits every change before it; a change committed carries the data written before it
  (what ``data=ordered`` and ``auto_da_alloc`` give a rename over an existing file). Data
  written after the last commit may land torn, page by page (4 KiB), including the pages
  of an unsynced append. An ``fdatasync`` that changes no size writes that file's data
  only (no journal commit). States: every commit point between the last sync and the crash,
  each with nothing, everything and a seeded random set of the later pages landed.
* ``kill``: no power cut, the process dies (``kill -9``): the disk is what it wrote.
* ``random`` (seeded): every unsynced change lands or not on its own, in any order:
  each name is the synced one or the one of a random later instant, each file's bytes
  the synced ones torn page by page with a random later version. Weaker than any real
  file system; turns only a hook's unsynced spool held may be lost under it, never a
  record whose append was synced.

:func:`materialize` writes a state back into the home's folder (same path, so paths in
files stay right) with its mtimes, and maps the inode numbers the log's append journal
and the id index name to the rebuilt files' inodes (a rebuilt file cannot keep its
number). The machine is a new boot after a power cut: callers point
``id_index.BOOT_ID`` at a file and change it.

Files are told apart across snapshots by inode number: run on tmpfs (``/dev/shm``), whose
numbers only grow, so that a freed number is not taken by a later file of the same run.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from tests.store.forked import MUTATIONS, run_child

PAGE = 4096
SYNCS = ("fsync", "fdatasync")
MODELS = ("posix", "ext4", "random")
"""The power-cut models; ``kill`` (the process dies, the page cache stays) is the fourth."""


@dataclass(frozen=True)
class Snap:
    """The home at one instant: files ``rel -> (inode, mtime_ns, bytes)`` and folders."""

    files: dict[str, tuple[int, int, bytes]]
    dirs: frozenset[str]

    def content(self, ino: int) -> bytes | None:
        for i, _, data in self.files.values():
            if i == ino:
                return data
        return None


@dataclass(frozen=True)
class Op:
    name: str
    before: Snap
    synced: tuple[str, int] | None = None  # ("file", inode) or ("dir", rel path) for a sync


@dataclass
class Trace:
    root: Path
    base: Snap
    ops: list[Op]
    final: Snap
    exit_code: int

    def after(self, i: int) -> Snap:
        """The home just after mutation ``i`` (1-based; 0: before the first)."""
        return self.ops[i].before if i < len(self.ops) else self.final


@dataclass
class State:
    """One disk state after a power cut: files ``rel -> (mtime_ns, bytes)``, folders, and the
    inode each file had in the trace (for remapping the inode numbers files mention)."""

    files: dict[str, tuple[int, bytes]]
    dirs: set[str]
    inodes: dict[str, int] = field(default_factory=dict)
    label: str = ""


def snapshot(root: Path) -> Snap:
    files: dict[str, tuple[int, int, bytes]] = {}
    dirs: set[str] = set()
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = list(os.scandir(root / rel if rel else root))
        except FileNotFoundError:
            continue
        for entry in entries:
            name = f"{rel}/{entry.name}" if rel else entry.name
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                dirs.add(name)
                stack.append(name)
            elif stat.S_ISREG(st.st_mode):
                with open(entry.path, "rb") as fh:
                    files[name] = (st.st_ino, st.st_mtime_ns, fh.read())
    return Snap(files, frozenset(dirs))


def _tracer(root: Path, out: Path):
    """An ``inject`` for :func:`run_child`: records each mutation with the home before it."""

    def inject() -> None:
        real_write, real_fstat = os.write, os.fstat
        sink = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)

        def wrap(name: str) -> None:
            real = getattr(os, name)

            def traced(*args, **kwargs):
                synced = None
                if name in SYNCS:
                    st = real_fstat(args[0])
                    if stat.S_ISDIR(st.st_mode):
                        where = Path(os.readlink(f"/proc/self/fd/{args[0]}"))
                        synced = ("dir", "" if where == root else str(where.relative_to(root)))
                    else:
                        synced = ("file", st.st_ino)
                data = pickle.dumps(Op(name, snapshot(root), synced))
                real_write(sink, len(data).to_bytes(8, "little") + data)
                return real(*args, **kwargs)

            setattr(os, name, traced)

        for name in MUTATIONS:
            wrap(name)

    return inject


def trace(root: Path, argv: list[str], *, stdin: bytes = b"", scratch: Path) -> Trace:
    """Run ``artibot argv`` on the home ``root`` (``ARTIBOT_HOME`` must point there) and record
    every mutation it makes."""
    out = scratch / "trace.bin"
    base = snapshot(root)
    code = run_child(argv, stdin=stdin, inject=_tracer(root, out))
    ops: list[Op] = []
    data = out.read_bytes()
    at = 0
    while at < len(data):
        n = int.from_bytes(data[at:at + 8], "little")
        ops.append(pickle.loads(data[at + 8:at + 8 + n]))
        at += 8 + n
    out.unlink()
    return Trace(root, base, ops, snapshot(root), code)


# --------------------------------------------------------------------- the models
def _parent(rel: str) -> str:
    return rel.rpartition("/")[0]


def _posix(tr: Trace, crash: int) -> State:
    names = {rel: ino for rel, (ino, _, _) in tr.base.files.items()}
    mtimes = {ino: m for ino, m, _ in tr.base.files.values()}
    data = {ino: d for ino, _, d in tr.base.files.values()}
    dirs = set(tr.base.dirs)
    for op in tr.ops[:crash]:
        if op.synced is None:
            continue
        kind, what = op.synced
        if kind == "file":
            for ino, m, d in op.before.files.values():
                if ino == what:
                    data[ino], mtimes[ino] = d, m
        else:  # the folder's entries as they are now
            names = {r: i for r, i in names.items() if _parent(r) != what}
            names.update((r, i) for r, (i, _, _) in op.before.files.items() if _parent(r) == what)
            dirs = {d for d in dirs if _parent(d) != what} | {d for d in op.before.dirs if _parent(d) == what}
    return _reachable(State({r: (mtimes.get(i, 0), data.get(i, b"")) for r, i in names.items()}, dirs,
                            dict(names), f"posix@{crash}"))


def _reachable(state: State) -> State:
    """Drop what hangs under a folder that did not survive."""
    def alive(rel: str) -> bool:
        up = _parent(rel)
        while up:
            if up not in state.dirs:
                return False
            up = _parent(up)
        return True

    state.dirs = {d for d in state.dirs if alive(d)}
    state.files = {r: v for r, v in state.files.items() if alive(r)}
    state.inodes = {r: i for r, i in state.inodes.items() if r in state.files}
    return state


def _torn(old: bytes, new: bytes, rng: random.Random | None, every: bool) -> bytes:
    """``new`` written over ``old`` and only some pages landed: all (``every``), none
    (``rng`` None and not ``every``), or a random set; a page that did not land keeps the old
    bytes, or zeros past the old end (the file grew, the data did not come)."""
    if every:
        return new
    if rng is None:
        return old
    size = len(new) if rng.random() < 0.5 or len(new) < len(old) else len(old)
    out = bytearray(old[:size].ljust(size, b"\0"))
    for start in range(0, size, PAGE):
        if rng.random() < 0.5:
            out[start:start + PAGE] = new[start:start + PAGE].ljust(min(PAGE, size - start), b"\0")
    return bytes(out[:size])


def _size(snap: Snap, ino: int) -> int | None:
    data = snap.content(ino)
    return None if data is None else len(data)


def _ext4(tr: Trace, crash: int, rng: random.Random) -> Iterator[State]:
    # A sync commits the journal (every metadata change before it) unless it is an
    # ``fdatasync`` that changes no size: that one writes the file's data only.
    barrier: int | None = None
    data_synced: dict[int, tuple[int, bytes]] = {}  # inode -> (op index, bytes) of a data-only sync
    for i, op in enumerate(tr.ops[:crash]):
        if op.synced is None:
            continue
        kind, what = op.synced
        committed = tr.base if barrier is None else tr.ops[barrier].before
        if kind == "file" and op.name == "fdatasync" and _size(op.before, what) == _size(committed, what):
            data_synced[what] = (i, op.before.content(what) or b"")  # type: ignore[index]
        else:
            barrier = i  # ops[i].before is what this sync committed
    snaps = [(-1, tr.base)] if barrier is None else []
    snaps += [(i, tr.ops[i].before) for i in range(barrier or 0, crash)] + [(crash, tr.after(crash))]
    last = tr.after(crash)
    for t, committed in snaps:
        for variant in ("none", "all", "some"):
            files: dict[str, tuple[int, bytes]] = {}
            for rel, (ino, m, d) in committed.files.items():
                at, synced = data_synced.get(ino, (-2, b""))
                if at >= t:  # its data was synced after this commit point: on disk whatever else is
                    d = synced
                now = last.content(ino)
                if now is None or now == d:
                    files[rel] = (m, d)
                else:
                    files[rel] = (m, _torn(d, now, rng if variant == "some" else None, variant == "all"))
            yield State(files, set(committed.dirs), {r: v[0] for r, v in committed.files.items()},
                        f"ext4@{crash}/commit{t}/{variant}")


def _kill(tr: Trace, crash: int) -> State:
    after = tr.after(crash)
    return State({r: (m, d) for r, (_, m, d) in after.files.items()}, set(after.dirs),
                 {r: i for r, (i, _, _) in after.files.items()}, f"kill@{crash}")


def _random(tr: Trace, crash: int, rng: random.Random) -> State:
    strict = _posix(tr, crash)
    later = [tr.ops[i].before for i in range(crash)] + [tr.after(crash)]
    dir_synced: dict[str, int] = {}  # folder -> index in ``later`` of its last sync
    file_synced: dict[int, int] = {}  # inode -> the same
    for i, op in enumerate(tr.ops[:crash]):
        if op.synced is not None:
            (dir_synced if op.synced[0] == "dir" else file_synced)[op.synced[1]] = i  # type: ignore[index]
    files, inodes, dirs = dict(strict.files), dict(strict.inodes), set(strict.dirs)
    for rel in sorted(set().union(*(s.files for s in later)) | set(files)):
        if rng.random() < 0.5:
            continue  # the name as the last sync of its folder left it
        pick = rng.randrange(dir_synced.get(_parent(rel), 0), len(later))
        if rel not in later[pick].files:
            files.pop(rel, None)
            inodes.pop(rel, None)
            continue
        ino, m, d = later[pick].files[rel]
        synced = file_synced.get(ino)
        version = later[rng.randrange(max(pick, synced or 0), len(later))].content(ino)
        old = later[synced].content(ino) if synced is not None else tr.base.content(ino)
        files[rel] = (m, _torn(old or b"", version if version is not None else d, rng, rng.random() < 0.5))
        inodes[rel] = ino
        dirs |= {p for p in later[pick].dirs if rel.startswith(p + "/")}
    for d in sorted(set().union(*(s.dirs for s in later))):
        if rng.random() < 0.5:
            dirs.add(d)
    return _reachable(State(files, dirs, inodes, f"random@{crash}"))


def states(tr: Trace, model: str, *, seed: int = 0, sample: int | None = None) -> list[State]:
    """Every disk state ``model`` allows after a power cut during ``tr`` (for ``random``, one
    per crash point), or ``sample`` of them chosen with ``seed``."""
    rng = random.Random(seed)
    out: list[State] = []
    for crash in range(len(tr.ops) + 1):
        if model == "kill":
            out.append(_kill(tr, crash))
        elif model == "posix":
            out.append(_posix(tr, crash))
        elif model == "ext4":
            out.extend(_ext4(tr, crash, rng))
        else:
            out.append(_random(tr, crash, rng))
    if sample is not None and len(out) > sample:
        out = random.Random(seed).sample(out, sample)
    return out


# --------------------------------------------------------------------- back onto a disk
def _remap(data: bytes, field_at: int, inodes: dict[int, int]) -> bytes:
    """The 64-byte header ``data`` starts with, its ``field_at``-th word (an inode) mapped."""
    words = data[:64].split()
    if len(words) > field_at and words[field_at].isdigit() and int(words[field_at]) in inodes:
        words[field_at] = str(inodes[int(words[field_at])]).encode()
        return b" ".join(words).ljust(64)[:64] + data[64:]
    return data


JOURNAL = ".daily-experiences.lock"  # "<offset> <inode> <end>"
INDEX = ".daily-experiences.ids"  # "<inode> <size> <boot>"


def materialize(state: State, root: Path) -> None:
    """Replace the folder ``root`` with ``state``."""
    if root.exists():
        shutil.rmtree(root)  # an error here is a test bug (something still writing): say so
    root.mkdir(mode=0o700, parents=True)
    for d in sorted(state.dirs):
        (root / d).mkdir(mode=0o700, exist_ok=True)
    for rel, (_, data) in state.files.items():
        (root / rel).write_bytes(data)
        (root / rel).chmod(0o600)
    new = {state.inodes[rel]: (root / rel).stat().st_ino for rel in state.files if rel in state.inodes}
    for rel, at in ((JOURNAL, 1), (INDEX, 0)):
        if rel in state.files:
            path = root / rel
            path.write_bytes(_remap(path.read_bytes(), at, new))
    for rel, (mtime, _) in state.files.items():
        if mtime:
            os.utime(root / rel, ns=(mtime, mtime))
