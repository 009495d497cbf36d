"""The routing decision: System 1 or System 2 for one request.

Rule, first match wins:

1. ``forced`` — the request asks for deliberate thinking (``--think``, ``ultrathink``,
   ``step by step``, ``깊게 생각`` ...; see :mod:`~artibot.hookpath.router.complexity`):
   System 2, confidence 1, propensity 1.
2. ``cache`` — the request's pattern key is in the System 1 cache: System 1,
   confidence :data:`CACHE_CONFIDENCE`, propensity 1. Cache hits are never explored:
   a promoted pattern leaves the cache by demotion, not by chance.
   ``team-cache`` — on a team member, the same for a pattern the team's published
   table has active (``team_cache``: keyed hashes, :mod:`~artibot.hookpath.router.team_table`)
   and the member has not decided itself (``own_patterns``: the keys its own cache has
   active or demoted; its own evidence overrides the team's, as with thresholds).
3. ``threshold`` — complexity ``c`` below the domain's threshold ``t``: System 1;
   otherwise System 2. The confidence is 0.5 at the threshold and grows linearly to 1
   at the end of the scale on the chosen side::

       System 1: 0.5 + 0.5 * (t - c) / t
       System 2: 0.5 + 0.5 * (c - t) / (1 - t)

4. ``explore`` — only with an ``rng``: near the threshold (``|c - t| <=
   EXPLORATION_BAND``) the other system is taken with probability ``e =
   exploration``; farther away with probability ``e =`` the domain's own rate in
   ``domain_rates`` (set by the learner from its evidence: high where the domain's
   call is marginal or rests on few trials, 0 where it is settled), else
   ``domain_exploration`` (a domain the learner has not rated yet). Near the
   threshold is where a step would move requests; the small rate everywhere else is
   what shows the learner a domain whose complexity score does not separate the
   systems (all its requests far on one side of any threshold), and it gives every
   request a positive probability of either system, so propensity-weighted estimates
   are unbiased. The decision records ``propensity``, the exact probability the policy
   gave to the route it took: ``1 - e`` for the greedy route, ``e`` for the flipped
   one, 1 whenever the decision was deterministic (``e = 0``, forced, cache). The
   confidence of an explored route is ``1 -`` the greedy route's confidence (at most
   0.5): the router is not confident in it, it is gathering evidence. Without an rng
   nothing is explored.

The threshold of a domain is its learned value, else the default, clamped to
``[min_threshold, max_threshold]``.
"""

from __future__ import annotations

import math

from artibot.hookpath.frozen import MappingProxyType, factory, frozen, private
from artibot.hookpath.router.complexity import keyword_index, score_tokens
from artibot.hookpath.router.domains import FALLBACK, DomainTable, KeywordIndex, normalize, tokenize
from artibot.hookpath.router.patterns import pattern_key
from artibot.hookpath.router.team_table import keyed_hash

SYSTEM1 = "system1"
SYSTEM2 = "system2"
ESCALATION = "escalation"
"""The route reason of a turn sent to System 2 because the session's System 1 turn before it failed."""
EXPLORATION_BAND = 0.15
CACHE_CONFIDENCE = 0.95
MAX_EXPLORATION = 0.5


TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module (bench_hooks.py)
if TYPE_CHECKING:
    from typing import Any, Mapping, Protocol

    class RandomSource(Protocol):
        """Anything with ``random() -> float in [0, 1)``: ``random.Random``, numpy's Generator."""

        def random(self) -> float: ...


