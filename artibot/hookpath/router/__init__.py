"""The router: complexity score, domain, pattern key and the System 1 / System 2 decision.

Pure and light on purpose: it runs in the Claude Code ``UserPromptSubmit`` hook on every
prompt, so it does no file, clock or environment I/O and imports only the standard
library (no numpy, scipy, typer, rich or pydantic). Thresholds, the System 1 cache and
the keyword table come in as values; randomness comes in as an ``rng`` argument.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` itself costs start-up time
if TYPE_CHECKING:
    from artibot.hookpath.router.complexity import Complexity, score
    from artibot.hookpath.router.domains import DOMAIN_NAMES, DomainTable
    from artibot.hookpath.router.patterns import pattern_key
    from artibot.hookpath.router.policy import EXPLORATION_BAND, Decision, RoutingPolicy

# Each name's submodule, imported on first use: a command that only reads the thresholds
# (``artibot status`` imports ``artibot.hookpath.router.thresholds``) need not load the scorer, the
# keyword table and the pattern keys (tens of milliseconds of its start-up).
_WHERE = {"Complexity": "complexity", "score": "complexity", "DOMAIN_NAMES": "domains", "DomainTable": "domains",
          "pattern_key": "patterns", "EXPLORATION_BAND": "policy", "Decision": "policy", "RoutingPolicy": "policy"}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'artibot.hookpath.router' has no attribute {name!r}")
    value = getattr(__import__(f"artibot.hookpath.router.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "Complexity",
    "DOMAIN_NAMES",
    "Decision",
    "DomainTable",
    "EXPLORATION_BAND",
    "RoutingPolicy",
    "pattern_key",
    "score",
]
