"""artibot.store.hookcode: the code a hook imported, kept for the next hook of its kind.

In-process tests of the finder and of what is kept; the hook processes that use it are
in ``tests/integrations/test_hook_e2e.py`` (which modules a warm hook reads from files).
"""

from __future__ import annotations

import marshal
import os
import sys
import types
from pathlib import Path

import pytest

from artibot.store import hookcode

KIND = "claude-code.user-prompt-submit"
SMALL = ("artibot.regex", "artibot.names")
"""Two modules this test process has imported: what a finder 'saw imported' in these tests."""


def _kept(root: Path, kind: str = KIND) -> tuple[object, dict]:
    return marshal.loads((root / "sessions" / f".hook-code.{kind}.marshal").read_bytes())


def _finder_that_saw(names: tuple[str, ...], table: dict | None = None) -> hookcode.CodeFinder:
    """A finder as if ``names`` had been imported after it was installed."""
    for name in names:
        __import__(name)
    finder = hookcode.CodeFinder(table or {})
    finder.before = set(sys.modules) - set(names)
    sys.meta_path.insert(0, finder)
    return finder


@pytest.mark.parametrize("kind, ok", [("claude-code.stop", True), ("gemini-cli.BeforeAgent", True),
                                      ("claude-code.../x", False), ("a/b.c", False), ("x.", False), ("", False)])
def test_only_plain_kinds_name_a_file(kind: str, ok: bool) -> None:
    assert (hookcode.file_name(kind) is not None) is ok


def test_the_code_of_the_modules_imported_is_kept_with_their_stamps(artibot_home: Path) -> None:
    hookcode.keep(str(artibot_home), KIND, _finder_that_saw(SMALL))
    key, table = _kept(artibot_home)
    assert key == hookcode._key() and sorted(table) == sorted(SMALL)
    origin, mtime_ns, size, package, code = table["artibot.regex"]
    assert origin == sys.modules["artibot.regex"].__file__ and not package
    assert (mtime_ns, size) == (os.stat(origin).st_mtime_ns, os.stat(origin).st_size)
    assert "escape" in marshal.loads(code).co_names
    assert all(not isinstance(f, hookcode.CodeFinder) for f in sys.meta_path)  # keep took it off


def test_a_kept_module_is_served_while_its_source_is_unchanged(artibot_home: Path) -> None:
    hookcode.keep(str(artibot_home), KIND, _finder_that_saw(SMALL))
    finder = hookcode.install(str(artibot_home), KIND)
    assert finder is not None and sys.meta_path[0] is finder
    try:
        spec = finder.find_spec("artibot.regex")
        assert spec is not None and spec.loader is finder and spec.origin == sys.modules["artibot.regex"].__file__
        module = types.ModuleType("artibot.regex")
        finder.exec_module(module)
        assert module.escape("a.b") == "a\\.b" and finder.served == {"artibot.regex"}
        assert finder.find_spec("json") is None and not finder.missed  # not artibot's: not its business
        assert finder.find_spec("artibot.cycle") is None and finder.missed  # not kept: imported from its file
    finally:
        hookcode.keep(str(artibot_home), KIND, finder)


def test_a_changed_source_is_imported_from_its_file_and_kept_again(artibot_home: Path) -> None:
    hookcode.keep(str(artibot_home), KIND, _finder_that_saw(SMALL))
    key, table = _kept(artibot_home)
    origin, mtime_ns, size, package, code = table["artibot.regex"]
    table["artibot.regex"] = (origin, mtime_ns - 1, size, package, code)
    (artibot_home / "sessions" / f".hook-code.{KIND}.marshal").write_bytes(marshal.dumps((key, table)))
    finder = hookcode.install(str(artibot_home), KIND)
    assert finder is not None
    assert finder.find_spec("artibot.regex") is None and finder.missed
    finder.before -= set(SMALL)  # as if both had been imported by this hook
    hookcode.keep(str(artibot_home), KIND, finder)
    assert _kept(artibot_home)[1]["artibot.regex"][1] == mtime_ns


def test_what_other_runs_of_the_kind_needed_stays_kept(artibot_home: Path) -> None:
    """A Stop that reads the transcript and one that does not must not take turns rewriting the file."""
    hookcode.keep(str(artibot_home), KIND, _finder_that_saw(SMALL))
    finder = hookcode.install(str(artibot_home), KIND)
    assert finder is not None
    import artibot.frozen  # noqa: F401

    finder.before -= {"artibot.frozen"}  # this run imported another module, not the two kept
    finder.missed = True
    hookcode.keep(str(artibot_home), KIND, finder)
    assert sorted(_kept(artibot_home)[1]) == sorted((*SMALL, "artibot.frozen"))


@pytest.mark.parametrize("data", [b"garbage", marshal.dumps(("another interpreter", {"artibot.regex": ()})),
                                  marshal.dumps([1, 2, 3])])
def test_a_file_that_does_not_load_or_is_anothers_is_ignored(artibot_home: Path, data: bytes) -> None:
    (artibot_home / "sessions").mkdir(parents=True)
    (artibot_home / "sessions" / f".hook-code.{KIND}.marshal").write_bytes(data)
    finder = hookcode.install(str(artibot_home), KIND)
    assert finder is not None and finder.table == {}
    assert finder.find_spec("artibot.regex") is None
    finder.before -= set(SMALL)
    hookcode.keep(str(artibot_home), KIND, finder)
    assert sorted(_kept(artibot_home)[1]) == sorted(SMALL)  # written anew


def test_a_hook_on_a_rare_path_does_not_replace_the_file(artibot_home: Path) -> None:
    """More than MAX_MODULES artibot modules (this test process has them all): nothing written."""
    import artibot.cli.app  # noqa: F401 - many modules

    finder = hookcode.CodeFinder({})
    finder.before = set()
    sys.meta_path.insert(0, finder)
    hookcode.keep(str(artibot_home), KIND, finder)
    assert not (artibot_home / "sessions" / f".hook-code.{KIND}.marshal").exists()
    assert finder not in sys.meta_path


def test_a_hook_run_in_process_leaves_the_collector_as_it_found_it(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``main(["hook", …])`` switches the cyclic collector off for the hook only; the launcher's
    ``hook_process`` leaves it off and freezes what is alive, for the process's exit."""
    import gc

    from artibot import __main__ as entry

    monkeypatch.setattr(sys, "stdin", None)  # no payload: the hook logs it and returns
    assert gc.isenabled()
    assert entry.main(["hook", "stop"]) == 0
    assert gc.isenabled()
    monkeypatch.setattr(sys, "argv", ["-c", "hook", "stop"])
    try:
        assert entry.hook_process() == 0
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
