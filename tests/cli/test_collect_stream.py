"""``collect --stdin`` of JSON lines: a batch at a time, still all or nothing."""

from __future__ import annotations

import io
import sys

import orjson
import pytest

from artibot import collector
from artibot.cli.app import run
from artibot.store.home import Home
from artibot.store.log.experiences import ExperienceLog
from tests.factories import record


class Pipe(io.RawIOBase):
    """A pipe's stdin: read once, no seeking."""

    def __init__(self, data: bytes):
        self.inner = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def]
        chunk = self.inner.read(len(b))
        b[:len(chunk)] = chunk
        return len(chunk)


def lines(n: int, **extra: object) -> bytes:
    return b"".join(orjson.dumps(record(i, id=f"s{i:05d}", **extra)) + b"\n" for i in range(n))


@pytest.mark.parametrize("pipe", [False, True])
def test_json_lines_are_stored_a_batch_at_a_time_all_or_nothing(artibot_home, monkeypatch, capsys, pipe) -> None:
    monkeypatch.setattr(collector, "STREAM_BATCH", 7)
    batches: list[int] = []
    real = ExperienceLog.append
    monkeypatch.setattr(ExperienceLog, "append", lambda self, recs, **kw: batches.append(len(recs))
                        or real(self, recs, **kw))

    def feed(data: bytes) -> int:
        raw = Pipe(data) if pipe else io.BytesIO(data)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(raw) if pipe else raw))
        return run(["collect", "--stdin"])

    assert feed(lines(30)) == 0
    assert batches == [7, 7, 7, 7, 2] and "30" in capsys.readouterr().out
    assert len(ExperienceLog(Home(artibot_home)).read()) == 30
    bad = lines(20).replace(b"s00012", b"x00012") + b'{"input": "x", "domain": "", "complexity": 5}\n'
    batches.clear()
    assert feed(bad.replace(b"s000", b"t000")) == 2  # a bad last line: nothing of it is written
    assert batches == [] and "line 21" in capsys.readouterr().err
    assert feed(lines(20).replace(b"s0001", b"u0001")) == 2  # ids s00000..s00009 are stored already
    assert batches == [] and "already stored" in capsys.readouterr().err
    assert feed(b"not json\n" + lines(3)) == 2
    assert len(ExperienceLog(Home(artibot_home)).read()) == 30
