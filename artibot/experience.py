"""The experience record (schema 1) and its validation.

A record is a plain ``dict`` on disk and in memory (unknown extra fields are kept as
they are). :func:`validate` checks every field, collects one message per problem that
names the field and what is allowed, and raises :class:`ValidationError` with all of
them; it never writes anything. ``id`` and ``timestamp`` are assigned when absent.
"""

from __future__ import annotations

import math
import numbers
import os
import time
from datetime import datetime, timezone
from typing import Any, Mapping

from artibot.errors import ValidationError
from artibot.names import MAX_ROUTED_CHARS

SCHEMA_VERSION = 1

SYSTEMS = ("system1", "system2")
OUTCOMES = ("success", "escalated", "failed", "interrupted")
"""``interrupted``: the turn was cut off by something other than the route (an API error,
a turn limit, Ctrl-C, the session's end) before it could succeed or fail. It is kept,
and left out of what the learner scores (:func:`learnable`)."""
LEARNED_OUTCOMES = ("success", "escalated", "failed")

FIELDS = (
    "id", "timestamp", "session_id", "input", "domain", "complexity", "routed_to",
    "outcome", "latency_ms", "confidence", "pattern", "threshold", "propensity",
)
REQUIRED = ("input", "domain", "complexity", "routed_to", "outcome", "latency_ms", "confidence")

MAX_INPUT_CHARS = MAX_ROUTED_CHARS
"""Longer request text is cut (with a marker) when it is stored, after it is anonymized
(see ``collector``): the log is for learning, not archiving prompts."""


def new_id() -> str:
    """A unique, roughly time-ordered id (uuid7-like: millisecond time + 64 random bits)."""
    ms = time.time_ns() // 1_000_000
    return f"exp_{ms:012x}{os.urandom(8).hex()}"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def parse_timestamp(value: str) -> datetime:
    """Parse an ISO 8601 timestamp that carries a timezone (``Z`` accepted)."""
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        raise ValueError("no timezone")
    return dt


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_unit(problems: list[str], record: Mapping[str, Any], name: str, *, nullable: bool,
                lo_open: bool = False) -> None:
    value = record.get(name)
    if value is None:
        if not nullable and name in REQUIRED:
            problems.append(f"{name} is required: a number from 0 to 1")
        return
    allowed = "a number in (0, 1]" if lo_open else "a number from 0 to 1"
    if not _is_number(value):
        problems.append(f"{name} must be {allowed}{' or null' if nullable else ''}, not {value!r}")
    elif not (0 < value <= 1 if lo_open else 0 <= value <= 1):
        problems.append(f"{name} must be {allowed}, not {value!r}")


MAX_DEPTH = 64
"""How deeply an extra field may nest (the JSON encoder stops at 254 levels)."""


def _plain(value: Any, path: str, problems: list[str], depth: int = 0) -> Any:
    """``value`` as plain JSON data (numpy scalars become int/float), or a problem naming ``path``.

    Without this a record could pass validation and still fail to encode (a 2**70, a numpy
    float, a lone surrogate) or be stored as something else (NaN written as null).
    """
    kind = type(value)
    if kind is float or kind is int:  # the common cases first: this runs on every hook's record
        if kind is float and not math.isfinite(value) and path not in FIELDS:
            # (non-finite values of the table's own fields are reported by their own checks)
            problems.append(f"{path} must be a finite number, not {value!r}")
        elif kind is int and not -(2**63) <= value < 2**64:
            problems.append(f"{path} must be an integer that fits in 64 bits, not {value!r}")
        return value
    if value is None or kind is bool:
        return value
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                problems.append(f"{path} must be valid Unicode text (it contains a lone surrogate)")
        return value
    if isinstance(value, numbers.Integral):
        if not -(2**63) <= int(value) < 2**64:
            problems.append(f"{path} must be an integer that fits in 64 bits, not {value!r}")
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number) and path not in FIELDS:
            problems.append(f"{path} must be a finite number, not {value!r}")
        return number
    if depth >= MAX_DEPTH:
        problems.append(f"{path} nests deeper than {MAX_DEPTH} levels")
        return None
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}[{i}]", problems, depth + 1) for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        out = {}
        for key, v in value.items():
            if not isinstance(key, str):
                problems.append(f"{path} has a key {key!r} that is not a string")
                continue
            out[key] = _plain(v, f"{path}.{key}", problems, depth + 1)
        return out
    problems.append(f"{path} must be JSON data (null, true/false, a number, a string, a list or an object), "
                    f"not {type(value).__name__}")
    return None


_FIELD_SET = frozenset(FIELDS)
_PLAIN = (str, float, int, type(None))


