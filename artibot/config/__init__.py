"""``artibot.config.json`` -> frozen :class:`Settings`.

This is the only module that reads environment variables. Lookup order for the
config file: ``$ARTIBOT_CONFIG``, ``./artibot.config.json``,
``$ARTIBOT_HOME/artibot.config.json``; the first that exists is used and merged over
the shipped defaults (``config/artibot.config.json``). Every key of the artibot
sections is validated: an unknown key, a wrong type or an out-of-range value is a
:class:`~artibot.errors.ConfigError` naming the key path and what is allowed. An unknown
key at the top level is a warning, not an error: the file may be shared with tools that
read their own top-level sections, and one of them must not stop the router.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any, Iterable, Mapping

import orjson

from artibot.config import validators as checks
from artibot.config.validators import Checker
from artibot.errors import ConfigError, InvalidInput, os_reason
from artibot.messages import Message
from artibot.hookpath.names import CONFIG_NAME, home_path
from artibot.config.settings import (  # re-exported: callers import them from here
    CheckpointSettings, FreshnessSettings, GatewayPricingSettings, GatewayProfileSettings, GatewayServerSettings,
    LifelongSettings, OffPolicySettings, RouterSettings, ScheduleSettings, Settings, System1Settings,
    TransferSettings, ValidationSettings,
)

log = logging.getLogger(__name__)

TOP_LEVEL = ("lang", "cognitive", "learning", "gateway")
"""The top-level keys artibot reads (a ``$``-prefixed key such as ``$schema`` is an editor's)."""


def shipped_config_dir() -> Path:
    """The folder with the shipped defaults: ``config/`` in a checkout, ``artibot/_config`` in a wheel."""
    here = Path(__file__).resolve().parent.parent  # the artibot package (this is artibot/config/)
    for candidate in (here.parent / "config", here / "_config"):
        if (candidate / CONFIG_NAME).is_file():
            return candidate
    raise ConfigError([Message("config.no_shipped", name=CONFIG_NAME)])


# ---------------------------------------------------------------------------
# Environment (the only place that reads it)


def resolve_home(home: str | os.PathLike[str] | None = None) -> Path:
    """The data home: the argument, else ``$ARTIBOT_HOME``, else ``~/.claude/artibot``.

    A home that is itself a symbolic link (the user's choice of where the data lives: a
    dotfiles checkout, another disk) is used through its real path, by every command and
    every hook alike (``hookio.home_root`` does the same); links *inside* the home are
    still never followed. A path that is not valid UTF-8 is refused with a sentence: it
    could be used, but not written into the JSON artibot prints and stores.
    """
    env = os.environ.get("ARTIBOT_HOME")
    path = Path(home_path(home))
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        where = Message("config.home_given") if home is not None else "$ARTIBOT_HOME" if env else \
            Message("config.home_folder")
        raise InvalidInput(Message("config.home_not_utf8", where=where, path=ascii(str(path)))) from None
    if os.path.islink(path):
        return Path(os.path.realpath(path))
    return path


def config_candidates(home: Path) -> list[Path]:
    paths = []
    env = os.environ.get("ARTIBOT_CONFIG")
    if env:
        paths.append(Path(env).expanduser())
    paths.append(Path.cwd() / CONFIG_NAME)
    paths.append(home / CONFIG_NAME)
    return paths


def gateway_upstream_env() -> str | None:
    """The upstream the installer kept for the gateway (the user's own ``ANTHROPIC_BASE_URL``)."""
    return os.environ.get("ARTIBOT_GATEWAY_UPSTREAM") or None


def claude_project_dir() -> Path | None:
    value = os.environ.get("CLAUDE_PROJECT_DIR")
    return Path(value) if value else None


def claude_user_dir() -> Path:
    """``~/.claude`` (``$CLAUDE_CONFIG_DIR`` when set, as Claude Code itself does)."""
    return agent_user_dir("claude-code")


# ---------------------------------------------------------------------------
# Validation: one table of (json key, dataclass attribute, checker) per section
# (the checkers are in artibot.config.validators)
_SECTIONS: dict[str, tuple[type, list[tuple[str, str, Checker]]]] = {
    "cognitive.router": (RouterSettings, [
        ("threshold", "threshold", checks.number(0, 1)),
        ("adaptRate", "adapt_rate", checks.number(0, 1, lo_open=True)),
        ("minThreshold", "min_threshold", checks.number(0, 1)),
        ("maxThreshold", "max_threshold", checks.number(0, 1)),
        ("exploration", "exploration", checks.number(0, 0.5)),
        ("domainExploration", "domain_exploration", checks.number(0, 0.5)),
        ("explorationBudget", "exploration_budget", checks.number(0, 0.5)),
        ("escalation", "escalation", checks.boolean),
        ("domains", "domains", checks.domains),
    ]),
    "cognitive.system1": (System1Settings, [
        ("minConfidence", "min_confidence", checks.number(0, 1)),
        ("maxLatency", "max_latency", checks.number(0, 3_600_000)),
    ]),
    "learning.lifelong": (LifelongSettings, [
        ("batchSize", "batch_size", checks.integer(2, 100_000)),
        ("grpoGroupSize", "grpo_group_size", checks.integer(2, 10_000)),
        ("mode", "mode", checks.choice("seed", "evidence")),
        ("system2Cost", "system2_cost", checks.optional(checks.number(0, 1))),
        ("targetSystem2Share", "target_system2_share", checks.optional(checks.number(0, 1))),
        ("successValueUsd", "success_value_usd", checks.optional(checks.number(0, 10_000, lo_open=True))),
        ("minCostTurns", "min_cost_turns", checks.integer(2, 1_000_000)),
        ("objective", "objective", checks.choice("cost", "success")),
        ("redoCostUsd", "redo_cost_usd", checks.number(0, 10_000)),
    ]),
    "learning.knowledgeTransfer": (TransferSettings, [
        ("promotionThreshold", "promotion_threshold", checks.integer(1, 1000)),
        ("demotionThreshold", "demotion_threshold", checks.integer(1, 1000)),
        ("promotionConfidence", "promotion_confidence", checks.number(0, 1)),
    ]),
    "learning.checkpoints": (CheckpointSettings, [
        ("unattended", "unattended", checks.choice("defer", "defaults")),
    ]),
    "learning.schedule": (ScheduleSettings, [
        ("enabled", "enabled", checks.boolean),
        ("nightlyLearner", "nightly_learner", checks.cron),
        ("driftCheck", "drift_check", checks.cron),
    ]),
    # checked before (offPolicy) and after (validation); the aging cache (freshness)
    "learning.offPolicy": (OffPolicySettings, [
        ("method", "method", checks.choice("dr", "snips")),
        ("level", "level", checks.number(0.5, 0.999)),
        ("minSupport", "min_support", checks.integer(1, 1_000_000)),
        ("window", "window", checks.integer(0, 10_000_000)),
    ]),
    "learning.validation": (ValidationSettings, [
        ("window", "window", checks.optional(checks.integer(1, 10_000_000))),
        ("alpha", "alpha", checks.number(0.0001, 0.5)),
        ("minExperiences", "min_experiences", checks.integer(1, 10_000_000)),
        ("baseline", "baseline", checks.integer(1, 10_000_000)),
    ]),
    "learning.freshness": (FreshnessSettings, [
        ("enabled", "enabled", checks.auto_or_boolean),
        ("decayPerDay", "decay_per_day", checks.number(0, 10)),
        ("recentUses", "recent_uses", checks.integer(1, 1000)),
        ("recentFailures", "recent_failures", checks.integer(1, 1000)),
    ]),
    "gateway.server": (GatewayServerSettings, [
        ("port", "port", checks.integer(1, 65535)),
        ("upstream", "upstream", checks.upstream_url),
        ("openaiUpstream", "openai_upstream", checks.upstream_url),
    ]),
    "gateway.profiles": (GatewayProfileSettings, [
        ("system1", "system1", checks.profile),
        ("system2", "system2", checks.profile),
        ("switchMaxCachedTokens", "switch_max_cached_tokens", checks.integer(0, 10_000_000)),
    ]),
    "gateway.pricing": (GatewayPricingSettings, [
        ("models", "models", checks.prices),
    ]),
}
_PARENTS = {"cognitive": ("router", "system1"), "learning": ("lifelong", "knowledgeTransfer", "checkpoints", "schedule",
                                                             "offPolicy", "validation", "freshness"),
            "gateway": ("server", "profiles", "pricing")}
_ATTR = {"cognitive.router": "router", "cognitive.system1": "system1", "learning.lifelong": "lifelong",
         "learning.knowledgeTransfer": "transfer", "learning.checkpoints": "checkpoints",
         "learning.schedule": "schedule", "learning.offPolicy": "offpolicy", "learning.validation": "validation",
         "learning.freshness": "freshness", "gateway.server": "gateway_server",
         "gateway.profiles": "gateway_profiles", "gateway.pricing": "gateway_pricing"}



def unknown_key(name: str, key: str, known: Iterable[str], allowed: Iterable[str]) -> Message:
    """``name`` (``key`` under its section) is not a known key, with a guess for a key close
    to a known one (a typo, or the snake_case of the experience records where the config is
    camelCase).

    >>> str(unknown_key("learning.sytem2Cost", "sytem2Cost", ["system2Cost", "mode"], ["mode", "system2Cost"]))
    "learning.sytem2Cost is not a known key; did you mean 'system2Cost'? (allowed: mode, system2Cost)"
    >>> str(unknown_key("learning.batch_size", "batch_size", ["batchSize"], ["batchSize"]))
    "learning.batch_size is not a known key; did you mean 'batchSize'? (the config's keys are camelCase) (allowed: batchSize)"
    """
    import difflib

    names, listed = list(known), ", ".join(allowed)
    camel = key.split("_")[0] + "".join(part[:1].upper() + part[1:] for part in key.split("_")[1:])
    if "_" in key and camel in names:
        return Message("config.unknown_key_camel", key=name, guess=camel, allowed=listed)
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.75)
    if close:
        return Message("config.unknown_key_guess", key=name, guess=close[0], allowed=listed)
    return Message("config.unknown_key", key=name, allowed=listed)


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def settings_from_mapping(data: Mapping[str, Any], source: Path | None = None) -> Settings:
    """Validate ``data`` (a full or partial config) merged over the shipped defaults."""
    if not isinstance(data, Mapping):
        raise ConfigError([Message("config.top_level")], source)
    merged = _deep_merge(_shipped_defaults(), data)
    problems: list[str | Message] = []
    lang = merged.get("lang")
    if lang not in ("en", "ko"):
        problems.append(Message("config.lang", value=repr(lang)))
    for parent, children in _PARENTS.items():
        node = merged.get(parent)
        if not isinstance(node, dict):
            problems.append(Message("config.object", key=parent))
            continue
        for key in node:
            if key not in children:
                problems.append(unknown_key(f"{parent}.{key}", key, children, children))
    kwargs: dict[str, Any] = {}
    for section, (cls, table) in _SECTIONS.items():
        parent, child = section.split(".")
        node = merged.get(parent, {}).get(child) if isinstance(merged.get(parent), dict) else None
        if not isinstance(node, dict):
            if node is not None:
                problems.append(Message("config.object", key=section))
            continue
        known = {k for k, _, _ in table}
        for key in node:
            if key not in known:
                problems.append(unknown_key(f"{section}.{key}", key, known, sorted(known)))
        values = {}
        for key, attr, check in table:
            if key in node:
                value, problem = check(f"{section}.{key}", node[key])
                if problem:
                    problems.append(problem)
                else:
                    values[attr] = value
        kwargs[_ATTR[section]] = cls(**values)
    router = kwargs.get("router")
    if router and router.min_threshold >= router.max_threshold:
        problems.append(Message("config.below", key="cognitive.router.minThreshold", other="cognitive.router.maxThreshold",
                                got=f"{router.min_threshold:g}", other_got=f"{router.max_threshold:g}"))
    elif router and not router.min_threshold <= router.threshold <= router.max_threshold:
        problems.append(Message("config.within", key="cognitive.router.threshold", range="[minThreshold, maxThreshold]",
                                got=f"{router.threshold:g}",
                                bounds=f"[{router.min_threshold:g}, {router.max_threshold:g}]"))
    lifelong = kwargs.get("lifelong")
    if lifelong and lifelong.grpo_group_size > lifelong.batch_size:
        problems.append(Message("config.not_above", key="learning.lifelong.grpoGroupSize",
                                other="learning.lifelong.batchSize",
                                got=f"{lifelong.grpo_group_size} > {lifelong.batch_size}"))
    if lifelong and lifelong.system2_cost is not None and lifelong.target_system2_share is not None:
        problems.append(Message("config.price_twice"))
    if problems:
        raise ConfigError(problems, source)
    said = tuple(Message("config.not_read", key=str(key), known=", ".join(TOP_LEVEL))
                 for key in data if key not in TOP_LEVEL and not str(key).startswith("$"))
    for warning in said:
        log.warning("%s%s", f"{source}: " if source else "", warning)
    return Settings(lang=str(lang), source=source, warnings=tuple(str(w) for w in said), said_warnings=said,
                    **kwargs)


