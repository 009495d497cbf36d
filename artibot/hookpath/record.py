"""The one constructor of an experience record, and the one minter of its ids.

Every writer of the experience log builds its records here: the hooks (a closed turn,
:func:`artibot.hookpath.turns.turn.experience`), ``artibot outcome``, the
demo and the experiments. The record's fields are declared once, in
:class:`artibot.shapes.ExperienceRecord` and :data:`artibot.shapes.EXPERIENCE_FIELDS`;
:func:`artibot.experience.validate` checks them.

This module is on every hook's path (the prompt hook closes the previous turn), so it
imports nothing: not ``typing`` (``TYPE_CHECKING`` is a plain ``False``), not the clock
module beyond :mod:`time` and :mod:`os`, which every interpreter has loaded at start.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # not typing's: this module is on every hook's path
if TYPE_CHECKING:
    from artibot.shapes import ExperienceRecord, JsonValue


def new_id(now_ms: int | None = None) -> str:
    """A unique, roughly time-ordered id (uuid7-like: millisecond time + 64 random bits).

    ``now_ms``: the time to put in it (a hook passes the time it already read), by default now.

    >>> len(new_id(0)), new_id(0)[:16]
    (32, 'exp_000000000000')
    """
    ms = time.time_ns() // 1_000_000 if now_ms is None else now_ms
    return f"exp_{ms:012x}{os.urandom(8).hex()}"


def experience_record(*, input: str, domain: str, complexity: float, routed_to: str, outcome: str,
                      latency_ms: float, confidence: float, agent: str, id: str | None = None,
                      timestamp: str | None = None, session_id: str | None = None, pattern: str | None = None,
                      threshold: float | None = None, propensity: float | None = None,
                      route_reason: str | None = None, tools: int | None = None, tool_failures: int | None = None,
                      closed_by: str | None = None, reached_stop: bool | None = None,
                      outcome_reason: str | None = None, usage: dict[str, JsonValue] | None = None
                      ) -> ExperienceRecord:
    """An experience record, ready for :func:`artibot.collector.collect` (which validates it,
    anonymizes its free text and assigns ``id`` and ``timestamp`` when they are None).

    ``agent`` is the client the turn came from (``claude-code``, ``cli``, ``demo``...), written
    under ``source`` too: the name records carried before ``agent`` existed, which older
    readers still take. The turn's facts (``route_reason`` to ``usage``) are written only by
    the hooks; one left None is left out of the record.

    >>> r = experience_record(input="fix the typo", domain="docs", complexity=0.1, routed_to="system1",
    ...                       outcome="success", latency_ms=12, confidence=0.9, agent="cli")
    >>> sorted(k for k in r if r[k] is not None)  # doctest: +NORMALIZE_WHITESPACE
    ['agent', 'complexity', 'confidence', 'domain', 'input', 'latency_ms', 'outcome', 'routed_to', 'source']
    """
    record: dict[str, object] = {} if id is None else {"id": id}
    if timestamp is not None:
        record["timestamp"] = timestamp
    record.update(
        session_id=session_id, input=input, domain=domain, complexity=complexity, routed_to=routed_to,
        outcome=outcome, latency_ms=latency_ms, confidence=confidence, pattern=pattern, threshold=threshold,
        propensity=propensity, source=agent, agent=agent,
    )
    for name, value in (("route_reason", route_reason), ("tools", tools), ("tool_failures", tool_failures),
                        ("closed_by", closed_by), ("reached_stop", reached_stop),
                        ("outcome_reason", outcome_reason), ("usage", usage)):
        if value is not None:
            record[name] = value
    return record  # type: ignore[return-value]  # its keys are ExperienceRecord's, built by name above