@frozen
class Decision:
    """One routing decision and everything the experience record needs from it."""

    system: str
    complexity: float
    domain: str
    pattern: str | None
    confidence: float
    threshold: float
    propensity: float
    reason: str
    features: Mapping[str, float] = factory(dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "complexity": self.complexity,
            "domain": self.domain,
            "pattern": self.pattern,
            "confidence": self.confidence,
            "threshold": self.threshold,
            "propensity": self.propensity,
            "reason": self.reason,
            "features": dict(self.features),
        }


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@frozen
class RoutingPolicy:
    """Thresholds, the System 1 cache and the domain table: everything a decision needs.

    >>> from artibot.hookpath.router.domains import DomainTable
    >>> table = DomainTable.from_mapping({"docs": ["readme", "typo"]})
    >>> policy = RoutingPolicy(0.4, {}, frozenset(), table)
    >>> d = policy.decide("fix the typo in README.md")
    >>> d.system, d.domain, d.pattern, d.reason
    ('system1', 'docs', 'docs:fix:doc+typo', 'threshold')
    """

    default_threshold: float
    domain_thresholds: Mapping[str, float]
    cache: frozenset[str]
    table: DomainTable
    exploration: float = 0.0
    min_threshold: float = 0.1
    max_threshold: float = 0.9
    domain_exploration: float = 0.0
    """Exploration rate outside the band around the threshold, for a domain without its own rate."""
    domain_rates: Mapping[str, float] = factory(dict)
    """Per domain: the learned exploration rate outside the band (replaces ``domain_exploration``)."""
    team_cache: frozenset[str] = frozenset()
    """The keyed hashes of the patterns the team's published state has active (empty: not a member)."""
    team_key: str = ""
    """The team's pattern key (hex) the hashes are made with."""
    own_patterns: frozenset[str] = frozenset()
    """Pattern keys this member decided itself (active or demoted in its own cache): the team's table does not apply."""
    explore_system2: bool = True
    """Whether a request the threshold sends to System 1 may be explored on System 2. The cost
    objective learns from System 1's outcomes alone (trying System 1 first pays where it fails
    rarely enough, whatever System 2 would have done), so it explores only towards System 1:
    a System 2 call in place of a System 1 try that would have worked is spent for nothing."""
    escalation: bool = True
    """Whether a session's turn after a failed System 1 turn goes to System 2 (:meth:`escalate`)."""
    _keywords: KeywordIndex = private(init=False)
    """The complexity score's keyword index, held like the table's: a policy read back from
    the prompt hook's cache brings it along instead of building it."""

    def __post_init__(self) -> None:
        problems = []  # (id, its parameters): the messages are made only when one is raised
        if not (_finite(self.min_threshold) and _finite(self.max_threshold)
                and 0 <= self.min_threshold < self.max_threshold <= 1):
            problems.append(("policy.min_max", {"lo": repr(self.min_threshold), "hi": repr(self.max_threshold)}))
        if not (_finite(self.default_threshold) and 0 <= self.default_threshold <= 1):
            problems.append(("value.number_in", {"key": "default_threshold", "range": "[0, 1]",
                                                 "value": repr(self.default_threshold)}))
        for name, value in self.domain_thresholds.items():
            if not (_finite(value) and 0 <= value <= 1):
                problems.append(("policy.domain_threshold", {"domain": repr(name), "value": repr(value)}))
        for name, value in (("exploration", self.exploration), ("domain_exploration", self.domain_exploration)):
            if not (_finite(value) and 0 <= value <= MAX_EXPLORATION):
                problems.append(("value.number_in", {"key": name, "range": f"[0, {MAX_EXPLORATION}]",
                                                     "value": repr(value)}))
        for name, value in self.domain_rates.items():
            if not (_finite(value) and 0 <= value <= MAX_EXPLORATION):
                problems.append(("policy.domain_rate", {"domain": repr(name), "most": f"{MAX_EXPLORATION}",
                                                        "value": repr(value)}))
        if self.team_key and (len(self.team_key) % 2 or not set(self.team_key.lower()) <= set("0123456789abcdef")):
            problems.append(("policy.team_key", {}))
        if problems:
            from artibot.errors import InvalidInput  # errors.py loads enum: not at import
            from artibot.messages import Message

            raise InvalidInput(Message("policy.invalid", problems=tuple(Message(i, **p) for i, p in problems)))
        object.__setattr__(self, "domain_thresholds", dict(self.domain_thresholds))
        object.__setattr__(self, "domain_rates", dict(self.domain_rates))
        object.__setattr__(self, "cache", frozenset(self.cache))
        object.__setattr__(self, "team_cache", frozenset(self.team_cache) if self.team_key else frozenset())
        object.__setattr__(self, "own_patterns", frozenset(self.own_patterns))
        object.__setattr__(self, "_keywords", keyword_index())

    def threshold_for(self, domain: str) -> float:
        """The domain's learned threshold, else the default, clamped to [min, max]."""
        value = self.domain_thresholds.get(domain, self.default_threshold)
        return float(min(self.max_threshold, max(self.min_threshold, value)))

    def far_exploration(self, domain: str) -> float:
        """The domain's exploration rate away from its threshold: its learned rate, else the configured one."""
        return float(self.domain_rates.get(domain, self.domain_exploration))

    def exploration_rate(self, complexity: float, threshold: float, domain: str | None = None) -> float:
        """The probability of taking the other system at this complexity (before the rng is asked)."""
        if abs(complexity - threshold) <= EXPLORATION_BAND:
            return self.exploration
        return self.far_exploration(domain) if domain is not None else self.domain_exploration

    def decide(self, text: str, domain: str | None = None, rng: RandomSource | None = None) -> Decision:
        """Route ``text`` (already anonymized); ``domain`` overrides the classification."""
        norm = normalize(text)
        tokens = tokenize(norm)
        touched = self.table.touched_tokens(tokens)
        if domain is not None and domain.strip():
            domain = domain.strip().lower()
        else:
            domain = touched[0] if touched else FALLBACK
        cx = score_tokens(norm, tokens, max(1, len(touched)), self._keywords)
        return self.decide_scored(cx.score, domain, pattern_key(text, domain), rng,
                                  forced=cx.forced, features=cx.features)

    def decide_scored(self, complexity: float, domain: str, pattern: str | None = None,
                      rng: RandomSource | None = None, *, forced: str | None = None,
                      features: Mapping[str, float] | None = None) -> Decision:
        """The same rule for a request already scored (simulations and replays give the complexity)."""
        threshold = self.threshold_for(domain)
        feats = features if features is not None else MappingProxyType({})

        def decision(system: str, confidence: float, propensity: float, reason: str) -> Decision:
            return Decision(system=system, complexity=complexity, domain=domain, pattern=pattern,
                            confidence=confidence, threshold=threshold, propensity=propensity,
                            reason=reason, features=feats)

        if forced:
            return decision(forced, 1.0, 1.0, "forced")
        if pattern is not None and pattern in self.cache:
            return decision(SYSTEM1, CACHE_CONFIDENCE, 1.0, "cache")
        if pattern is not None and self.team_cache and pattern not in self.own_patterns \
                and keyed_hash(pattern, self.team_key) in self.team_cache:
            return decision(SYSTEM1, CACHE_CONFIDENCE, 1.0, "team-cache")
        c, t = complexity, threshold
        if c < t:
            greedy, other = SYSTEM1, SYSTEM2
            confidence = 0.5 + 0.5 * ((t - c) / t if t > 0 else 1.0)
        else:
            greedy, other = SYSTEM2, SYSTEM1
            confidence = 0.5 + 0.5 * ((c - t) / (1 - t) if t < 1 else 0.0)
        confidence = min(1.0, max(0.5, confidence))
        e = self.exploration_rate(c, t, domain) if greedy == SYSTEM2 or self.explore_system2 else 0.0
        if rng is None or e <= 0:
            return decision(greedy, confidence, 1.0, "threshold")
        if rng.random() < e:
            return decision(other, 1.0 - confidence, e, "explore")
        return decision(greedy, confidence, 1.0 - e, "threshold")

    def escalate(self, decision: Decision) -> Decision:
        """The decision for a session's next turn after a System 1 turn that failed or escalated:
        System 2 by a deterministic rule (propensity 1, ``reason`` ``"escalation"``), the retry
        the person would ask for. Unchanged when the rule is off or the turn goes to System 2
        anyway (a System 2 route keeps its own reason and propensity).

        >>> from artibot.hookpath.router.domains import DomainTable
        >>> policy = RoutingPolicy(0.4, {}, frozenset(), DomainTable.from_mapping({"docs": ["typo"]}))
        >>> d = policy.escalate(policy.decide("fix the typo"))
        >>> d.system, d.propensity, d.reason
        ('system2', 1.0, 'escalation')
        """
        if not self.escalation or decision.system == SYSTEM2:
            return decision
        return Decision(system=SYSTEM2, complexity=decision.complexity, domain=decision.domain,
                        pattern=decision.pattern, confidence=decision.confidence, threshold=decision.threshold,
                        propensity=1.0, reason=ESCALATION, features=decision.features)
