from __future__ import annotations

import io
import sys
from dataclasses import dataclass

import orjson
import pytest

from artibot.cli.app import run


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self):
        return orjson.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """Run the real CLI in-process: ``cli("status", "--json", stdin=b"...")``."""

    def invoke(*argv: str, stdin: bytes | str = b"") -> Result:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        capsys.readouterr()
        code = run(list(argv))
        cap = capsys.readouterr()
        return Result(code, cap.out, cap.err)

    return invoke