_DEFAULTS_CACHE: dict[str, Any] | None = None


def _shipped_defaults() -> dict[str, Any]:
    global _DEFAULTS_CACHE
    if _DEFAULTS_CACHE is None:
        path = shipped_config_dir() / CONFIG_NAME
        _DEFAULTS_CACHE = orjson.loads(path.read_bytes())
    return _DEFAULTS_CACHE


def load_config_file(path: Path) -> Settings:
    try:
        # non-blocking, and only a regular file: a FIFO in its place would hang every command
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ConfigError([Message("config.not_regular")], path)
            with os.fdopen(os.dup(fd), "rb") as fh:
                raw = fh.read()
        finally:
            os.close(fd)
    except OSError as exc:
        raise ConfigError([Message("config.unreadable", reason=os_reason(exc))], path) from exc
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ConfigError([Message("json.invalid", reason=str(exc))], path) from exc
    return settings_from_mapping(data, source=path)


def load_settings(home: str | os.PathLike[str] | None = None) -> Settings:
    """Settings from the first config file found (see module doc), else the shipped defaults."""
    home_path = resolve_home(home)
    env = os.environ.get("ARTIBOT_CONFIG")
    for path in config_candidates(home_path):
        if path.exists() and not path.is_dir():  # a FIFO or device is refused by name, not skipped
            return load_config_file(path)
        if env and path == Path(env).expanduser():
            raise ConfigError([Message("config.env_missing", path=str(path))])
    return settings_from_mapping({})


