"""The gateway's files: the session spool (which turn a request belongs to, and its cost) and its pid file.

The prompt hook opens a turn in ``sessions/<sid>.json`` before Claude Code sends the
turn's first request, so the gateway finds the turn there by the request's session id.
Reads take a snapshot without the lock (spools are replaced by rename, never written in
place); the writes take the spool's lock with a short timeout, the same lock the hooks
use, so a hook and the gateway never lose each other's change:

* :func:`fix_turn` — at a turn's first request, the profile the whole turn runs on; at a
  sub-agent's first request, the turn that launched it and the agent's own profile (the
  agent id Claude Code sends with each of its requests, kept in the session's
  ``gateway.agents`` as ``{"turn": id, "gateway": {…}}``: the agent's later requests stay
  with that turn and that profile however long it runs, after the turn has gone to the
  queue for the log too, where a record keeps no profile);
* :func:`note_agent_tool` — a sub-agent's tool call (from the tool hooks): whether its last
  one failed, which the next sub-agent's profile weighs;
* :func:`add_usage` — after each response, its tokens, cost and timing, added to the
  turn (open, stopped, or already waiting in the queue for the log) and, for the main
  conversation, to the session's running state (the model and top-level effort it is on,
  its cached prefix, its last request's tokens and routes: what the switch rule weighs).

A usage whose turn has already gone to the experience log (only a request still running
when its session ended) is reported back as not attributed; the caller counts it.
Everything read from a spool is checked for its shape: a field of another shape (a spool
written by another version) reads as absent, never as an error.
"""

from __future__ import annotations

import os

