"""artibot.regex: patterns built from kept programs are the patterns ``re`` compiles, and a
process that has the programs routes and anonymizes exactly as one that compiles them."""

from __future__ import annotations

import marshal
import re
import subprocess
import sys
from pathlib import Path

import pytest

from artibot.hookpath import regex

DATA = Path(__file__).parent / "data" / "privacy"
TEST_POSITIVE = Path(__file__).parent / "test_privacy.py"

# Runs in a new process: anonymizes and routes every corpus line, prints what it got, the
# programs it ends with, whether ``re`` was imported and how many patterns it compiled.
WORKER = r"""
import marshal, sys  # not json: it imports re
from artibot.hookpath import regex
programs = sys.argv[1]
if programs != "-":
    regex.preload(*marshal.loads(open(programs, "rb").read()))
from artibot.hookpath.privacy import anonymize
from artibot.hookpath.router.policy import RoutingPolicy
from artibot.hookpath.router.domains import DomainTable
from artibot.hookpath.turns import followup
texts = marshal.loads(sys.stdin.buffer.read())
policy = RoutingPolicy(0.4, {}, frozenset(), DomainTable({"backend": ("api", "server"), "docs": ("readme",)}))
out = []
for text in texts:
    clean = anonymize(text)
    d = policy.decide(clean)
    out.append((clean, d.system, d.domain, d.pattern, d.complexity, followup.judge(text)))
sys.stdout.buffer.write(marshal.dumps({"out": out, "re": "re" in sys.modules, "compiled": regex.compiled_here()}))
sys.stdout.flush()
if programs == "-":
    from artibot.hookpath.privacy import rules
    rules.compile_all()  # what the prompt hook keeps: every rule, not only those the corpus needed
    sys.stderr.buffer.write(marshal.dumps((regex.RUNTIME, regex.programs())))
"""


def _corpus() -> list[str]:
    texts = []
    for line in (DATA / "secrets.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            texts.append(line.split("\t")[2])
    for name in ("negative.txt", "harmless.txt"):
        texts += [line for line in (DATA / name).read_text(encoding="utf-8").splitlines()
                  if line and not line.startswith("#")]
    texts += ["migrate the user service from REST to gRPC, then add integration tests",
              "- first\n- second\n1. third --think", "no, that's wrong: the title is in docs/index.md"]
    return texts


def _worker(texts: list[str], programs: str) -> tuple[dict, bytes]:
    proc = subprocess.run([sys.executable, "-c", WORKER, programs], input=marshal.dumps(texts),
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return marshal.loads(proc.stdout), proc.stderr


def test_a_process_with_the_programs_compiles_nothing_and_gets_the_same_results(tmp_path: Path) -> None:
    texts = _corpus()
    compiled, programs = _worker(texts, "-")
    assert compiled["re"] and compiled["compiled"] > 20  # the first process compiles them
    (tmp_path / "programs").write_bytes(programs)
    kept, _ = _worker(texts, str(tmp_path / "programs"))
    assert kept["out"] == compiled["out"]
    assert kept["compiled"] == 0
    assert kept["re"] is False  # neither re nor its enum, functools and collections were loaded


def test_every_kept_program_builds_the_pattern_re_compiles() -> None:
    texts = _corpus()
    _, programs = _worker(texts, "-")
    runtime, table = marshal.loads(programs)
    assert runtime == regex.RUNTIME and len(table) > 130
    import _sre

    for (source, flags), program in table.items():
        assert _sre.compile(source, *program) == re.compile(source, flags), source


@pytest.fixture()
def clean_table():
    regex.reset()
    yield
    regex.reset()


def test_compile_falls_back_to_re_and_keeps_the_program(clean_table: None) -> None:
    pattern = regex.compile(r"(?P<key>[a-z]+)=(\d+)", regex.IGNORECASE)
    assert pattern == re.compile(r"(?P<key>[a-z]+)=(\d+)", re.IGNORECASE)
    assert regex.compiled_here() == 1
    runtime, programs = marshal.loads(marshal.dumps((regex.RUNTIME, regex.programs())))
    regex.reset()
    assert regex.preload(runtime, programs) == 1
    again = regex.compile(r"(?P<key>[a-z]+)=(\d+)", regex.IGNORECASE)
    assert again == pattern and regex.compiled_here() == 0
    assert again.match("Port=80").group("key", 2) == ("Port", "80")


def test_programs_of_another_interpreter_or_shape_are_not_loaded(clean_table: None) -> None:
    regex.compile("a+b")
    runtime, programs = regex.RUNTIME, regex.programs()
    regex.reset()
    assert regex.preload("3.0.0|0|4", programs) == 0
    assert regex.preload(runtime, [("a+b", 0)]) == 0
    assert regex.preload(runtime, {("a+b", 0): (0, [1, 2])}) == 0
    assert regex.compile("a+b").pattern == "a+b" and regex.compiled_here() == 1


def test_a_program_that_does_not_validate_is_compiled_again(clean_table: None) -> None:
    flags, code, groups, groupindex, indexgroup = (32, [1, 2, 3], 0, {}, (None,))
    regex.preload(regex.RUNTIME, {("x+", 0): (flags, code, groups, groupindex, indexgroup)})
    assert regex.compile("x+") == re.compile("x+")
    assert regex.compiled_here() == 1


def test_programs_kept_as_marshal_bytes_are_decoded_when_their_pattern_is_built(clean_table: None) -> None:
    """As the prompt hook keeps them (``routecache.keep_patterns``): one marshal blob a program."""
    sources = [r"(?P<key>[a-z]+)=(\d+)", "a+b", "x*y"]
    for source in sources:
        regex.compile(source)
    kept = {key: marshal.dumps(program) for key, program in regex.programs().items()}
    regex.reset()
    assert regex.preload(regex.RUNTIME, kept) == 3
    assert regex.compile("a+b") == re.compile("a+b") and regex.compiled_here() == 0
    assert regex.programs() == {key: marshal.loads(data) for key, data in kept.items()}
    assert regex.compile(sources[0]).match("port=80").group("key") == "port"


@pytest.mark.parametrize("data", [b"", b"not marshal", marshal.dumps((1, 2)), marshal.dumps([0, [1], 0, {}, ()])])
def test_a_kept_program_that_does_not_decode_is_compiled_again(clean_table: None, data: bytes) -> None:
    assert regex.preload(regex.RUNTIME, {("x+", 0): data}) == 1
    assert regex.programs() == {}
    assert regex.compile("x+") == re.compile("x+")
    assert regex.compiled_here() == 1


def test_escape_is_re_escape() -> None:
    text = "".join(map(chr, range(128))) + "é한\u2028"
    assert regex.escape(text) == re.escape(text)
