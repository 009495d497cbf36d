"""``artibot report`` without matplotlib names the install command that works for how artibot was
installed (pip's ``direct_url.json``): a checkout's own extra, in place when it was installed so,
through this environment's pip; the index only for an install from the index."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import artibot
from artibot.cli.install_source import InstallSource, install_source, report_command

PY = "/env/bin/python"


@pytest.mark.parametrize("text, source, command", [
    ('{"url": "file:///src/artibot", "dir_info": {"editable": true}}', InstallSource("/src/artibot", editable=True),
     f"{PY} -m pip install -e '/src/artibot[report]'"),
    ('{"url": "file:///src/my%20checkout", "dir_info": {}}', InstallSource("/src/my checkout"),
     f"{PY} -m pip install '/src/my checkout[report]'"),
    ('{"url": "https://example.org/artibot.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}',
     InstallSource("git+https://example.org/artibot.git@abc123", vcs="git"),
     f"{PY} -m pip install 'artibot[report] @ git+https://example.org/artibot.git@abc123'"),
    ('{"url": "file:///tmp/artibot-0.1.0-py3-none-any.whl", "archive_info": {}}', None,
     f"{PY} -m pip install 'artibot[report]'"),
    ("", None, f"{PY} -m pip install 'artibot[report]'"),
    ("{not json", None, f"{PY} -m pip install 'artibot[report]'"),
    ('["a list"]', None, f"{PY} -m pip install 'artibot[report]'"),
])
def test_each_kind_of_install_gets_its_command(text: str, source: InstallSource | None, command: str) -> None:
    assert install_source(text) == source
    assert report_command(source, python=PY, prefix="/env") == command


def test_under_pipx_the_extra_is_injected() -> None:
    assert report_command(InstallSource("/src/artibot"), python="/h/.local/pipx/venvs/artibot/bin/python",
                          prefix="/h/.local/pipx/venvs/artibot") == "pipx inject artibot matplotlib"


def test_the_report_without_matplotlib_names_this_install_s_command(tmp_path: Path) -> None:
    """In a process where matplotlib cannot be imported, as after a plain ``pip install artibot``."""
    home = tmp_path / "home"
    code = ("import sys; sys.modules['matplotlib'] = None\n"  # `import matplotlib` raises ImportError
            "from artibot.collector import collect\n"
            "collect({'input': 'x', 'domain': 'docs', 'complexity': 0.2, 'routed_to': 'system1',"
            " 'outcome': 'success', 'latency_ms': 1.0, 'confidence': 0.9})\n"
            "from artibot.__main__ import main\nsys.exit(main(['report', '--out', sys.argv[1]]))\n")
    env = {**os.environ, "ARTIBOT_HOME": str(home)}
    env.pop("ARTIBOT_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r.html")], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and not (tmp_path / "r.html").exists()
    expected = report_command(install_source())
    assert done.stderr == ("artibot: the report draws its charts with matplotlib, which artibot's environment "
                           f"lacks: {expected}\n"), done.stderr
    assert f"{shlex.quote(sys.executable)} -m pip install" in expected or expected.startswith("pipx ")
    source = install_source()
    if source is not None and source.editable:  # this checkout, installed in place (as the tests run it)
        checkout = Path(artibot.__file__).resolve().parent.parent
        assert Path(source.path).resolve() == checkout
        assert expected.endswith(f" -e '{source.path}[report]'") or expected.endswith(f" -e {source.path}[report]")


def test_the_sentence_in_korean() -> None:
    from artibot.messages import Message, render

    lacks = Message("report.no_matplotlib", hint="/v/bin/python -m pip install -e '/src/artibot[report]'")
    assert str(lacks) == ("the report draws its charts with matplotlib, which artibot's environment lacks: "
                          "/v/bin/python -m pip install -e '/src/artibot[report]'")
    said = render(lacks, "ko")
    assert said == ("보고서는 matplotlib로 차트를 그리는데, artibot의 환경에 matplotlib가 없습니다: "
                    "/v/bin/python -m pip install -e '/src/artibot[report]'")
