"""``settings.json`` for the installer: parse and refuse what cannot be edited safely, keep
a file's indentation and final newline, and merge artibot's hook groups in or out (the
rules are listed in ``installer``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artibot.errors import IntegrationError
from artibot.messages import Message
from artibot.integrations.claude_code.templates import HOOKS, hook_group, is_artibot_hook


@dataclass(frozen=True)
class Style:
    """How an existing file is laid out, so that a rewrite keeps it."""

    indent: int | str = 2
    newline: bool = True


def detect_style(raw: bytes) -> Style:
    text = raw.decode("utf-8", errors="replace")
    m = re.search(r"\n([ \t]+)\S", text)
    indent: int | str = 2
    if m:
        ws = m.group(1)
        indent = "\t" if ws.startswith("\t") else len(ws)
    return Style(indent=indent, newline=text.endswith("\n"))


def dump_settings(data: Any, style: Style) -> bytes:
    text = json.dumps(data, indent=style.indent, ensure_ascii=False)
    return (text + ("\n" if style.newline else "")).encode("utf-8")


def parse_settings(path: Path, raw: bytes | None) -> dict[str, Any]:
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise IntegrationError(Message("installers.not_utf8", path=str(path), reason=str(exc))) from exc
    except json.JSONDecodeError as exc:
        raise IntegrationError(Message("json.file_invalid", path=str(path), reason=str(exc))) from exc
    if not isinstance(data, dict):
        raise IntegrationError(Message("installers.top_not_object", path=str(path)))
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise IntegrationError(Message("installers.hooks_not_object", path=str(path), type=type(hooks).__name__))
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise IntegrationError(Message("installers.event_not_groups", path=str(path), event=str(event),
                                           type=type(groups).__name__))
    return data


@dataclass
class MergeCount:
    """What ``merge_hooks`` did: the commands of the handlers it removed, the groups it
    added, and how many other handlers it kept."""

    removed: list[str] = field(default_factory=list)
    added: int = 0
    kept: int = 0


def handlers_of(group: Any) -> list[Any] | None:
    hooks = group.get("hooks") if isinstance(group, dict) else None
    return hooks if isinstance(hooks, list) else None


def is_ours(handler: Any, command: str) -> bool:
    return isinstance(handler, dict) and is_artibot_hook(handler.get("command"), command)


def _strip(groups: list[Any], command: str, count: MergeCount) -> list[Any]:
    """``groups`` without our handlers; a group (or list) we emptied disappears."""
    out = []
    for group in groups:
        handlers = handlers_of(group)
        if handlers is None:
            out.append(group)
            continue
        keep = [h for h in handlers if not is_ours(h, command)]
        count.removed.extend(h.get("command", "") for h in handlers if is_ours(h, command))
        count.kept += len(keep)
        if len(keep) == len(handlers):
            out.append(group)
        elif keep:
            out.append({**group, "hooks": keep})
    return out


def merge_hooks(data: dict[str, Any], command: str, *, install: bool) -> tuple[dict[str, Any], MergeCount]:
    """A copy of ``data`` with artibot's hooks installed (or removed). Input is not mutated."""
    count = MergeCount()
    hooks_in = data.get("hooks")
    hooks: dict[str, list[Any]] = {}
    wanted = {spec.event: hook_group(spec, command) for spec in HOOKS} if install else {}
    for event, groups in (hooks_in or {}).items():
        ours = [h for g in groups for h in (handlers_of(g) or []) if is_ours(h, command)]
        target = wanted.pop(event, None)
        if target is not None and len(ours) == 1 and target in groups:
            # Already installed exactly as we would: leave the list alone, wherever it sits.
            count.kept += sum(len(handlers_of(g) or []) for g in groups) - 1
            hooks[event] = groups
            continue
        new = _strip(groups, command, count)
        if target is not None:
            new.append(target)
            count.added += 1
        if new or not ours:  # drop only a list that our removal emptied
            hooks[event] = new
    for event, target in wanted.items():
        hooks[event] = [target]
        count.added += 1
    out = dict(data)
    if hooks or (hooks_in is not None and not count.removed):
        out["hooks"] = hooks
    else:
        out.pop("hooks", None)
    return out, count


GATEWAY_PORT_KEY = "ARTIBOT_GATEWAY_PORT"
GATEWAY_UPSTREAM_KEY = "ARTIBOT_GATEWAY_UPSTREAM"
BASE_URL_KEY = "ANTHROPIC_BASE_URL"


def gateway_url(port: int) -> str:
    return f"http://127.0.0.1:{int(port)}"


def merge_env(data: dict[str, Any], gateway_port: int | None, *, install: bool) -> dict[str, Any]:
    """A copy of ``data`` with the gateway's ``env`` entries set (``install`` with a port),
    removed (uninstall, or ``gateway_port`` 0), or left as they are (install with None).

    The user's own ``ANTHROPIC_BASE_URL`` becomes the gateway's upstream
    (``ARTIBOT_GATEWAY_UPSTREAM``) and comes back at removal; an ``env`` that only held
    our entries goes with them.
    """
    env_in = data.get("env")
    if env_in is not None and not isinstance(env_in, dict):
        return data
    env = dict(env_in or {})
    ours = GATEWAY_PORT_KEY in env
    if install and gateway_port is None:
        return data
    if ours:  # take ours out first: a new port, or removal
        port = env.pop(GATEWAY_PORT_KEY)
        if env.get(BASE_URL_KEY) == gateway_url(int(port)) if str(port).isdigit() else False:
            env.pop(BASE_URL_KEY)
        upstream = env.pop(GATEWAY_UPSTREAM_KEY, None)
        if upstream is not None:
            env[BASE_URL_KEY] = upstream
    if install and gateway_port:
        if BASE_URL_KEY in env:
            env[GATEWAY_UPSTREAM_KEY] = env[BASE_URL_KEY]
        env[BASE_URL_KEY] = gateway_url(gateway_port)
        env[GATEWAY_PORT_KEY] = str(int(gateway_port))
    out = dict(data)
    if env:
        out["env"] = env
    elif env_in is not None and not ours:
        out["env"] = env
    else:
        out.pop("env", None)
    return out
