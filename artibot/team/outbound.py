"""What leaves a machine: one experience record as the row the team's database receives.

By default no free text leaves: the row carries the record's id, its timestamp (as the
member's clock says; the database orders by its own arrival sequence), domain,
complexity, route, outcome, propensity, latency, tokens and cost, and a *keyed* hash of
the pattern (HMAC-SHA-256 with the team's key): members' same patterns match in the pool,
and a copy of the table without the key cannot be searched for a guessed pattern by
hashing it. Only where the team opted in (``share_text``) does the request text go too,
as it is stored locally: already anonymized (keys, e-mail addresses, paths become
placeholders).

The row's columns are declared with the record's fields (``pool`` in
:data:`artibot.shapes.EXPERIENCE_FIELDS`); :func:`outbound_row` fills them as declared.
Pure: no files, no database; ``artibot team show`` prints exactly :func:`outbound_row`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any, Callable, Mapping, TypedDict, cast

from artibot.hookpath.inert import DOMAIN_ALPHABET, is_domain, is_pattern_hash
from artibot.team.schema import MAX_TEXT, POOL, RECORD_ID_ALPHABET


class OutboundRow(TypedDict):
    """The row of :data:`artibot.team.schema.COLUMNS` (a test holds the two equal, types included)."""

    record_id: str
    member_ts: str | None
    text: str | None
    domain: str | None
    complexity: float | None
    routed_to: str | None
    outcome: str | None
    latency_ms: float | None
    pattern_hash: str | None
    propensity: float | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None


def pattern_hash(pattern: str, key: bytes) -> str:
    """The team's keyed hash of a pattern key (hex, 128 bits: collisions are not a concern)."""
    return hmac.new(key, pattern.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


_Take = Callable[[Any, bytes, bool], Any]
_TAKE: dict[str, _Take] = {  # by PoolColumn.take: (the field's value, the team's key, share_text) -> the column's
    "id": lambda value, key, share: str(value),
    "text": lambda value, key, share: _str(value),
    "number": lambda value, key, share: _number(value),
    "count": lambda value, key, share: _whole(value),
    "hash": lambda value, key, share: pattern_hash(value, key) if isinstance(value, str) and value else None,
    "shared": lambda value, key, share: _str(value) if share else None,
}
_STEPS = tuple((field, column.take == "id", column.key, column.name, _TAKE[column.take]) for field, column in POOL)


def outbound_row(record: Mapping[str, Any], key: bytes, *, share_text: bool = False) -> OutboundRow:
    """The row sent for ``record`` (values of the wrong type go as null: the round sets them aside)."""
    row: dict[str, Any] = {}
    for field, required, part, column, take in _STEPS:
        value = record[field] if required else record.get(field)  # a record without an id is no row at all
        if part:
            value = value.get(part) if isinstance(value, Mapping) else None
        row[column] = take(value, key, share_text)
    return cast(OutboundRow, row)


_RECORD_ID = re.compile(RECORD_ID_ALPHABET)


def refusal(row: OutboundRow) -> str | None:
    """Why the team's database refuses ``row`` (its names outside the alphabet), or None: the
    same test as the database's trigger (``artibot_team.refusal``), so a push can say how many
    of its rows were refused rather than count them as already there."""
    if _RECORD_ID.fullmatch(row["record_id"]) is None:
        return f"record_id must match {RECORD_ID_ALPHABET}"
    if row["domain"] is not None and not is_domain(row["domain"]):
        return f"domain must match {DOMAIN_ALPHABET}"
    if row["pattern_hash"] is not None and not is_pattern_hash(row["pattern_hash"]):
        return "pattern_hash must be 32 lower-case hex digits"
    if any(v is not None and len(v) > n for v, n in ((row["member_ts"], 64), (row["routed_to"], 32),
                                                      (row["outcome"], 32))):
        return "member_ts, routed_to and outcome must be short values"
    if row["text"] is not None and len(row["text"]) > MAX_TEXT:
        return f"text must be at most {MAX_TEXT} characters"
    return None
