"""The public :class:`Router`: the pure routing policy loaded with the learned state.

``Router.load()`` reads ``thresholds.json`` and ``system1-patterns.json`` (the state the
last applied round left) and the settings; ``route()`` anonymizes the text, then asks
the pure :class:`~artibot.hookpath.router.policy.RoutingPolicy`. On the hook path: no numpy.
It lives beside ``hookpath/router/``, not in it, because it reads the store and ``hookpath/router/`` does no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from artibot.store.home import Home, HomeArg
from artibot.config import load_domain_keywords, load_settings
from artibot.experience import MAX_INPUT_CHARS
from artibot.hookpath.privacy import anonymize_prefix
from artibot.hookpath.router import Decision, DomainTable, RoutingPolicy
from artibot.hookpath.router.thresholds import Thresholds
from artibot.config.settings import Settings
from artibot.store.learned.system1_cache import active_patterns, decided_patterns, read_system1_patterns
from artibot.store.team_files import team_system1
from artibot.store.learned.thresholds_file import load_thresholds


@dataclass
class Router:
    """Routes requests with the learned thresholds and System 1 cache.

    >>> import tempfile
    >>> router = Router.load(tempfile.mkdtemp())
    >>> router.route("fix the typo in the README").system
    'system1'
    """

    policy: RoutingPolicy
    settings: Settings
    home: Home | None = None
    rng: random.Random | None = None

    @classmethod
    def load(cls, home: HomeArg = None, *, settings: Settings | None = None,
             rng: random.Random | None = None) -> "Router":
        h = Home.of(home)
        settings = settings or load_settings(h.root)
        thresholds = load_thresholds(h, settings.router.threshold)
        doc = read_system1_patterns(h)
        team_key, team_cache = team_system1(h)  # the team's table as the last sync cached it: no database
        policy = build_policy(settings, thresholds, active_patterns(doc), team=(team_key, team_cache),
                              own=decided_patterns(doc))
        if rng is None and (settings.router.exploration > 0 or settings.router.domain_exploration > 0
                            or any(v > 0 for v in policy.domain_rates.values())):
            rng = random.Random()
        return cls(policy=policy, settings=settings, home=h, rng=rng)

    def route(self, text: str, domain: str | None = None) -> Decision:
        # the policy reads the text the log would keep: the work is bounded however long the prompt
        return self.policy.decide(anonymize_prefix(text, MAX_INPUT_CHARS), domain=domain, rng=self.rng)

    def summary(self) -> dict[str, Any]:
        return {
            "thresholds": {"default": self.policy.default_threshold,
                           "domains": dict(self.policy.domain_thresholds)},
            "system1_patterns": sorted(self.policy.cache),
        }


def build_policy(settings: Settings, thresholds: Thresholds, cache: frozenset[str], *,
                 team: tuple[str, frozenset[str]] = ("", frozenset()), own: frozenset[str] = frozenset()
                 ) -> RoutingPolicy:
    """The policy; ``team``: the team's pattern key and the keyed hashes its table has active,
    which route by the team's table the patterns this home has not decided itself (``own``)."""
    table = DomainTable.from_mapping(load_domain_keywords(), settings.router.domains)
    return RoutingPolicy(
        default_threshold=thresholds.default,
        domain_thresholds=dict(thresholds.domains),
        cache=cache,
        table=table,
        exploration=settings.router.exploration,
        domain_exploration=settings.router.domain_exploration,
        domain_rates=dict(thresholds.exploration),
        min_threshold=settings.router.min_threshold,
        max_threshold=settings.router.max_threshold,
        team_cache=team[1],
        team_key=team[0],
        own_patterns=own,
        explore_system2=settings.lifelong.chosen_objective() != "cost",
        escalation=settings.router.escalation,
    )
