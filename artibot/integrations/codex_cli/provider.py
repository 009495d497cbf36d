"""``artibot install codex-cli --gateway``: a model provider in Codex CLI's ``config.toml`` that
sends its requests through the gateway, and the way back to the file's own bytes.

Codex CLI picks the provider named by the top-level ``model_provider`` (default ``openai``)
from ``[model_providers.NAME]`` (``base_url``, ``env_key``: the environment variable that
holds the API key, ``wire_api``). Install

* reads the provider the user has selected: its ``base_url`` becomes the gateway's OpenAI
  upstream and its ``env_key`` the new provider's, so the key stays in the user's
  environment and nothing of it is written anywhere (the built-in ``openai`` provider:
  ``https://api.openai.com/v1`` and ``OPENAI_API_KEY``). A provider with no ``env_key`` (a
  ChatGPT sign-in) cannot go through the gateway, and install says so;
* appends one table between two marker lines, ``[model_providers.artibot]`` with
  ``base_url = "http://127.0.0.1:PORT/openai"`` and ``wire_api = "responses"``;
* selects it: the top-level ``model_provider`` line becomes ``model_provider = "artibot"``
  with the line it replaced kept in its comment (or a new first line, when there was none).

Uninstall (or ``--no-gateway``) takes out exactly that: the block, and the original
``model_provider`` line back from its comment; when the result is the backup install saved
(nothing else changed since), the backup's bytes are written, byte for byte. The file is
edited as text (no TOML writer keeps a user's comments and layout), after a check with
:mod:`tomllib` that it parses, before and after.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from artibot.errors import IntegrationError
from artibot.integrations.install_files import BACKUP_SUFFIX, NEW_SETTINGS_MODE, Change, mode_of, notes, read, real_path
from artibot.messages import Message

NAME = "artibot"
BEGIN = "# >>> artibot gateway: `artibot uninstall codex-cli` removes this block"
END = "# <<< artibot gateway"
SELECTED = f'model_provider = "{NAME}" # artibot gateway; '
WAS = "was: "
UNSET = "was unset"
OPENAI_URL = "https://api.openai.com/v1"
OPENAI_KEY = "OPENAI_API_KEY"


@dataclass(frozen=True)
class Gateway:
    """What a ``config.toml`` routes through the gateway: the port, the upstream, the key's variable."""

    port: int
    upstream: str
    env_key: str


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise IntegrationError(Message("codex.not_toml", file=str(path), error=str(exc))) from None


def _block(gw: Gateway) -> str:
    return (f"{BEGIN}\n[model_providers.{NAME}]\nname = \"artibot gateway\"\n"
            f"base_url = \"http://127.0.0.1:{gw.port}/openai\"\nenv_key = {_quote(gw.env_key)}\n"
            f"wire_api = \"responses\"\n# upstream = {_quote(gw.upstream)}\n{END}\n")


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


_BLOCK = re.compile(r"\n?" + re.escape(BEGIN) + r"\n(.*?)" + re.escape(END) + r"\n?", re.S)
_TOP_SELECTED = re.compile(r"^" + re.escape(SELECTED) + r"(.*)$", re.M)


def installed_port(path: Path) -> int | None:
    """The port the ``config.toml`` at ``path`` sends Codex CLI's requests to, if artibot's block is there."""
    data = read(real_path(path))
    try:
        now = current(data.decode("utf-8")) if data is not None else None
    except UnicodeDecodeError:
        return None
    return now.port if now is not None else None


def current(text: str) -> Gateway | None:
    """The gateway a ``config.toml``'s text routes through (artibot's block), if any."""
    found = _BLOCK.search(text)
    if found is None:
        return None
    body = found.group(1)
    port = re.search(r'base_url = "http://127\.0\.0\.1:(\d+)/openai"', body)
    key = re.search(r'^env_key = "(.*)"$', body, re.M)
    upstream = re.search(r'^# upstream = "(.*)"$', body, re.M)
    if port is None or key is None or upstream is None:
        return None
    return Gateway(int(port.group(1)), upstream.group(1), key.group(1))


def _top_region_end(text: str) -> int:
    """Where the top-level keys end: the first table header."""
    found = re.search(r"^\s*\[", text, re.M)
    return found.start() if found else len(text)


def selected(doc: dict[str, Any], path: Path) -> Gateway | None:
    """The upstream and key variable of the provider ``doc`` selects (port 0: not chosen yet)."""
    name = doc.get("model_provider", "openai")
    found = doc.get("model_providers")
    providers: dict[str, Any] = found if isinstance(found, dict) else {}
    provider = providers.get(name) if isinstance(name, str) else None
    if name == NAME:
        return None
    if isinstance(provider, dict):
        key, url = provider.get("env_key"), provider.get("base_url")
        wire = provider.get("wire_api", "responses")
        if wire != "responses":
            raise IntegrationError(Message("codex.wire_api", file=str(path), provider=repr(name), wire=repr(wire)))
        if not isinstance(key, str) or not key or not isinstance(url, str) or not url.startswith(("http://",
                                                                                                   "https://")):
            raise IntegrationError(Message("codex.needs_url_key", file=str(path), provider=repr(name)))
        return Gateway(0, url.rstrip("/"), key)
    if name == "openai":
        return Gateway(0, (os.environ.get("OPENAI_BASE_URL") or OPENAI_URL).rstrip("/"), OPENAI_KEY)
    raise IntegrationError(Message("codex.not_provider", file=str(path), provider=repr(name)))


