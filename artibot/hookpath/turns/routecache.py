"""The routing policy for the prompt hook, without loading the config and the state each time.

Building the policy means the config module, ``orjson``, the state files and the
public ``Router`` (with the collector behind it): about half the prompt hook's time.
The policy the last prompt hook built is kept in ``sessions/.router-cache.marshal``
(and what SessionStart shows of it in ``sessions/.router-summary.json``) with a key: size and modification time of every file it may depend on — the files
in the data home (thresholds, System 1 cache, a config file; the experience log, its
sidecar files and the spools excepted), a team member's membership and cached team state, the config files the settings are read from (``$ARTIBOT_CONFIG``,
``./artibot.config.json``), the shipped defaults, and artibot's own router code. Any
change to one of them, or a cache that does not load, rebuilds it through
:class:`artibot.learned_router.Router` — the cache can be stale by no more than a file's
modification time can lie.

The cache is written with :mod:`marshal`, not :mod:`pickle`: loading ``_pickle`` imports
``functools``, ``collections`` and ``copyreg`` (a good part of the interpreter's own start:
docs/benchmarks.md, "Costs behind the code"), ``marshal`` is built in. The policy's records are kept as their fields
(:func:`_encode`); only classes of :mod:`artibot.hookpath.router` are rebuilt from it.

The programs of the router's and the anonymizer's regular expressions are kept beside
it, in ``sessions/.regex-programs.marshal`` (:mod:`artibot.hookpath.regex`): with them the
prompt hook neither imports :mod:`re` nor compiles a pattern (each program is kept as its
own marshal bytes, decoded when its pattern is first built).

Both files live in the user's 0700 data home and only artibot writes them.
"""

from __future__ import annotations

import marshal
import os

from artibot.hookpath import regex
from artibot.hookpath.names import CONFIG_NAME
from artibot.hookpath.names import REGEX_PROGRAMS as PROGRAMS_NAME
from artibot.hookpath.names import ROUTER_CACHE as CACHE_NAME
from artibot.hookpath.names import ROUTER_CACHE_IGNORES as _NOT_STATE
from artibot.hookpath.names import ROUTER_SUMMARY as SUMMARY_NAME
from artibot.hookpath.store import hook_reads
from artibot.hookpath.store import hookio

TYPE_CHECKING = False  # not typing's: imported by every prompt hook
if TYPE_CHECKING:
    from types import EllipsisType

    from artibot.hookpath.turns.protocol import Call
    from artibot.hookpath.router.policy import RandomSource, RoutingPolicy

    Encoded = tuple[EllipsisType, str, str, dict[str, object], tuple[str, ...]]
    """A router record as :func:`_encode` writes it."""

_TEAM_FILES = ("membership.json", "state.json")
"""The team files (``team/``) a member's routing policy depends on: ``artibot.store.team_files``
reads them; not imported here (the prompt hook)."""

FORMAT = 2
PROGRAMS_FORMAT = 2
"""``(2, runtime, {(source, flags): marshal bytes of the program})``."""
MAX_PROGRAMS = 400
"""More kept programs than this means patterns that changed over many versions: start afresh."""
_ROUTER = "artibot.hookpath.router."


def _key(call: Call) -> list[object]:
    import artibot

    code = os.path.join(os.path.dirname(artibot.__file__), "hookpath", "router")
    shipped = os.path.join(os.path.dirname(os.path.dirname(artibot.__file__)), "config")
    config_env = os.environ.get("ARTIBOT_CONFIG")
    team = os.path.join(call.root, "team")  # a member's routing follows the team state its last sync cached
    paths = [*hook_reads.files_in(call.root, skip=_NOT_STATE), *(os.path.join(team, n) for n in _TEAM_FILES),
             *hook_reads.files_in(code),
             *hook_reads.files_in(shipped),
             *hook_reads.files_in(os.path.join(os.path.dirname(artibot.__file__), "_config")),
             os.path.join(os.getcwd(), CONFIG_NAME)]
    if config_env:
        paths.append(os.path.expanduser(config_env))
    return [FORMAT, artibot.__version__, config_env, os.getcwd(), hook_reads.stamps(paths)]


def load_policy(call: Call) -> tuple[RoutingPolicy, RandomSource | None]:
    """``(policy, rng)`` as :meth:`artibot.learned_router.Router.load` would build them."""
    key = _key(call)
    data = hookio.read_cache(call.root, CACHE_NAME)
    if data is not None:
        try:
            cached_key, state, wants_rng = marshal.loads(data)
            if cached_key == key:
                from artibot.hookpath.router.policy import RoutingPolicy  # loaded by _decode already

                policy = _decode(state)
                if not isinstance(policy, RoutingPolicy):
                    raise TypeError(f"{type(policy).__qualname__} is not a routing policy")
                return policy, _rng(wants_rng)
        except Exception as exc:  # noqa: BLE001 - any damage: rebuild below
            call.log(f"router cache unreadable, rebuilt ({type(exc).__name__})")
    from artibot.learned_router import Router

    router = Router.load(call.home())

    def keep() -> None:
        hookio.write_cache(call.root, CACHE_NAME,
                           marshal.dumps((key, _encode(router.policy), router.rng is not None)))
        summary = {"key": key, "summary": router.summary()}
        hookio.write_cache(call.root, SUMMARY_NAME, hookio.dumps(summary).encode("ascii"))

    call.attempt("keeping the router cache", keep)
    return router.policy, router.rng


