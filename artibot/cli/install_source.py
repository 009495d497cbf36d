"""How this artibot was installed, for a command that must name the right ``pip install``.

``pip install 'artibot[report]'`` fetches artibot from the package index: for a checkout
installed in place (``pip install -e .``) or from a folder, that is another artibot, or none
at all. pip records where an install came from in the distribution's ``direct_url.json``
(PEP 610): ``{"url": "file:///path", "dir_info": {"editable": true}}`` for a checkout, a
``vcs_info`` for a repository, nothing for an install from the index.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from urllib.parse import unquote, urlparse


@dataclass(frozen=True)
class InstallSource:
    """Where the installed artibot came from: a local folder (``editable`` for ``pip install -e``),
    or a repository (``vcs``: ``git``, with the URL and commit in ``path``)."""

    path: str
    editable: bool = False
    vcs: str | None = None


def install_source(text: str | None = None) -> InstallSource | None:
    """The installed artibot's origin from its ``direct_url.json`` (or from ``text``, that file's
    content); None for an install from the index, or when pip recorded nothing readable (then
    the index is the best guess)."""
    try:
        if text is None:
            from importlib.metadata import PackageNotFoundError, distribution

            try:
                text = distribution("artibot").read_text("direct_url.json")
            except PackageNotFoundError:
                return None
        doc = json.loads(text) if text else None
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("url"), str):
        return None
    url = doc["url"]
    vcs = doc.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        commit = vcs.get("commit_id")
        return InstallSource(f"{vcs['vcs']}+{url}" + (f"@{commit}" if isinstance(commit, str) else ""),
                             vcs=vcs["vcs"])
    parsed = urlparse(url)
    info = doc.get("dir_info")
    if parsed.scheme == "file" and isinstance(info, dict):
        return InstallSource(unquote(parsed.path), editable=info.get("editable") is True)
    return None


def report_command(source: InstallSource | None, *, python: str | None = None, prefix: str | None = None) -> str:
    """The command that adds the ``report`` extra (matplotlib) to the environment artibot runs in,
    for how it was installed: from the same checkout (in place again when it was), the same
    repository, or the index. It names this interpreter's pip (``python -m pip``): a bare ``pip``
    may be another environment's, or missing from ``PATH`` where artibot lives in a virtual
    environment; under pipx, ``pipx inject``.

    >>> report_command(InstallSource("/src/artibot", editable=True), python="/v/bin/python", prefix="/v")
    "/v/bin/python -m pip install -e '/src/artibot[report]'"
    >>> report_command(None, python="/v/bin/python", prefix="/v")
    "/v/bin/python -m pip install 'artibot[report]'"
    >>> report_command(None, python="/h/.local/pipx/venvs/artibot/bin/python", prefix="/h/.local/pipx/venvs/artibot")
    'pipx inject artibot matplotlib'
    """
    python = python or sys.executable
    prefix = prefix or sys.prefix
    if "/pipx/venvs/" in prefix.replace("\\", "/") + "/":
        return "pipx inject artibot matplotlib"
    pip = f"{shlex.quote(python)} -m pip install"
    if source is None:
        return f"{pip} {shlex.quote('artibot[report]')}"
    if source.vcs is not None:
        return f"{pip} {shlex.quote(f'artibot[report] @ {source.path}')}"
    return f"{pip}{' -e' if source.editable else ''} {shlex.quote(f'{source.path}[report]')}"