def add(text: str, gw: Gateway) -> str:
    """``text`` with artibot's provider appended and selected (``text`` has none of it)."""
    end = _top_region_end(text)
    top = re.search(r"^model_provider\s*=.*$", text[:end], re.M)
    if top is not None:
        line = top.group(0)
        out = text[:top.start()] + SELECTED + WAS + line + text[top.end():]
    else:
        out = SELECTED + UNSET + "\n" + text
    if out and not out.endswith("\n"):
        out += "\n"
    return out + "\n" + _block(gw)


def remove(text: str) -> str:
    """``text`` without artibot's provider, the user's own selection back."""
    out = _BLOCK.sub("", text, count=1)
    found = _TOP_SELECTED.search(out)
    if found is not None:
        rest = found.group(1)
        if rest == UNSET:
            out = out[:found.start()] + out[found.end() + 1:]
        elif rest.startswith(WAS):
            out = out[:found.start()] + rest[len(WAS):] + out[found.end():]
    return out


def hook_env(gw: Gateway | None) -> str:
    """What Codex CLI's hook commands start with when it goes through the gateway: the port the
    hooks keep a gateway on (Codex CLI passes its hooks no environment of artibot's own, so the
    commands carry it)."""
    return f"env ARTIBOT_GATEWAY_PORT={gw.port} " if gw is not None else ""


def upstream_change(root: Path, gw: Gateway | None, *, install: bool) -> Change:
    """The data home's record of the OpenAI upstream (:func:`artibot.hookpath.store.gateway_state.
    read_openai_upstream`): written with the provider, removed with it."""
    from artibot.hookpath.store import gateway_state

    path = Path(gateway_state.openai_upstream_path(str(root)))
    before = read(path)
    if install and gw is not None:
        after = f"{gw.upstream}\n".encode("utf-8")
        if before == after:
            return Change(path, "unchanged", before, before, None, Message("install.upstream_present"))
        return Change(path, "create" if before is None else "update", before, after, None,
                      Message("install.upstream_set", url=gw.upstream), 0o600)
    if before is None:
        return Change(path, "unchanged", None, None, None, Message("install.upstream_absent"))
    return Change(path, "remove", before, None, None, Message("install.upstream"))


def change(path: Path, port: int | None, *, install: bool) -> tuple[Change, Gateway | None]:
    """The change to ``config.toml`` and the gateway it then routes through: ``port`` routes
    through the gateway on it; 0 (or uninstall) stops; None keeps what the file says."""
    real = real_path(path)
    before = read(real)
    try:
        text = before.decode("utf-8") if before is not None else ""
    except UnicodeDecodeError:
        raise IntegrationError(Message("codex.not_utf8", file=str(real))) from None
    _parse(real, text)  # a file that does not parse is refused before anything is planned
    now = current(text)
    if install and port is None:
        return Change(real, "unchanged", before, before, None, Message("install.provider_kept")), now
    if not install or port == 0:
        if now is None:
            return Change(real, "unchanged", before, before, None, Message("install.provider_absent")), None
        after_text = remove(text)
        _parse(real, after_text)
        kept = real.with_name(real.name + BACKUP_SUFFIX)
        saved = read(kept)
        after = after_text.encode("utf-8")
        cleanup: tuple[Path, ...] = ()
        parts = [Message("install.codex_gateway_off", port=now.port)]
        if saved is not None and after in (saved, saved + b"\n"):  # the final newline install may have added
            after = saved
            parts.append(Message("install.restored", file=kept.name))
            cleanup = (kept,)
        if not after and before is not None and saved is None:
            return Change(real, "remove", before, None, None, notes(*parts, Message("install.created_only"))), None
        return Change(real, "update", before, after, None, notes(*parts), mode_of(real, NEW_SETTINGS_MODE),
                      cleanup=cleanup), None
    base = remove(text) if now is not None else text
    chosen = selected(_parse(real, base), real)
    if chosen is None:
        raise IntegrationError(Message("codex.already_selected", file=str(real), name=repr(NAME)))
    assert port is not None
    gw = Gateway(port, chosen.upstream, chosen.env_key)
    after_text = add(base, gw)
    _parse(real, after_text)
    after = after_text.encode("utf-8")
    if after == before:
        return Change(real, "unchanged", before, before, None, Message("install.provider_present")), gw
    note = Message("install.codex_gateway_on", name=repr(NAME), url=f"http://127.0.0.1:{port}/openai",
                   upstream=gw.upstream, key=f"${gw.env_key}")
    backup = real.with_name(real.name + BACKUP_SUFFIX) if before is not None and now is None else None
    return Change(real, "create" if before is None else "update", before, after, backup, note,
                  mode_of(real, NEW_SETTINGS_MODE)), gw