def _encode(obj: object) -> Encoded:
    """A record of :mod:`artibot.hookpath.router` as ``(..., module, class, fields, record fields)``:
    its fields as they are (what ``marshal`` cannot write raises), records among them encoded
    in turn. (``...`` marks a record: no field of the policy holds an ``Ellipsis``.)"""
    cls = type(obj)
    if not cls.__module__.startswith(_ROUTER):
        raise TypeError(f"{cls.__qualname__} is not a record of artibot.hookpath.router")
    fields = dict(vars(obj)) if hasattr(obj, "__dict__") else {n: getattr(obj, n) for n in getattr(cls, "__slots__")}
    records = tuple(name for name, value in fields.items() if type(value).__module__.startswith(_ROUTER))
    for name in records:
        fields[name] = _encode(fields[name])
    return (..., cls.__module__, cls.__qualname__, fields, records)


def _decode(state: tuple[object, ...]) -> object:
    """The record :func:`_encode` wrote, its fields set as they were (no ``__init__`` runs,
    as with ``pickle``)."""
    marker, module, name, fields, records = state
    if (marker is not ... or not isinstance(module, str) or not module.startswith(_ROUTER)
            or not isinstance(name, str) or not isinstance(fields, dict) or not isinstance(records, tuple)):
        raise ValueError(f"not a router record: {module!r}")
    cls = getattr(__import__(module, fromlist=["_"]), name)
    obj = cls.__new__(cls)
    for field, value in fields.items():
        object.__setattr__(obj, field, _decode(value) if field in records else value)
    return obj


def preload_patterns(call: Call) -> None:
    """Make the regular expressions' programs kept by an earlier hook known (:mod:`artibot.hookpath.regex`)."""
    data = hookio.read_cache(call.root, PROGRAMS_NAME)
    if data is None:
        return
    try:
        kept = marshal.loads(data)
        if isinstance(kept, tuple) and len(kept) == 3 and kept[0] == PROGRAMS_FORMAT:
            regex.preload(kept[1], kept[2])
        # else: an earlier version's file (every program decoded at once): compiled, kept anew
    except Exception as exc:  # noqa: BLE001 - any damage: the patterns are compiled, and kept again
        call.log(f"regular expression programs unreadable, compiled again ({type(exc).__name__})")


def keep_patterns(call: Call) -> None:
    """Keep the programs of the patterns this process had to compile, for the next hook.

    Once ``re`` is loaded anyway, every pattern a prompt hook may need is compiled and
    kept — the anonymizer's rules for texts unlike this one, the follow-up judge's — so
    that later prompts compile none.
    """
    if not regex.compiled_here():
        return
    from artibot.hookpath.turns import followup  # noqa: F401 - compiles its pattern
    from artibot.hookpath.privacy import rules

    rules.compile_all()
    programs = regex.programs()
    if len(programs) > MAX_PROGRAMS:
        programs = regex.programs(known=False)
    # Each program as its own marshal bytes: the next hook decodes only those it compiles.
    kept = {key: marshal.dumps(program) for key, program in programs.items()}
    hookio.write_cache(call.root, PROGRAMS_NAME, marshal.dumps((PROGRAMS_FORMAT, regex.RUNTIME, kept)))


def load_summary(call: Call) -> dict[str, object]:
    """``Router.summary()`` (thresholds, System 1 patterns) for the SessionStart context.

    Kept as JSON beside the policy, under the same key: SessionStart then loads neither
    the router nor the anonymizer.
    """
    key = _key(call)
    data = hookio.read_cache(call.root, SUMMARY_NAME)
    if data is not None:
        try:
            doc = hookio.loads(data)
            summary = doc.get("summary") if isinstance(doc, dict) and doc.get("key") == key else None
            if isinstance(summary, dict):
                return summary
        except (ValueError, UnicodeDecodeError):
            pass  # rebuilt below
    from artibot.hookpath.turns.context import policy_summary

    return policy_summary(load_policy(call)[0])


class _SystemRandom:
    """``random()`` in [0, 1) from ``os.urandom``, 53 bits as ``random.Random`` gives them.

    The exploration draw needs nothing else, and importing :mod:`random` costs the prompt
    hook more than the draw (docs/benchmarks.md, "Costs behind the code"; ``Router.load``
    seeds a ``random.Random`` from ``os.urandom`` too).
    """

    __slots__ = ()

    def random(self) -> float:
        return (int.from_bytes(os.urandom(7), "big") >> 3) * (1.0 / (1 << 53))


def _rng(wanted: bool) -> _SystemRandom | None:
    return _SystemRandom() if wanted else None
