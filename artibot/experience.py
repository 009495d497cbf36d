"""The experience record's validation, its schema version and the migrations of old records.

The record's fields are declared once, in :class:`artibot.shapes.ExperienceRecord` and
:data:`artibot.shapes.EXPERIENCE_FIELDS`; everything here that names fields is derived from
that table. A record is a plain ``dict`` on disk and in memory (unknown extra fields are
kept as they are). :func:`validate` checks every field, collects one message per problem
that names the field and what is allowed, and raises :class:`ValidationError` with all of
them; it never writes anything. ``id`` and ``timestamp`` are assigned when absent.

Schema versions: a record without ``schema_version`` is at version 1, the version this
artibot writes (:data:`SCHEMA_VERSION`). When the record's shape changes, raise the version,
add a step to :data:`MIGRATIONS` (and a test): a stored record of an older version is
migrated in memory where it is read (:func:`migrate`), a newer one stops the reader with its
line named, and records collected from then on carry the new version (:func:`validate`).
"""

from __future__ import annotations

import math
import numbers
from datetime import datetime, timezone
from typing import Any, Callable, Mapping

from artibot.errors import ValidationError
from artibot.hookpath.names import MAX_ROUTED_CHARS
from artibot.hookpath.record import new_id
from artibot.messages import Message
from artibot.shapes import EXPERIENCE_FIELDS, ExperienceRecord

__all__ = ["FIELDS", "OUTCOMES", "REQUIRED", "SCHEMA_VERSION", "SYSTEMS", "learnable", "migrate", "new_id", "version_of",
           "now_iso", "parse_timestamp", "validate"]