def raw_lang(home: str | os.PathLike[str] | None = None) -> str | None:
    """The ``lang`` the config in force names, read even when the config is invalid (so that
    the error about it is said in that language); None when there is none to read."""
    try:
        for path in config_candidates(resolve_home(home)):
            if path.is_file():
                data = orjson.loads(path.read_bytes())
                return data.get("lang") if isinstance(data, dict) else None
    except (OSError, orjson.JSONDecodeError):
        pass
    return None


def config_report(home: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The effective configuration and where it came from, for ``artibot config show|path``.

    ``files`` lists every place looked at, in lookup order, with whether it exists and
    which one is in use; ``effective`` is the shipped defaults with that file merged over
    them (validated: an invalid file raises as it would for any command); ``warnings`` the
    keys ignored, a :class:`~artibot.messages.Message` each.
    """
    home_path = resolve_home(home)
    settings = load_settings(home_path)
    used = settings.source
    data: Any = orjson.loads(used.read_bytes()) if used is not None else {}
    effective = _deep_merge(_shipped_defaults(), {k: v for k, v in data.items() if k in TOP_LEVEL})
    env = os.environ.get("ARTIBOT_CONFIG")
    files = [{"path": str(path), "exists": path.is_file(), "used": path == used,
              "why": ("$ARTIBOT_CONFIG" if env and i == 0 else
                      "the current directory" if path.parent == Path.cwd() else "the data home")}
             for i, path in enumerate(config_candidates(home_path))]
    return {"effective": effective, "file": str(used) if used else None, "files": files,
            "defaults": str(shipped_config_dir() / CONFIG_NAME), "home": str(home_path),
            "warnings": list(settings.said_warnings)}


def default_settings() -> Settings:
    return settings_from_mapping({})


_DOMAINS_CACHE: dict[str, list[str]] | None = None


def load_domain_keywords() -> dict[str, list[str]]:
    """The shipped domain keyword table (``config/domains.json``), merged by the router with
    the user's additions from ``cognitive.router.domains``."""
    global _DOMAINS_CACHE
    if _DOMAINS_CACHE is None:
        path = shipped_config_dir() / "domains.json"
        try:
            doc = orjson.loads(path.read_bytes())
            domains = doc["domains"]
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise ConfigError([Message("config.domains_unreadable", reason=str(exc))], path) from exc
        _DOMAINS_CACHE = domains
    return _DOMAINS_CACHE


def agent_user_dir(agent: str) -> Path:
    """Where a client keeps its user settings (:mod:`artibot.hookpath.clients` says, per client).

    ``~/.claude`` or ``$CLAUDE_CONFIG_DIR`` (Claude Code), ``~/.gemini`` (Gemini CLI),
    ``$CODEX_HOME`` or ``~/.codex`` (Codex CLI), ``~/.cursor`` (Cursor): the variable when the
    client itself reads one and it is set.
    """
    from artibot.hookpath.clients import CLIENTS

    client = CLIENTS[agent]
    if client.config_env and os.environ.get(client.config_env):
        return Path(os.environ[client.config_env]).expanduser()
    return Path("~").expanduser() / client.config_dir
