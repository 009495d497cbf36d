"""The routing policy for the prompt hook, without loading the config and the state each time.

Building the policy means the config module, ``orjson``, the state files and the
public ``Router`` (with the collector behind it): about half the prompt hook's time.
The policy the last prompt hook built is kept in ``sessions/.router-cache.pickle``
(and what SessionStart shows of it in ``sessions/.router-summary.json``) with a key: size and modification time of every file it may depend on — the files
in the data home (thresholds, System 1 cache, a config file; the experience log, its
sidecar files and the spools excepted), the config files the settings are read from (``$ARTIBOT_CONFIG``,
``./artibot.config.json``), the shipped defaults, and artibot's own router code. Any
change to one of them, or a cache that does not load, rebuilds it through
:class:`artibot.learned_router.Router` — the cache can be stale by no more than a file's
modification time can lie.

The file is a pickle: it lives in the user's 0700 data home and only artibot writes it.
"""

from __future__ import annotations

import os

from artibot.names import CONFIG_NAME
from artibot.names import ROUTER_CACHE as CACHE_NAME
from artibot.names import ROUTER_CACHE_IGNORES as _NOT_STATE
from artibot.names import ROUTER_SUMMARY as SUMMARY_NAME
from artibot.store import hookio

try:  # the C pickler alone: `pickle.py` would also load `re`'s and `struct`'s modules first
    import _pickle as pickle
except ImportError:  # pragma: no cover - other Pythons
    import pickle  # type: ignore[no-redef]

FORMAT = 1


def _key(call) -> list:
    import artibot

    code = os.path.join(os.path.dirname(artibot.__file__), "router")
    shipped = os.path.join(os.path.dirname(os.path.dirname(artibot.__file__)), "config")
    config_env = os.environ.get("ARTIBOT_CONFIG")
    paths = [*hookio.files_in(call.root, skip=_NOT_STATE), *hookio.files_in(code),
             *hookio.files_in(shipped), *hookio.files_in(os.path.join(os.path.dirname(artibot.__file__), "_config")),
             os.path.join(os.getcwd(), CONFIG_NAME)]
    if config_env:
        paths.append(os.path.expanduser(config_env))
    return [FORMAT, artibot.__version__, config_env, os.getcwd(), hookio.stamps(paths)]


def load_policy(call):
    """``(policy, rng)`` as :meth:`artibot.learned_router.Router.load` would build them."""
    key = _key(call)
    data = hookio.read_cache(call.root, CACHE_NAME)
    if data is not None:
        try:
            cached_key, policy, wants_rng = pickle.loads(data)
            if cached_key == key:
                return policy, _rng(wants_rng)
        except Exception as exc:  # noqa: BLE001 - any damage: rebuild below
            call.log(f"router cache unreadable, rebuilt ({type(exc).__name__})")
    from artibot.learned_router import Router

    router = Router.load(call.home())

    def keep() -> None:
        hookio.write_cache(call.root, CACHE_NAME,
                           pickle.dumps((key, router.policy, router.rng is not None), protocol=5))
        summary = {"key": key, "summary": router.summary()}
        hookio.write_cache(call.root, SUMMARY_NAME, hookio.dumps(summary).encode("ascii"))

    call.attempt("keeping the router cache", keep)
    return router.policy, router.rng


def load_summary(call) -> dict:
    """``Router.summary()`` (thresholds, System 1 patterns) for the SessionStart context.

    Kept as JSON beside the policy, under the same key: SessionStart then loads neither
    the router nor the anonymizer.
    """
    key = _key(call)
    data = hookio.read_cache(call.root, SUMMARY_NAME)
    if data is not None:
        try:
            doc = hookio.loads(data)
            if isinstance(doc, dict) and doc.get("key") == key and isinstance(doc.get("summary"), dict):
                return doc["summary"]
        except (ValueError, UnicodeDecodeError):
            pass  # rebuilt below
    from artibot.integrations.claude_code.context import policy_summary

    return policy_summary(load_policy(call)[0])


def _rng(wanted: bool):
    if not wanted:
        return None
    import random

    return random.Random()
