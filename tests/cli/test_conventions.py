"""The CLI behaves like the tools people already use: git, gh, uv, ruff, llm."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from artibot import learn
from artibot.collector import collect_many
from tests.factories import mixed


def test_config_show_lists_the_files_and_the_effective_values(cli, artibot_home: Path) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"learning": {"lifelong": {"batchSize": 20}}}')
    out = cli("config", "show").out
    assert f"{artibot_home / 'artibot.config.json'}  (the data home: in use)" in out
    assert '"batchSize": 20' in out and '"grpoGroupSize": 5' in out  # merged over the defaults
    doc = cli("config", "show", "--json").json()
    assert doc["file"] == str(artibot_home / "artibot.config.json")
    assert [f["used"] for f in doc["files"]] == [False, True]
    assert cli("config", "path").out.strip() == str(artibot_home / "artibot.config.json")
    assert cli("config", "nonsense").code == 2


def test_an_unknown_top_level_key_is_a_warning(cli, artibot_home: Path, caplog) -> None:
    artibot_home.mkdir(parents=True)
    (artibot_home / "artibot.config.json").write_text('{"$schema": "x", "lnag": "ko"}')
    shown = cli("config", "show")
    assert shown.code == 0 and "# warning: lnag is not a key artibot reads" in shown.out
    assert "$schema" not in shown.err
    caplog.clear()
    assert cli("status").code == 0
    assert "lnag is not a key artibot reads" in caplog.text  # on stderr, through logging


def test_home_option_beside_the_variable(cli, artibot_home: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    r = cli("--home", str(other), "collect", "--stdin", "--quiet", stdin=orjson.dumps(mixed(2)))
    assert r.code == 0, r.err
    assert (other / "daily-experiences.json").exists() and not artibot_home.exists()


def test_usage_errors_are_one_line_like_every_other_error(cli) -> None:
    r = cli("history", "--bogus")
    assert r.code == 2 and r.err == "artibot: No such option: --bogus (see 'artibot history --help')\n"
    assert cli("rollback").err.count("\n") == 1


def test_hook_help_shows_help(cli) -> None:
    from artibot.__main__ import main

    assert main(["hook", "--help"]) == 0
    r = cli("hook", "--help")
    assert "Claude Code hook entry point" in r.out


def test_history_limit(cli, artibot_home: Path) -> None:
    for i in range(3):
        collect_many(mixed(60, start=100 * i))
        learn(answers="defaults", flush=True)
    assert len(cli("history", "--json").json()) == 3
    last = cli("history", "--limit", "1", "--json").json()
    assert [r["round_id"] for r in last] == [cli("history", "--json").json()[-1]["round_id"]]


def test_rollback_dry_run_changes_nothing(cli, artibot_home: Path) -> None:
    collect_many(mixed(100))
    report = learn(answers="defaults")
    before = sorted((p.relative_to(artibot_home), p.read_bytes()) for p in artibot_home.rglob("*") if p.is_file()
                    and p.suffix != ".lock")
    r = cli("rollback", report.round_id, "--dry-run")
    assert r.code == 0 and "dry run: nothing changed" in r.out and "100" in r.out
    after = sorted((p.relative_to(artibot_home), p.read_bytes()) for p in artibot_home.rglob("*") if p.is_file()
                   and p.suffix != ".lock")
    assert after == before
    assert cli("rollback", report.round_id, "--yes").code == 0


def test_doctor_says_when_the_home_is_not_writable(cli, artibot_home: Path, monkeypatch) -> None:
    collect_many(mixed(2))
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == artibot_home else real(p, mode))
    r = cli("doctor")
    assert r.code == 0 and "[warning]" in r.out and "the data home is not writable" in r.out


def test_install_dry_run_says_where_the_data_goes(cli, artibot_home: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    r = cli("install", "claude-code", "--dry-run")
    # a home other than the default is written into the hooks, and the line says so
    assert r.code == 0 and f"go to {artibot_home}, written into the hook commands" in r.out


def _run(args: list[str], tmp_path: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "ARTIBOT_HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp"),
           "PATH": os.path.dirname(sys.executable)}  # no crontab on this PATH
    (tmp_path / "tmp").mkdir(exist_ok=True)
    # SIGINT as in a terminal, even when the tests run in a background job (its children inherit it ignored)
    return subprocess.Popen([sys.executable, "-m", "artibot", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            **kw)


def test_schedule_show_and_dry_run_without_crontab(tmp_path: Path) -> None:
    for args in (["schedule", "show"], ["schedule", "install", "--dry-run"]):
        proc = _run(args, tmp_path)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert b"learn --unattended  # artibot:nightly-learner" in out and b"crontab" in out


@pytest.mark.slow
def test_a_closed_pipe_stops_quietly_and_the_demo_cleans_up(tmp_path: Path) -> None:
    proc = _run(["demo", "--rounds", "3"], tmp_path)
    proc.stdout.read(20)
    proc.stdout.close()  # the reader goes away, as `| head -c 20` does
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0 and err == b""
    done = _run(["demo", "--rounds", "1"], tmp_path)
    done.communicate(timeout=120)
    assert done.returncode == 0 and list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.slow
def test_ctrl_c_prints_one_line(tmp_path: Path) -> None:
    proc = _run(["demo", "--rounds", "100"], tmp_path)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "tmp").iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)  # the demo's temporary home appears once the command is running
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip().splitlines() == ["artibot: interrupted; nothing half-written was kept"]


def test_the_default_threshold_has_one_name_in_text_and_json(cli, artibot_home: Path) -> None:
    collect_many(mixed(100))
    learn(answers="defaults")
    changes = cli("history", "--json").json()[-1]["threshold_changes"]
    assert "default" in changes and "*" not in changes
    assert "default " in cli("history").out