SCHEMA_VERSION = 1
"""The version of the records this artibot writes; a record without ``schema_version`` is at 1."""

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""from_version -> a function returning the record at from_version + 1 (it sets
``schema_version``). Empty while every record is at version 1."""

SYSTEMS = ("system1", "system2")
OUTCOMES = ("success", "escalated", "failed", "interrupted")
"""``interrupted``: the turn was cut off by something other than the route (an API error,
a turn limit, Ctrl-C, the session's end) before it could succeed or fail. It is kept,
and left out of what the learner scores (:func:`learnable`)."""

FIELDS = tuple(EXPERIENCE_FIELDS)
"""Every declared field, in the order a record is written."""
REQUIRED = tuple(name for name, field in EXPERIENCE_FIELDS.items() if field.required)
FREE_TEXT = frozenset(name for name, field in EXPERIENCE_FIELDS.items() if field.free_text)
"""Declared fields whose strings are anonymized before they are stored (undeclared extra
fields are too, their names included: see :mod:`artibot.collector`)."""

MAX_INPUT_CHARS = MAX_ROUTED_CHARS
"""Longer request text is cut (with a marker) when it is stored, after it is anonymized
(see ``collector``): the log is for learning, not archiving prompts."""


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


def _check_unit(problems: list[Message], record: Mapping[str, Any], name: str, *, nullable: bool,
                lo_open: bool = False) -> None:
    value = record.get(name)
    if value is None:
        if not nullable and name in REQUIRED:
            problems.append(Message("record.required_unit", field=name))
        return
    allowed = "record.open_unit" if lo_open else "record.unit"
    if not _is_number(value):
        problems.append(Message(allowed + ("_or_null" if nullable else ""), field=name, value=repr(value)))
    elif not (0 < value <= 1 if lo_open else 0 <= value <= 1):
        problems.append(Message(allowed, field=name, value=repr(value)))


MAX_DEPTH = 64
"""How deeply an extra field may nest (the JSON encoder stops at 254 levels)."""


def _plain(value: Any, path: str, problems: list[Message], depth: int = 0) -> Any:
    """``value`` as plain JSON data (numpy scalars become int/float), or a problem naming ``path``.

    Without this a record could pass validation and still fail to encode (a 2**70, a numpy
    float, a lone surrogate) or be stored as something else (NaN written as null).
    """
    kind = type(value)
    if kind is float or kind is int:  # the common cases first: this runs on every hook's record
        if kind is float and not math.isfinite(value) and path not in FIELDS:
            # (non-finite values of the table's own fields are reported by their own checks)
            problems.append(Message("record.finite", field=path, value=repr(value)))
        elif kind is int and not -(2**63) <= value < 2**64:
            problems.append(Message("record.int64", field=path, value=repr(value)))
        return value
    if value is None or kind is bool:
        return value
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                problems.append(Message("record.surrogate", field=path))
        return value
    if isinstance(value, numbers.Integral):
        if not -(2**63) <= int(value) < 2**64:
            problems.append(Message("record.int64", field=path, value=repr(value)))
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number) and path not in FIELDS:
            problems.append(Message("record.finite", field=path, value=repr(value)))
        return number
    if depth >= MAX_DEPTH:
        problems.append(Message("record.deep", field=path, n=MAX_DEPTH))
        return None
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}[{i}]", problems, depth + 1) for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        out = {}
        for key, v in value.items():
            if not isinstance(key, str):
                problems.append(Message("record.key_not_text", field=path, key=repr(key)))
                continue
            out[key] = _plain(v, f"{path}.{key}", problems, depth + 1)
        return out
    problems.append(Message("record.not_data", field=path, type=type(value).__name__))
    return None


_FIELD_SET = frozenset(FIELDS)
_CORE_SET = frozenset(("id", "timestamp", "session_id", "input", "domain", "complexity", "routed_to", "outcome",
                       "latency_ms", "confidence", "pattern", "threshold", "propensity"))
"""The fields :func:`_fast` checks inline: every record carries them (the rest, the hooks'
facts about a turn, through :data:`_TURN_FACTS`)."""


def _is_count(value: Any) -> bool:
    return type(value) is int and 0 <= value < 2**64


def _is_text(value: Any) -> bool:
    return type(value) is str and (value.isascii() or _encodable(value))


# A declared field's kind of check (RecordField.check) -> (check of a value that is not None,
# the id of the problem that says what is allowed). The same check serves both paths of
# validate, so the fast one cannot miss it.
_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "text": (_is_text, "record.text_or_null"),
    "count": (_is_count, "record.count_or_null"),
    "flag": (lambda v: type(v) is bool, "record.flag_or_null"),
    "object": (lambda v: isinstance(v, dict), "record.object_or_null"),
}
_TURN_FACTS = {name: _CHECKS[field.check] for name, field in EXPERIENCE_FIELDS.items() if field.check}
_OBJECTS = frozenset(name for name, field in EXPERIENCE_FIELDS.items() if field.check == "object")
"""Their values are made plain by the full path, so the fast one leaves them to it."""
_EXTRA_SET = _FIELD_SET - _CORE_SET - {"schema_version"}
assert _EXTRA_SET == _TURN_FACTS.keys(), "every declared field needs its check (RecordField.check)"


def _text(value: Any, limit: int) -> bool:
    return type(value) is str and 0 < len(value) <= limit and (value.isascii() or _encodable(value))


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fast(record: dict[str, Any], assign: bool, now: str | None) -> ExperienceRecord | None:
    """A copy of an ordinary record (only declared fields, plain values, all valid, at the
    current schema version), or None: then :func:`validate` takes the full path, which
    explains every problem. A bulk import spends most of its time here, so the fields every
    record carries are checked inline."""
    if SCHEMA_VERSION != 1 and version_of(record) != SCHEMA_VERSION:
        return None  # an older record: the full path migrates it (a present version: checked below)
    if not record.keys() <= _CORE_SET:
        if not record.keys() <= _FIELD_SET:
            return None
        for name in record.keys() - _CORE_SET:
            value = record[name]
            if name == "schema_version":
                if value is not None and not (type(value) is int and value == SCHEMA_VERSION):
                    return None
            elif value is not None and (name in _OBJECTS or not _TURN_FACTS[name][0](value)):
                return None  # (an object's values are made plain by the full path)
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
        _stamp(out)
    for name in ("session_id", "pattern", "threshold", "propensity"):
        if name not in out:
            out[name] = None
    return out  # type: ignore[return-value]  # every field checked above


def _stamp(out: dict[str, Any]) -> None:
    """Mark a record collected now with the schema version, once there is more than one."""
    if SCHEMA_VERSION > 1:
        out["schema_version"] = SCHEMA_VERSION


def version_of(record: Mapping[str, Any]) -> Any:
    """The record's schema version as written: 1 when it has none (or null)."""
    version = record.get("schema_version")
    return 1 if version is None else version


def migrate(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` at :data:`SCHEMA_VERSION` (itself when it is already there, or when its
    version is not one this artibot can migrate: :func:`validate` then names the problem)."""
    version = version_of(record)
    while type(version) is int and version < SCHEMA_VERSION and version in MIGRATIONS:
        record = MIGRATIONS[version](dict(record))
        version = version_of(record)
    return record


def _check_version(problems: list[Message], out: dict[str, Any]) -> dict[str, Any]:
    version = version_of(out)
    if type(version) is not int or not 1 <= version <= SCHEMA_VERSION:
        if type(version) is int and version > SCHEMA_VERSION:
            problems.append(Message("record.version_newer", version=version, current=SCHEMA_VERSION))
        else:
            problems.append(Message("record.version", current=SCHEMA_VERSION, value=repr(version)))
        return out
    out = migrate(out)
    if version_of(out) != SCHEMA_VERSION:
        problems.append(Message("record.version_no_migration", version=version, current=SCHEMA_VERSION))
    return out


def validate(record: Any, *, assign: bool = True, now: str | None = None) -> ExperienceRecord:
    """Return a validated copy of ``record`` (with ``id``/``timestamp`` assigned when ``assign``;
    ``now``: the timestamp to assign, by default the current time).

    Raises :class:`ValidationError` listing every problem, each naming its field.
    """
    if type(record) is dict:
        fast = _fast(record, assign, now)
        if fast is not None:
            return fast
    if not isinstance(record, Mapping):
        raise ValidationError([Message("record.not_object", type=type(record).__name__)])
    problems: list[Message] = []
    out: dict[str, Any] = {}
    for key, value in record.items():
        if not isinstance(key, str):
            problems.append(Message("record.field_name", key=repr(key)))
            continue
        out[key] = _plain(value, key, problems)
    out = _check_version(problems, out)

    for name in REQUIRED:
        if out.get(name) is None and name not in ("complexity", "confidence"):
            problems.append(Message("record.required", field=name))

    rid = out.get("id")
    if rid is None:
        if assign:
            out["id"] = new_id()
    elif not isinstance(rid, str) or not rid.strip() or len(rid) > 200:
        problems.append(Message("record.id", value=repr(rid)))

    ts = out.get("timestamp")
    if ts is None:
        if assign:
            out["timestamp"] = now or now_iso()
    elif not isinstance(ts, str):
        problems.append(Message("record.timestamp_type", value=repr(ts)))
    else:
        try:
            parse_timestamp(ts)
        except ValueError:
            problems.append(Message("record.timestamp", example="2026-01-31T09:30:00+09:00", value=repr(ts)))

    sid = out.get("session_id")
    if sid is not None and not isinstance(sid, str):
        problems.append(Message("record.session_id", value=repr(sid)))

    text = out.get("input")
    if text is not None and not isinstance(text, str):
        problems.append(Message("record.input", type=type(text).__name__))

    domain = out.get("domain")
    if domain is not None and (not isinstance(domain, str) or not domain.strip() or len(domain) > 64):
        problems.append(Message("record.domain", examples="frontend, backend, security, data, general",
                                value=repr(domain)))

    _check_unit(problems, out, "complexity", nullable=False)
    _check_unit(problems, out, "confidence", nullable=False)
    _check_unit(problems, out, "threshold", nullable=True)
    _check_unit(problems, out, "propensity", nullable=True, lo_open=True)

    routed = out.get("routed_to")
    if routed is not None and routed not in SYSTEMS:
        problems.append(Message("value.one_of", key="routed_to", options=_listed(SYSTEMS), value=repr(routed)))

    outcome = out.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        problems.append(Message("value.one_of", key="outcome", options=_listed(OUTCOMES), value=repr(outcome)))

    latency = out.get("latency_ms")
    if latency is not None and (not _is_number(latency) or latency < 0):
        problems.append(Message("record.latency", value=repr(latency)))

    pattern = out.get("pattern")
    if pattern is not None and (not isinstance(pattern, str) or not pattern or len(pattern) > 200):
        problems.append(Message("record.pattern", value=repr(pattern)))

    for name, (check, allowed) in _TURN_FACTS.items():
        value = out.get(name)
        if value is not None and not check(value):
            problems.append(Message(allowed, field=name, value=repr(value)))

    if problems:
        raise ValidationError(problems)

    if assign:
        _stamp(out)
    for name in ("session_id", "pattern", "threshold", "propensity"):
        out.setdefault(name, None)
    return out  # type: ignore[return-value]  # every field checked above


def _listed(options: tuple[str, ...]) -> str:
    return ", ".join(repr(o) for o in options)


def learnable(record: Mapping[str, Any]) -> bool:
    """Whether a record counts in what the learner scores (an ``interrupted`` turn does not)."""
    return record.get("outcome") != "interrupted"