from artibot.hookpath.store import hook_reads
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's own: the hooks import this module when the gateway is on (bench_hooks.py)
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping

    Choose = Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any]]
    ChooseAgent = Callable[[dict[str, Any], Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]

LOCK_TIMEOUT_S = 1.0
"""A hook holds a spool lock for a millisecond or two; a request must not wait for more."""

MAX_AGENTS = 64
"""Sub-agent ids kept per session (the oldest go first)."""


def _current(doc: Mapping[str, Any]) -> dict[str, Any] | None:
    for key in ("turn", "done"):
        turn = doc.get(key)
        if isinstance(turn, dict) and isinstance(turn.get("id"), str):
            return turn
    return None


def _state(doc: dict[str, Any]) -> dict[str, Any]:
    state = doc.get("gateway")
    if not isinstance(state, dict):
        state = doc["gateway"] = {}
    return state


def _fixed(turn: Mapping[str, Any]) -> dict[str, Any] | None:
    fixed = turn.get("gateway")
    return fixed if isinstance(fixed, dict) and isinstance(fixed.get("profile"), dict) else None


def _agents(doc: Mapping[str, Any]) -> dict[str, Any]:
    state = doc.get("gateway")
    agents = state.get("agents") if isinstance(state, dict) else None
    return agents if isinstance(agents, dict) else {}


def _bound(doc: Mapping[str, Any], entry: Any) -> dict[str, Any] | None:
    """A sub-agent's binding as a request reads it: ``{"id": turn id, "gateway": profile}``.
    An entry of an earlier version (the turn id alone) takes the turn's profile, while the
    turn is still in the spool with one."""
    if isinstance(entry, dict) and isinstance(entry.get("turn"), str) and _fixed(entry) is not None:
        return {"id": entry["turn"], "gateway": entry["gateway"]}
    if isinstance(entry, str):
        turn = _find(doc, entry)
        if turn is not None and _fixed(turn) is not None:
            return {"id": entry, "gateway": turn["gateway"]}
    return None


def read_turn(root: str, session_id: str, agent_id: str | None = None) -> dict[str, Any] | None:
    """Without the lock: the turn a request belongs to with its fixed profile (a sub-agent's
    binding, :func:`_bound`, for ``agent_id``), when both are already settled (the common
    case); None when :func:`fix_turn` must settle them."""
    try:
        doc = hookio.Spool(root, session_id).read()
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    if agent_id is not None:
        return _bound(doc, _agents(doc).get(agent_id))
    turn = _current(doc)
    return turn if turn is not None and _fixed(turn) is not None else None


def read_session(root: str, session_id: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """Without the lock: the session's current turn (None when there is none) and its gateway
    state (``{}`` when there is none), for a request that reads both (Codex CLI's)."""
    try:
        doc = hookio.Spool(root, session_id).read()
    except ValueError:
        return None, {}
    if not isinstance(doc, dict):
        return None, {}
    state = doc.get("gateway")
    return _current(doc), state if isinstance(state, dict) else {}


def open_turn(root: str, session_id: str) -> dict[str, Any] | None:
    """The session's turn that a request now belongs to: the open one, else the one that
    last stopped (its background sub-agents may still run); None when there is none."""
    try:
        doc = hookio.Spool(root, session_id).read()
    except ValueError:
        return None  # a damaged spool: the next hook quarantines it; the request goes through untouched
    return _current(doc) if isinstance(doc, dict) else None


def _find(doc: Mapping[str, Any], turn_id: str) -> dict[str, Any] | None:
    for key in ("turn", "done"):
        turn = doc.get(key)
        if isinstance(turn, dict) and turn.get("id") == turn_id:
            return turn
    queue = doc.get("queue")
    for record in queue if isinstance(queue, list) else ():
        if isinstance(record, dict) and record.get("id") == turn_id:
            return record
    return None


def fix_turn(root: str, session_id: str, choose: Choose, agent_id: str | None = None,
             choose_agent: ChooseAgent | None = None) -> dict[str, Any] | None:
    """The turn a request belongs to, with the profile fixed for it: the one already fixed,
    else ``choose(session_state, turn)`` stored on the turn. A sub-agent's request
    (``agent_id``) belongs to the turn that launched it: the binding already made, else the
    current turn, which it is then bound to with its own profile,
    ``choose_agent(session_state, turn, turn's profile)`` (the turn's profile without it);
    the answer is then the binding (:func:`_bound`). None when there is no turn."""
    with hookio.Spool(root, session_id).edit(create=False, timeout=LOCK_TIMEOUT_S) as doc:
        if not isinstance(doc, dict):
            return None
        agents: dict[str, Any] = {}
        if agent_id is not None:
            found = _state(doc).get("agents")
            agents = found if isinstance(found, dict) else {}
            _state(doc)["agents"] = agents
            bound = _bound(doc, agents.get(agent_id))
            if bound is not None:
                return bound
        turn = _current(doc)
        if turn is None:
            return None
        if _fixed(turn) is None:
            turn["gateway"] = choose(_state(doc), turn)
        if agent_id is None:
            return turn
        own = choose_agent(_state(doc), turn, turn["gateway"]) if choose_agent is not None else turn["gateway"]
        agents[agent_id] = {"turn": turn["id"], "gateway": own}
        while len(agents) > MAX_AGENTS:
            del agents[next(iter(agents))]
        return {"id": turn["id"], "gateway": own}


def agents_failed_on(doc: Mapping[str, Any], model: str) -> int:
    """How many of the session's sub-agents on ``model`` had their last tool call fail."""
    return sum(1 for entry in _agents(doc).values() if isinstance(entry, dict) and entry.get("last_failed") is True
               and isinstance(entry.get("gateway"), dict) and isinstance(entry["gateway"].get("profile"), dict)
               and entry["gateway"]["profile"].get("model") == model)


def note_agent_tool(root: str, session_id: str, agent_id: str, *, failed: bool) -> None:
    """A sub-agent's tool call ended: its binding keeps whether the last one failed. Nothing is
    written for an agent the gateway has not bound, nor when nothing changes."""
    spool = hookio.Spool(root, session_id)
    try:
        doc = spool.read()
    except ValueError:
        return
    entry = _agents(doc).get(agent_id) if isinstance(doc, dict) else None
    if not isinstance(entry, dict) or bool(entry.get("last_failed")) is failed:
        return
    with spool.edit(create=False, timeout=LOCK_TIMEOUT_S) as live:
        entry = _agents(live).get(agent_id) if isinstance(live, dict) else None
        if isinstance(entry, dict):
            entry["last_failed"] = failed


def _count(value: Any) -> int:
    """A count in the spool: absent is 0, another shape an error (nothing is then recorded)."""
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"a count of the wrong shape in a session spool ({type(value).__name__})")


TOKENS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _advance(state: dict[str, Any], entry: Mapping[str, Any], *, turn_request: bool) -> int:
    """Move the session's state past one main-conversation response; the tokens it wrote to the
    cache beyond what it added to the conversation (a rewrite of the prefix)."""
    prompt = sum(_count(entry.get(k)) for k in TOKENS if k != "output_tokens")
    added = max(prompt - _count(state.get("prompt_tokens")), 0) if "prompt_tokens" in state else prompt
    excess = max(_count(entry.get("cache_creation_input_tokens")) - added, 0)
    model = entry.get("model")
    if isinstance(model, str):
        state["model"] = model
    effort = entry.get("sent_effort")
    if isinstance(effort, str):
        state["effort"] = effort
    state["cached_tokens"] = _count(entry.get("cached_tokens"))
    state["prompt_tokens"] = prompt
    state["last"] = {k: _count(entry.get(k)) for k in TOKENS}
    if turn_request:
        state["requests"] = _count(state.get("requests")) + 1
    return excess


def add_usage(root: str, session_id: str, turn_id: str | None, entry: Mapping[str, Any],
              accumulate: Callable[[Any, Mapping[str, Any]], dict[str, Any]], *, kind: str = "turn",
              empty: Callable[[], dict[str, Any]] = dict) -> bool:
    """Add one response's ``entry`` to its turn (``turn_id``) and to the session state.

    ``kind`` is ``turn`` (the main conversation's turn work), ``agent`` (a sub-agent's: its
    own conversation, so the session's cache state does not move; added to the turn and to
    its ``usage.agents`` too) or ``housekeeping`` (the
    client's compaction: added to the turn's ``usage.housekeeping``, not to its own cost).
    True when the turn was found."""
    spool = hookio.Spool(root, session_id)
    with spool.edit(create=False, timeout=LOCK_TIMEOUT_S) as doc:
        if not isinstance(doc, dict):
            return False
        item = dict(entry)
        turn = _find(doc, turn_id) if turn_id is not None else None
        usage = turn.get("usage") if turn is not None else None
        if kind != "agent":
            excess = _advance(_state(doc), entry, turn_request=kind == "turn")
            price = entry.get("rewrite_price")
            first = not (isinstance(usage, dict) and _count(usage.get("requests")))
            if excess and kind == "turn" and first:  # the turn's first request wrote more than it added
                item["rewrite_tokens"] = excess
                item["rewrite_cost_usd"] = excess * price if isinstance(price, (int, float)) else None
        if turn is None:
            return False
        if kind == "housekeeping":
            usage = dict(usage) if isinstance(usage, dict) else empty()
            usage["housekeeping"] = accumulate(usage.get("housekeeping"), item)
            turn["usage"] = usage
        else:
            total = accumulate(usage, item)
            if kind == "agent":  # in the turn's own cost, and on a line of its own as well
                total["agents"] = accumulate(total.get("agents"), item)
            turn["usage"] = total
        return True


def count_turn(state: dict[str, Any], route: str | None) -> None:
    """Count one more routed turn on ``route`` in the session state (inside :func:`fix_turn`'s ``choose``)."""
    turns = state.get("turns")
    if not isinstance(turns, dict):
        turns = state["turns"] = {}
    key = route if route in ("system1", "system2") else "other"
    turns[key] = _count(turns.get(key)) + 1


# --------------------------------------------------------------------- the running gateway
def openai_upstream_path(root: str) -> str:
    """Where ``install codex-cli --gateway`` keeps the OpenAI upstream (the ``base_url`` of the
    Codex CLI provider it replaced): in the data home, so that whichever hook started the
    gateway (Claude Code's or Codex CLI's), it forwards Codex CLI's requests there."""
    return f"{root}/run/openai-upstream"


def openai_upstream_stamp(root: str) -> tuple[int, int, int] | None:
    """What tells a change of the kept OpenAI upstream (mtime, size, inode); None when there is none."""
    try:
        info = os.stat(openai_upstream_path(root))
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def read_openai_upstream(root: str) -> str | None:
    """The kept OpenAI upstream, if any (an http(s) URL on its first line; anything else: none)."""
    try:
        data = hookio.read_file(openai_upstream_path(root))
    except OSError:
        return None
    try:
        text = (data or b"").decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    if not text.startswith(("http://", "https://")) or any(c in text for c in " \t\r\n?#"):
        return None
    return text.rstrip("/")


def pid_path(root: str, port: int) -> str:
    return f"{root}/run/gateway-{int(port)}.pid"


def write_pid(root: str, port: int, pid: int) -> None:
    """Say that ``pid`` serves ``port`` (read by the hooks to tell whether to start one)."""
    hookio.ensure_dir(root)
    hookio.ensure_dir(f"{root}/run")
    hookio.write_file(pid_path(root, port), f"{pid}\n".encode("ascii"))


def read_pid(root: str, port: int) -> int | None:
    """The pid in ``port``'s pid file if that process is alive, else None. Alive is not
    proof that it is the gateway (a reboot reuses pids): :func:`gateway_pid` checks that."""
    try:
        data = hookio.read_file(pid_path(root, port))
    except OSError:
        return None
    try:
        pid = int(data or b"")
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return None
    except PermissionError:
        return pid  # alive, another user's: the port is taken either way
    return None if _zombie(pid) else pid


def _zombie(pid: int) -> bool:
    """A killed gateway whose parent has not reaped it yet (a detached child waits for init,
    and a container's init may never reap) still answers signal 0: its state says it is dead."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False  # no /proc (macOS): signal 0 is all there is
    return stat[stat.rfind(b")") + 2:stat.rfind(b")") + 3] in (b"Z", b"X")


def gateway_pid(root: str, port: int) -> int | None:
    """The pid in ``port``'s pid file if it is a live gateway process of ours for that port
    (its command line says so), else None: the only process the hooks ever signal."""
    pid = read_pid(root, port)
    if pid is None or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except OSError:  # another user's (PermissionError) or gone
        return None
    args = _command_line(pid)
    if args is None or "artibot.cli.gateway_main" not in args:
        return None
    if "--port" in args:
        at = args.index("--port")
        return pid if args[at + 1:at + 2] == [str(int(port))] else None
    return pid  # started without --port (the configured one): the pid file's port is its


def _command_line(pid: int) -> list[str] | None:
    """The arguments of process ``pid`` (``/proc``; ``ps`` where there is none)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode("utf-8", "replace").split("\0")
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None  # /proc is there: the process is gone
    except OSError:
        return None
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "command=", "-p", str(pid)], capture_output=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", "replace").split() or None


