"""Step 1 of the cycle: collect experiences (validate, anonymize, append).

Every string a record carries that can hold user text is anonymized before it is stored:
the fields the record's declaration marks free text (:data:`artibot.shapes.EXPERIENCE_FIELDS`:
``input``, ``session_id``, ``pattern``, the client's words about the turn) and every string
inside undeclared extra fields (keys too). The other declared fields (``routed_to``,
``outcome``, ``domain``, ``id``, ``timestamp``, the numbers) are not: they are checked against
their schema instead. ``input`` is anonymized
*before* it is cut to :data:`~artibot.experience.MAX_INPUT_CHARS`, on a window a little
longer than the cut (so a secret straddling the cut is seen whole), which also bounds
the work for a huge prompt.

A caller-given id that is already stored (in the log or a live archive) refuses the
batch: a duplicate would make a rollback lose one of the two records. Ids artibot
assigns are unique by construction.

This module is on the hook path: it imports no numpy, scipy, typer or rich.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, cast

from artibot.errors import ValidationError
from artibot.experience import FIELDS, FREE_TEXT, MAX_INPUT_CHARS, now_iso, validate
from artibot.hookpath.privacy import anonymize, anonymize_many, anonymize_prefix
from artibot.messages import Message
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home, HomeArg

_CUT_MARK = " …[cut]"
_FIELD_SET = frozenset(FIELDS)
_KEPT = _FIELD_SET - FREE_TEXT  # schema-checked values, not free text


def _scrub(value: Any, memo: dict[str, str]) -> Any:
    """``value`` with every string anonymized (``memo``: a batch repeats the same strings)."""
    if isinstance(value, str):
        out = memo.get(value)
        if out is None:
            out = memo[value] = anonymize(value) if len(value) > 4 else value
        return out
    if isinstance(value, list):
        return [_scrub(v, memo) for v in value]
    if isinstance(value, dict):
        return {_scrub(k, memo): _scrub(v, memo) for k, v in value.items()}
    return value


def anonymize_input(text: str) -> str:
    """The request text as it is stored: anonymized, then cut to ``MAX_INPUT_CHARS`` with a
    marker; work bounded by the cut, however long ``text`` is (the prompt hook uses it too)."""
    if len(text) <= MAX_INPUT_CHARS:
        return anonymize(text)
    return anonymize_prefix(text, MAX_INPUT_CHARS) + _CUT_MARK


def _scrub_fields(out: dict[str, Any], memo: dict[str, str]) -> dict[str, Any]:
    """``out`` with every free-text field but ``input`` anonymized."""
    extra = False
    for key, value in out.items():
        if key not in _KEPT and key != "input" and value is not None:
            out[key] = _scrub(value, memo)
            extra = extra or key not in _FIELD_SET
    if extra:  # an extra field's name can carry user text too
        out = {k if k in _FIELD_SET else _scrub(k, memo): v for k, v in out.items()}
    pattern = out.get("pattern")
    if isinstance(pattern, str) and len(pattern) > 200:
        out["pattern"] = pattern[:200]  # a placeholder can be longer than what it replaced
    return out


def prepare(record: Mapping[str, Any], memo: dict[str, str] | None = None) -> dict[str, Any]:
    """A validated, anonymized copy of ``record``, ready to store (raises ValidationError)."""
    out = cast("dict[str, Any]", validate(record))  # extra fields too: read and scrubbed by name
    out["input"] = anonymize_input(out["input"])
    return _scrub_fields(out, {} if memo is None else memo)


def prepare_many(records: Iterable[Any], *, label: str = "record", input_anonymized: bool = False
                 ) -> tuple[list[dict[str, Any]], list[str]]:
    """Validate every record first; any problem rejects the whole batch, naming the record.

    Returns the prepared records and the ids the caller gave (to be checked against the store).
    The inputs are anonymized together (:func:`~artibot.hookpath.privacy.anonymize_many`): a bulk
    import pays the fixed cost of a scan once per 64 KB, not once per record.
    ``input_anonymized``: the caller anonymized every ``input`` already, as :func:`anonymize_input`
    does (the hooks, at the prompt): anonymization is idempotent, so it is not run again;
    an input longer than the cut is still cut here.
    """
    prepared: list[dict[str, Any]] = []
    given: list[str] = []
    problems: list[Message] = []
    seen: set[str] = set()
    now = now_iso()  # a batch is collected at one instant
    for i, record in enumerate(records, start=1):
        try:
            item = cast("dict[str, Any]", validate(record, now=now))
        except ValidationError as exc:
            problems.extend(Message(f"record.at_{label}", n=i, problem=p) for p in exc.said_problems)
            continue
        if item["id"] in seen:
            problems.append(Message(f"record.at_{label}", n=i, problem=Message("record.twice", id=repr(item["id"]))))
        seen.add(item["id"])
        if (type(record) is dict or isinstance(record, Mapping)) and record.get("id") is not None:
            given.append(item["id"])
        prepared.append(item)
    if problems:
        raise ValidationError(problems)
    if not input_anonymized:
        short = [k for k, item in enumerate(prepared) if len(item["input"]) <= MAX_INPUT_CHARS]
        for k, text in zip(short, anonymize_many([prepared[k]["input"] for k in short])):
            prepared[k]["input"] = text
    for item in prepared:
        if len(item["input"]) > MAX_INPUT_CHARS:
            item["input"] = anonymize_input(item["input"])
    memo: dict[str, str] = {}
    return [_scrub_fields(item, memo) for item in prepared], given


def first_problems(problems: list[Message], shown: int = 20) -> list[Message]:
    """The first ``shown`` problems of an input, and how many more there are: a line says them all."""
    return problems[:shown] + ([Message("record.more", n=len(problems) - shown)] if len(problems) > shown else [])


def collect(record: Mapping[str, Any], *, home: HomeArg = None) -> dict[str, Any]:
    """Validate, anonymize and append one experience; return the stored record.

    >>> import tempfile
    >>> stored = collect({"input": "fix typo in a@b.io's README", "domain": "docs",
    ...                   "complexity": 0.1, "routed_to": "system1", "outcome": "success",
    ...                   "latency_ms": 12, "confidence": 0.9}, home=tempfile.mkdtemp())
    >>> stored["input"]
    "fix typo in <EMAIL>'s README"
    """
    stored = prepare(record)
    given = [stored["id"]] if isinstance(record, Mapping) and record.get("id") is not None else []
    ExperienceLog(Home.of(home)).append([stored], given_ids=given)
    return stored


def collect_many(records: Iterable[Any], *, home: HomeArg = None, label: str = "record",
                 skip_stored: bool = False, input_anonymized: bool = False) -> list[dict[str, Any]]:
    """Append a batch all-or-nothing: if any record is invalid, or a given id is already
    stored, nothing is written. With ``skip_stored`` a record whose given id is already
    stored is left out instead (a hand-over replayed after a crash: each record once).
    ``input_anonymized``: see :func:`prepare_many`."""
    prepared, given = prepare_many(records, label=label, input_anonymized=input_anonymized)
    ExperienceLog(Home.of(home)).append(prepared, given_ids=given, skip_stored=skip_stored)
    return prepared


def load_experiences(*, home: HomeArg = None) -> list[dict[str, Any]]:
    """Every unprocessed experience, in the order collected."""
    return ExperienceLog(Home.of(home)).read()


STREAM_BATCH = 5000
"""Records ``collect --stdin`` prepares and appends at a time from JSON lines."""


def collect_lines(lines: Callable[[], Iterable[bytes]], *, home: HomeArg = None, batch: int | None = None) -> int:
    """Append the JSON lines ``lines()`` yields, a batch at a time, all or nothing; returns the count.

    Two passes over ``lines()`` (a file read again, or the input's bytes): the first parses and
    validates each line and keeps only the ids, so that a bad line, an id given twice or an id
    already stored refuses the whole input before anything is written; the second prepares
    (anonymizes) and appends :data:`STREAM_BATCH` records at a time. Memory holds one batch of
    records, not the input's. (A writer storing one of the given ids between the passes makes the
    batch holding it refuse, with the earlier batches stored.)"""
    import orjson

    problems: list[Message] = []
    seen: set[str] = set()
    given: list[str] = []
    now = now_iso()
    n = 0
    for line_no, line in enumerate(lines(), start=1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            problems.append(Message("record.at_line", n=line_no, problem=Message("json.invalid", reason=str(exc))))
            continue
        n += 1
        try:
            item = validate(record, now=now)
        except ValidationError as exc:
            problems.extend(Message("record.at_line", n=n, problem=p) for p in exc.said_problems)
            continue
        rid = item["id"]
        if rid in seen:
            problems.append(Message("record.at_line", n=n, problem=Message("record.twice", id=repr(rid))))
        seen.add(rid)
        if isinstance(record, Mapping) and record.get("id") is not None:
            given.append(rid)
        if len(problems) > 100:
            break
    if problems:
        raise ValidationError(first_problems(problems), where="stdin")
    del seen
    log = ExperienceLog(Home.of(home))
    log.refuse_stored(given)  # before the first batch: an id already stored refuses the whole input
    stored = 0
    batch = batch or STREAM_BATCH
    chunk: list[Any] = []
    for line in lines():
        if line.strip():
            chunk.append(orjson.loads(line))
        if len(chunk) >= batch:
            stored += _append_chunk(log, chunk)
            chunk = []
    if chunk:
        stored += _append_chunk(log, chunk)
    return stored


def _append_chunk(log: ExperienceLog, chunk: list[Any]) -> int:
    prepared, given = prepare_many(chunk, label="line")
    log.append(prepared, given_ids=given)
    return len(prepared)
