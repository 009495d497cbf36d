"""A real PostgreSQL server for the tests and the benchmark: initdb + pg_ctl in a temp folder.

The server listens on a Unix socket in its own folder and on a free loopback port (where
TLS settings apply), with trust authentication: it is reachable from this machine only. As root
(initdb refuses to run as root), the server runs as the ``postgres`` user, else ``nobody``.
The binaries come from ``$ARTIBOT_PG_BIN``, else the newest ``/usr/lib/postgresql/*/bin``,
else ``initdb`` on PATH; :func:`find_bin` returns None when there is none (the tests skip).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path


def find_bin() -> Path | None:
    candidates = [os.environ.get("ARTIBOT_PG_BIN", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
                         if Path(p).parent.name.isdigit() else 0, reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, root: Path, bin_dir: Path):
        self.root, self.bin = root, bin_dir
        self.data, self.sock = root / "data", root / "sock"
        self.user = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    pwd.getpwnam(name)
                except KeyError:
                    continue
                self.user = name
                break

    def _run(self, *args: str) -> None:
        cmd = [str(a) for a in args]
        if self.user:
            entry = pwd.getpwnam(self.user)
            cmd = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", *cmd]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd="/", text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")

    def start(self) -> "Server":
        self.sock.mkdir(parents=True)
        self.data.mkdir()
        if self.user:
            entry = pwd.getpwnam(self.user)
            for p in (self.root, self.data, self.sock):
                os.chown(p, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o755)
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--locale=C")
        self.port = _free_port()  # loopback TCP too: TLS settings only apply there, not on a socket
        opts = (f"-k {self.sock} -c listen_addresses=127.0.0.1 -p {self.port} -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off -c max_connections=60 -c shared_buffers=64MB")
        self._run(self.bin / "pg_ctl", "-D", self.data, "-o", opts, "-l", self.root / "log", "-w", "start")
        return self

    def url(self, dbname: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@/{dbname}?host={self.sock}&port={self.port}"

    def tcp_url(self, dbname: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        try:
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        except RuntimeError:
            pass  # already gone (a test stopped it)
