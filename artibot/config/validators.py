"""The checkers of ``artibot.config.json``'s values: each takes the key path and the value
and returns ``(value, None)`` or ``(None, problem)``: a :class:`~artibot.messages.Message` naming
the key and what is allowed (its English sentence is ``str()``).

:mod:`artibot.config` holds the table of which key gets which checker.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from artibot.messages import Message

Checker = Callable[[str, Any], tuple[Any, str | Message | None]]


def number(lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False) -> Checker:
    lb = "(" if lo_open else "["
    rb = ")" if hi_open else "]"
    allowed = f"{lb}{lo:g}, {hi:g}{rb}"

    def check(path: str, value: Any) -> tuple[Any, Message | None]:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None, Message("value.number_in", key=path, range=allowed, value=f"{type(value).__name__} {value!r}")
        v = float(value)
        if v != v or (v < lo or (lo_open and v == lo)) or (v > hi or (hi_open and v == hi)):
            return None, Message("value.number_in", key=path, range=allowed, value=repr(value))
        return v, None

    return check


def integer(lo: int, hi: int) -> Checker:
    def check(path: str, value: Any) -> tuple[Any, Message | None]:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            return None, Message("config.integer", key=path, lo=lo, hi=hi, value=repr(value))
        return value, None

    return check


def choice(*options: str) -> Checker:
    def check(path: str, value: Any) -> tuple[Any, Message | None]:
        if value not in options:
            return None, Message("value.one_of", key=path, options=", ".join(repr(o) for o in options),
                                 value=repr(value))
        return value, None

    return check


def boolean(path: str, value: Any) -> tuple[Any, Message | None]:
    if not isinstance(value, bool):
        return None, Message("config.boolean", key=path, value=repr(value))
    return value, None


CRON_FIELD = re.compile(r"^(\*|\d+(-\d+)?)(/\d+)?(,(\*|\d+(-\d+)?)(/\d+)?)*$")
CRON_RANGES = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))


def cron_problem(expr: Any, key: str) -> Message | None:
    """Why ``expr``, the value of ``key``, is not a 5-field cron expression (the value named
    after the reason), or None if it is one."""
    problem = _cron_reason(expr, key)
    return Message("config.got", problem=problem, value=repr(expr)) if problem else None


def _cron_reason(expr: Any, key: str) -> Message | None:
    if not isinstance(expr, str):
        return Message("config.cron_string", key=key)
    fields = expr.split()
    if len(fields) != 5:
        return Message("config.cron_fields", key=key)
    names = ("minute", "hour", "day-of-month", "month", "day-of-week")
    for text, (lo, hi), name in zip(fields, CRON_RANGES, names):
        if not CRON_FIELD.match(text):
            return Message("config.cron_syntax", key=key, field=name, text=repr(text))
        for num in re.findall(r"\d+", re.sub(r"/\d+", "", text)):
            if not lo <= int(num) <= hi:
                return Message("config.cron_outside", key=key, field=name, value=num, range=f"{lo}-{hi}")
        if any(int(step) == 0 for step in re.findall(r"/(\d+)", text)):
            return Message("config.cron_step", key=key, field=name, text=repr(text))
        if any(int(a) > int(b) for a, b in re.findall(r"(\d+)-(\d+)", text)):
            return Message("config.cron_backwards", key=key, field=name, text=repr(text))
    return None


def cron(path: str, value: Any) -> tuple[Any, Message | None]:
    return (None, problem) if (problem := cron_problem(value, path)) else (value, None)


def optional(inner: Checker) -> Checker:
    def check(path: str, value: Any) -> tuple[Any, str | Message | None]:
        if value is None:
            return None, None
        return inner(path, value)

    return check


def auto_or_boolean(path: str, value: Any) -> tuple[Any, Message | None]:
    if value is True or value is False or value == "auto":
        return value, None
    return None, Message("config.auto_or_boolean", key=path, value=repr(value))


def domains(path: str, value: Any) -> tuple[Any, Message | None]:
    if not isinstance(value, dict):
        return None, Message("config.domains", key=path)
    out: dict[str, tuple[str, ...]] = {}
    for name, words in value.items():
        if not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", name):
            return None, Message("config.domain_name", key=f"{path}.{name}")
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            return None, Message("config.keywords", key=f"{path}.{name}")
        out[name] = tuple(w.strip().lower() for w in words)
    return out, None


EFFORTS = ("low", "medium", "high", "max")
"""The gateway's efforts (``artibot.gateway.profiles.EFFORTS``; a test keeps the two equal), here so
that every command's config check does not load the gateway (``artibot status`` starts faster)."""


def profile(path: str, value: Any) -> tuple[Any, Message | None]:
    """A route profile: ``{"effort": null|"low"|"medium"|"high"|"max", "model": null|str}``, as the
    pair ``(effort, model)``; :meth:`artibot.config.settings.GatewayProfileSettings.profiles` makes the
    gateway's profiles of it."""
    if not isinstance(value, dict) or not set(value) <= {"effort", "model"}:
        return None, Message("config.profile", key=path, value=repr(value))
    effort, model = value.get("effort"), value.get("model")
    if effort is not None and effort not in EFFORTS:
        return None, Message("config.profile_effort", key=f"{path}.effort", efforts=Message("config.efforts"),
                             value=repr(effort))
    if model is not None and (not isinstance(model, str) or not model.strip() or len(model) > 200):
        return None, Message("config.profile_model", key=f"{path}.model", value=repr(model))
    return (effort, model), None


def upstream_url(path: str, value: Any) -> tuple[Any, Message | None]:
    from urllib.parse import urlsplit

    if not isinstance(value, str):
        return None, Message("config.url", key=path, value=repr(value))
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        return None, Message("config.url_example", key=path, example="https://api.anthropic.com", value=repr(value))
    return value.rstrip("/"), None


def prices(path: str, value: Any) -> tuple[Any, str | None]:
    if value == {}:  # the shipped default, no price of one's own: nothing to check, no gateway to load
        return {}, None
    from artibot.gateway.price_table import check_rows

    return check_rows(path, value)
