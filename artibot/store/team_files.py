"""The team's files in the data home (``team/``): membership, what was pushed, the cached team state.

* ``team/membership.json``: the database URL (never a password: libpq takes it from the
  environment, ``~/.pgpass`` or a service file), when the home joined, and whether the
  team opted in to anonymized text.
* ``team/pushed.json``: the ids of the records the team's database has acknowledged. The
  queue is the rest: every record of the log and of the archives not listed here. It
  lives in the log itself, so a database that is down for a week loses nothing; the
  pusher sends it when the database is back. Beside them, how the last push ended: its
  sentence in English and the same as a message (``said``), which ``status`` says in the
  session's language.
* ``team/state.json``: the team's latest published state as this member last pulled it,
  with the server's age of it at the pull (a member's skewed clock does not change it).
  A pulled state that does not parse is never written here: the previous one stays.

Every file is a versioned document (:mod:`artibot.store.documents`), written atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, NotRequired, TypedDict

from artibot.errors import CorruptFileError
from artibot.messages import Message
from artibot.store.documents import read_document, write_document
from artibot.store.fs import FileLock
from artibot.store.home import Home

TEAM_DIR = "team"


class Membership(TypedDict):
    url: str
    joined: str
    share_text: bool
    pattern_key: str
    """The team's key for the pattern hash (hex; not a credential: it opens no database)."""


class PushAttempt(TypedDict):
    at: str
    ok: bool
    message: str
    said: NotRequired[dict[str, Any]]
    """``message`` as a message's JSON (:meth:`artibot.messages.Message.to_json`); absent in a
    file an older artibot wrote."""


def attempt(at: str, ok: bool, said: Message) -> PushAttempt:
    """How a push ended, as ``pushed.json`` keeps it."""
    return {"at": at, "ok": ok, "message": str(said), "said": said.to_json()}


class CachedState(TypedDict):
    version: int
    round_id: str
    published_at: str
    age_s: float
    """The state's age on the server's clock when it was pulled."""
    pulled_at: str
    """The member's clock at the pull (only the time since the pull is read from it)."""
    state: dict[str, Any]
    team_domains: list[str]
    """Domains whose threshold this home took from the team and has not learned itself since."""


def team_dir(home: Home) -> Path:
    return home.root / TEAM_DIR


def any_team_files(home: Home) -> bool:
    """Whether the home has a team folder (or anything in its place) at all: without one, the
    home was never in a team and ``status`` need not load the team code."""
    import os

    return os.path.lexists(team_dir(home))


def _path(home: Home, name: str) -> Path:
    return team_dir(home) / name


def push_lock(home: Home, timeout: float = 30.0) -> FileLock:
    """Held while pushing: two pushers never send and record the same queue at once."""
    team_dir(home).mkdir(mode=0o700, exist_ok=True)
    return FileLock(_path(home, ".push.lock"), timeout=timeout, holder="another artibot team push")


def _membership_problem(doc: dict[str, Any]) -> str | None:
    if not isinstance(doc.get("url"), str) or not doc["url"]:
        return '"url" must be the database URL'
    if not isinstance(doc.get("joined"), str):
        return '"joined" must be a timestamp'
    if not isinstance(doc.get("share_text"), bool):
        return '"share_text" must be true or false'
    if not isinstance(doc.get("pattern_key"), str) or len(doc["pattern_key"]) < 32:
        return '"pattern_key" must be the team\'s key (hex)'
    return None


def read_membership(home: Home) -> Membership | None:
    doc = read_document(_path(home, "membership.json"), "team-membership", require=_membership_problem)
    if doc is None:
        return None
    return {"url": doc["url"], "joined": doc["joined"], "share_text": doc["share_text"],
            "pattern_key": doc["pattern_key"]}


def write_membership(home: Home, membership: Membership) -> None:
    home.ensure()
    team_dir(home).mkdir(mode=0o700, exist_ok=True)
    write_document(_path(home, "membership.json"), dict(membership), "team-membership")