def token_path(root: str) -> str:
    return f"{root}/run/gateway.token"


def read_token(root: str) -> str | None:
    """The data home's gateway token (None before any gateway ran here)."""
    try:
        data = hookio.read_file(token_path(root))
    except OSError:
        return None
    token = (data or b"").strip().decode("ascii", "replace")
    return token if len(token) == 64 else None


def ensure_token(root: str) -> str:
    """The data home's gateway token, created (0600, never replaced) if missing: a health
    answer proves with it that the gateway belongs to this data home."""
    token = read_token(root)
    if token is not None:
        return token
    hookio.ensure_dir(root)
    hookio.ensure_dir(f"{root}/run")
    path = token_path(root)
    tmp = f"{path}.{os.getpid()}.tmp"
    hookio.write_file(tmp, os.urandom(32).hex().encode("ascii") + b"\n")
    try:
        os.link(tmp, path)  # never over a token another gateway has just written
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    token = read_token(root)
    if token is None:
        raise hookio.HookIOError(f"{path} does not hold a gateway token (64 hex digits): remove it")
    return token


def remove_pid(root: str, port: int, pid: int) -> None:
    """Remove the pid file if it still names ``pid`` (a newer gateway's stays)."""
    try:
        data = hookio.read_file(pid_path(root, port))
        if data is not None and data.strip() == str(pid).encode():
            os.unlink(pid_path(root, port))
    except OSError:
        pass


def remove_stale_pid(root: str, port: int) -> None:
    """Remove ``port``'s pid file when it names no gateway of ours (a crash, a reboot)."""
    if gateway_pid(root, port) is None:
        try:
            os.unlink(pid_path(root, port))
        except OSError:
            pass


def ports(root: str) -> list[int]:
    """The ports with a gateway pid file in this data home."""
    names = hook_reads.files_in(f"{root}/run")
    out = []
    for path in names:
        name = path.rsplit("/", 1)[-1]
        if name.startswith("gateway-") and name.endswith(".pid") and name[8:-4].isdigit():
            out.append(int(name[8:-4]))
    return out