def _text(value: Any, limit: int) -> bool:
    return type(value) is str and 0 < len(value) <= limit and (value.isascii() or _encodable(value))


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fast(record: dict, assign: bool, now: str | None) -> dict[str, Any] | None:
    """A copy of an ordinary record (only the table's fields, plain values, all valid), or
    None: then :func:`validate` takes the full path, which explains every problem. A bulk
    import spends most of its time here, so the common case is checked inline."""
    if not record.keys() <= _FIELD_SET:
        return None
    try:
        text, domain, routed, outcome = record["input"], record["domain"], record["routed_to"], record["outcome"]
        c, conf, latency = record["complexity"], record["confidence"], record["latency_ms"]
    except KeyError:
        return None
    if not (type(text) is str and (text.isascii() or _encodable(text)) and routed in SYSTEMS
            and outcome in OUTCOMES and _text(domain, 64) and domain.strip()
            and (type(c) is float or type(c) is int) and 0 <= c <= 1
            and (type(conf) is float or type(conf) is int) and 0 <= conf <= 1
            and (type(latency) is float or type(latency) is int) and 0 <= latency < math.inf
            and (type(latency) is float or latency < 2**64)):
        return None
    get = record.get
    sid, pattern, threshold, propensity = get("session_id"), get("pattern"), get("threshold"), get("propensity")
    if not ((threshold is None or ((type(threshold) is float or type(threshold) is int) and 0 <= threshold <= 1))
            and (propensity is None or ((type(propensity) is float or type(propensity) is int)
                                        and 0 < propensity <= 1))
            and (sid is None or (type(sid) is str and (sid.isascii() or _encodable(sid))))
            and (pattern is None or _text(pattern, 200))):
        return None
    rid, ts = get("id"), get("timestamp")
    if rid is not None and not (_text(rid, 200) and rid.strip()):
        return None
    if ts is not None:
        if type(ts) is not str or not ts.isascii():
            return None
        try:
            parse_timestamp(ts)
        except ValueError:
            return None
    out = dict(record)
    if assign:
        if rid is None:
            out["id"] = new_id()
        if ts is None:
            out["timestamp"] = now or now_iso()
    for name in ("session_id", "pattern", "threshold", "propensity"):
        if name not in out:
            out[name] = None
    return out


def validate(record: Any, *, assign: bool = True, now: str | None = None) -> dict[str, Any]:
    """Return a validated copy of ``record`` (with ``id``/``timestamp`` assigned when ``assign``;
    ``now``: the timestamp to assign, by default the current time).

    Raises :class:`ValidationError` listing every problem, each naming its field.
    """
    if type(record) is dict:
        fast = _fast(record, assign, now)
        if fast is not None:
            return fast
    if not isinstance(record, Mapping):
        raise ValidationError([f"an experience must be a JSON object, not {type(record).__name__}"])
    problems: list[str] = []
    out: dict[str, Any] = {}
    for key, value in record.items():
        if not isinstance(key, str):
            problems.append(f"field name {key!r} is not a string")
            continue
        out[key] = _plain(value, key, problems)

    for name in REQUIRED:
        if out.get(name) is None and name not in ("complexity", "confidence"):
            problems.append(f"{name} is required")

    rid = out.get("id")
    if rid is None:
        if assign:
            out["id"] = new_id()
    elif not isinstance(rid, str) or not rid.strip() or len(rid) > 200:
        problems.append(f"id must be a non-empty string of at most 200 characters, not {rid!r}")

    ts = out.get("timestamp")
    if ts is None:
        if assign:
            out["timestamp"] = now or now_iso()
    elif not isinstance(ts, str):
        problems.append(f"timestamp must be an ISO 8601 string with a timezone, not {ts!r}")
    else:
        try:
            parse_timestamp(ts)
        except ValueError:
            problems.append(
                f"timestamp must be ISO 8601 with a timezone (e.g. 2026-01-31T09:30:00+09:00), not {ts!r}")

    sid = out.get("session_id")
    if sid is not None and not isinstance(sid, str):
        problems.append(f"session_id must be a string or null, not {sid!r}")

    text = out.get("input")
    if text is not None and not isinstance(text, str):
        problems.append(f"input must be a string, not {type(text).__name__}")

    domain = out.get("domain")
    if domain is not None and (not isinstance(domain, str) or not domain.strip() or len(domain) > 64):
        problems.append(f"domain must be a non-empty string of at most 64 characters (e.g. frontend, backend, "
                        f"security, data, general), not {domain!r}")

    _check_unit(problems, out, "complexity", nullable=False)
    _check_unit(problems, out, "confidence", nullable=False)
    _check_unit(problems, out, "threshold", nullable=True)
    _check_unit(problems, out, "propensity", nullable=True, lo_open=True)

    routed = out.get("routed_to")
    if routed is not None and routed not in SYSTEMS:
        problems.append(f"routed_to must be one of 'system1', 'system2', not {routed!r}")

    outcome = out.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        problems.append(f"outcome must be one of {', '.join(repr(o) for o in OUTCOMES)}, not {outcome!r}")

    latency = out.get("latency_ms")
    if latency is not None and (not _is_number(latency) or latency < 0):
        problems.append(f"latency_ms must be a number >= 0, not {latency!r}")

    pattern = out.get("pattern")
    if pattern is not None and (not isinstance(pattern, str) or not pattern or len(pattern) > 200):
        problems.append(f"pattern must be a non-empty string of at most 200 characters or null, not {pattern!r}")

    if problems:
        raise ValidationError(problems)

    for name in ("session_id", "pattern", "threshold", "propensity"):
        out.setdefault(name, None)
    return out


def is_success(record: Mapping[str, Any]) -> bool:
    return record.get("outcome") == "success"


def learnable(record: Mapping[str, Any]) -> bool:
    """Whether a record counts in what the learner scores (an ``interrupted`` turn does not)."""
    return record.get("outcome") != "interrupted"
