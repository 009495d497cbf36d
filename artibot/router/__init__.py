"""The router: complexity score, domain, pattern key and the System 1 / System 2 decision.

Pure and light on purpose: it runs in the Claude Code ``UserPromptSubmit`` hook on every
prompt, so it does no file, clock or environment I/O and imports only the standard
library (no numpy, scipy, typer, rich or pydantic). Thresholds, the System 1 cache and
the keyword table come in as values; randomness comes in as an ``rng`` argument.
"""

from artibot.router.complexity import Complexity, score
from artibot.router.domains import DOMAIN_NAMES, DomainTable
from artibot.router.patterns import pattern_key
from artibot.router.policy import EXPLORATION_BAND, Decision, RoutingPolicy

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
