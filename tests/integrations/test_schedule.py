"""Crontab lines for the nightly learner and the drift check. Never touches the real crontab."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from artibot.config import ScheduleSettings
from artibot.errors import IntegrationError, InvalidInput
from artibot.integrations.schedule import (
    SystemCrontab, plan_schedule, plan_unschedule, schedule_lines, show, update,
)


class FakeCrontab:
    """An in-memory crontab that counts writes."""

    def __init__(self, text: str = ""):
        self.text = text
        self.writes = 0

    def read(self) -> str:
        return self.text

    def write(self, text: str) -> None:
        self.text = text
        self.writes += 1


FOREIGN = (
    "# m h  dom mon dow   command\n"
    "MAILTO=me@example.org\n"
    "*/15 * * * * /usr/local/bin/backup --quiet > /dev/null 2>&1\n"
    "\n"
    "@reboot ~/bin/start-agent   # my own comment\n"
)
HOME = Path("/home/me/.claude/artibot")
CMD = "/home/me/.venv/bin/artibot"


def lines(settings: ScheduleSettings = ScheduleSettings(), **kw) -> list[str]:
    return schedule_lines(settings, CMD, HOME, **kw)


def test_lines_carry_schedule_env_command_and_tag():
    nightly, drift = lines()
    assert nightly == f"3 2 * * * ARTIBOT_HOME={HOME} {CMD} learn --unattended  # artibot:nightly-learner"
    assert drift == f"7 6 * * 1 ARTIBOT_HOME={HOME} {CMD} drift --json  # artibot:drift-check"


def test_lines_quote_paths_escape_percent_and_pin_the_config():
    nightly, _ = schedule_lines(ScheduleSettings(nightly_learner="0 3 * * *"), "'/my apps/artibot'",
                                Path("/data/100% mine"), config=Path("/etc/artibot.config.json"))
    assert nightly.startswith("0 3 * * * ARTIBOT_HOME='/data/100\\% mine' "
                              "ARTIBOT_CONFIG=/etc/artibot.config.json '/my apps/artibot' learn")


@pytest.mark.parametrize("field,key", [("nightly_learner", "nightlyLearner"), ("drift_check", "driftCheck")])
@pytest.mark.parametrize("expr", ["3 2 * *", "61 2 * * *", "every night", ""])
def test_invalid_cron_is_refused(field, key, expr):
    with pytest.raises(InvalidInput, match=f"learning.schedule.{key}"):
        lines(ScheduleSettings(**{field: expr}))


def test_bad_command_prefix_is_refused():
    with pytest.raises(InvalidInput):
        schedule_lines(ScheduleSettings(), "artibot\nrm -rf ~", HOME)


@pytest.mark.parametrize("current", ["", FOREIGN, FOREIGN.rstrip("\n")])
def test_schedule_is_idempotent_and_keeps_other_lines(current):
    once = plan_schedule(current, lines())
    assert plan_schedule(once, lines()) == once
    assert show(once) == lines()
    assert once.endswith("\n")
    assert once.startswith(current.rstrip("\n"))
    assert plan_unschedule(once) == (current if current.endswith("\n") or not current else current + "\n")


def test_unschedule_removes_only_ours_and_leaves_the_rest_byte_equal():
    mixed = FOREIGN.replace("\n\n", "\n" + "\n".join(lines()) + "\n\n")
    assert plan_unschedule(mixed) == FOREIGN
    assert plan_unschedule(FOREIGN) == FOREIGN
    no_newline = FOREIGN.rstrip("\n")
    assert plan_unschedule(no_newline) == no_newline


def test_new_schedule_replaces_old_lines_in_place():
    old = FOREIGN.replace("\n\n", "\n" + "\n".join(lines()) + "\n\n")
    new_lines = lines(ScheduleSettings(nightly_learner="30 1 * * *"))
    new = plan_schedule(old, new_lines)
    assert new == FOREIGN.replace("\n\n", "\n" + "\n".join(new_lines) + "\n\n")
    assert len(show(new)) == 2


def test_untagged_lines_are_not_accepted():
    with pytest.raises(InvalidInput, match="not an artibot crontab line"):
        plan_schedule(FOREIGN, ["0 0 * * * rm -rf ~"])


def test_update_writes_only_when_something_changes():
    tab = FakeCrontab(FOREIGN)
    before, after = update(tab, lines())
    assert before == FOREIGN and tab.text == after and tab.writes == 1
    update(tab, lines())
    assert tab.writes == 1
    update(tab, [])
    assert tab.text == FOREIGN and tab.writes == 2


# SystemCrontab against a stand-in `crontab` executable, never the real one.


@pytest.fixture
def fake_crontab_bin(tmp_path: Path) -> tuple[Path, Path]:
    store = tmp_path / "crontab.txt"
    script = tmp_path / "crontab"
    script.write_text(
        "#!/bin/sh\n"
        f'STORE="{store}"\n'
        'if [ "$1" = "-l" ]; then\n'
        '  if [ -f "$STORE" ]; then cat "$STORE"; else echo "no crontab for tester" >&2; exit 1; fi\n'
        'elif [ "$1" = "-" ]; then\n'
        '  cat > "$STORE"\n'
        "else exit 2; fi\n"
    )
    os.chmod(script, stat.S_IRWXU)
    return script, store


def test_system_crontab_reads_nothing_when_there_is_no_crontab(fake_crontab_bin):
    script, store = fake_crontab_bin
    tab = SystemCrontab(str(script))
    assert tab.read() == ""
    tab.write(FOREIGN)
    assert store.read_text() == FOREIGN
    assert tab.read() == FOREIGN


def test_system_crontab_missing_command_is_a_clear_error(tmp_path):
    with pytest.raises(IntegrationError, match="not installed"):
        SystemCrontab(str(tmp_path / "no-such-crontab")).read()


def test_system_crontab_reports_other_failures(tmp_path):
    script = tmp_path / "crontab"
    script.write_text("#!/bin/sh\necho 'permission denied' >&2\nexit 1\n")
    os.chmod(script, stat.S_IRWXU)
    with pytest.raises(IntegrationError, match="permission denied"):
        SystemCrontab(str(script)).read()
    with pytest.raises(IntegrationError, match="old crontab is still in place"):
        SystemCrontab(str(script)).write("x\n")