def remove_membership(home: Home) -> bool:
    """Leave: the membership goes (renamed aside, as everything artibot removes); the learned
    state, the pushed ids and the cached team state stay."""
    path = _path(home, "membership.json")
    if not path.exists():
        return False
    path.rename(path.with_name("membership.left.json"))
    return True


def _ids_problem(doc: dict[str, Any]) -> str | None:
    ids = doc.get("ids")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return '"ids" must be a list of record ids'
    return None


def _read_pushed_doc(home: Home) -> dict[str, Any]:
    return read_document(_path(home, "pushed.json"), "team-pushed", require=_ids_problem) or {"ids": []}


def read_pushed(home: Home) -> set[str]:
    return set(_read_pushed_doc(home)["ids"])


def last_push(home: Home) -> PushAttempt | None:
    last = _read_pushed_doc(home).get("last")
    if isinstance(last, dict) and isinstance(last.get("at"), str) and isinstance(last.get("ok"), bool):
        out: PushAttempt = {"at": last["at"], "ok": last["ok"], "message": str(last.get("message", ""))}
        if isinstance(last.get("said"), dict):
            out["said"] = last["said"]
        return out
    return None


def add_pushed(home: Home, ids: Iterable[str], attempt: PushAttempt | None = None) -> int:
    """Record ``ids`` as acknowledged by the database, and the attempt (call with :func:`push_lock` held)."""
    doc = _read_pushed_doc(home)
    pushed = set(doc["ids"])
    pushed.update(ids)
    team_dir(home).mkdir(mode=0o700, exist_ok=True)
    body: dict[str, Any] = {"ids": sorted(pushed)}
    last = attempt if attempt is not None else doc.get("last")
    if last is not None:
        body["last"] = dict(last)
    write_document(_path(home, "pushed.json"), body, "team-pushed")
    return len(pushed)


def _state_problem(doc: dict[str, Any]) -> str | None:
    for key, kind in (("version", int), ("round_id", str), ("published_at", str), ("age_s", (int, float)),
                      ("pulled_at", str), ("state", dict), ("team_domains", list)):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            return f'"{key}" is missing or of the wrong type'
    return None


def read_cached_state(home: Home) -> CachedState | None:
    doc = read_document(_path(home, "state.json"), "team-state", require=_state_problem)
    if doc is None:
        return None
    return {"version": doc["version"], "round_id": doc["round_id"], "published_at": doc["published_at"],
            "age_s": float(doc["age_s"]), "pulled_at": doc["pulled_at"], "state": doc["state"],
            "team_domains": [str(d) for d in doc["team_domains"]]}


def write_cached_state(home: Home, cached: CachedState) -> None:
    team_dir(home).mkdir(mode=0o700, exist_ok=True)
    write_document(_path(home, "state.json"), dict(cached), "team-state")


def cached_state_or_problem(home: Home) -> tuple[CachedState | None, str | None]:
    """The cached team state, or the sentence saying why it cannot be read (status shows it)."""
    try:
        return read_cached_state(home), None
    except CorruptFileError as exc:
        return None, str(exc)


HEX = frozenset("0123456789abcdef")


def team_system1(home: Home) -> tuple[str, frozenset[str]]:
    """The team's System 1 table as this member's router uses it: the team's pattern key (hex)
    and the keyed hashes the cached published state has active. ``("", frozenset())`` when
    the home is not a member, nothing is cached, or a file is damaged (``status`` names it):
    the router then routes by the member's own cache and thresholds."""
    try:
        member = read_membership(home)
        cached = read_cached_state(home) if member is not None else None
    except CorruptFileError:
        return "", frozenset()
    if member is None or cached is None or not set(member["pattern_key"]) <= HEX or len(member["pattern_key"]) % 2:
        return "", frozenset()
    patterns = cached["state"].get("patterns")
    if not isinstance(patterns, dict):
        return "", frozenset()
    active = frozenset(key for key, entry in patterns.items()
                       if isinstance(key, str) and isinstance(entry, dict) and entry.get("status") == "active")
    return member["pattern_key"], active
