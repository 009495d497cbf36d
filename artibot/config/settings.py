"""The frozen settings :mod:`artibot.config` builds from ``artibot.config.json``.

Plain values, one dataclass per section of the file; :mod:`artibot.config` validates
the file, fills them and is the one place that reads the environment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from artibot.messages import Message


@dataclass(frozen=True)
class RouterSettings:
    threshold: float = 0.4
    adapt_rate: float = 0.05
    min_threshold: float = 0.1
    max_threshold: float = 0.9
    exploration: float = 0.05
    domain_exploration: float = 0.01
    """Exploration outside the band around the threshold (``cognitive.router.domainExploration``) in a
    domain the evidence learner has not rated yet; 0 turns the learned per-domain rates off too."""
    exploration_budget: float = 0.0
    """The share of requests the evidence learner's per-domain rates may explore in all, with the
    band's (``cognitive.router.explorationBudget``); 0 (the default: they measured no better)
    keeps ``domainExploration`` everywhere."""
    escalation: bool = True
    """A session's turn after a System 1 turn that failed or escalated goes to System 2
    (``cognitive.router.escalation``): the retry the person would ask for."""
    domains: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Extra domain keywords (``cognitive.router.domains``), merged over the shipped table."""


@dataclass(frozen=True)
class System1Settings:
    min_confidence: float = 0.6
    max_latency: float = 100


@dataclass(frozen=True)
class LifelongSettings:
    batch_size: int = 50
    grpo_group_size: int = 5
    mode: str = "evidence"
    system2_cost: float | None = None
    target_system2_share: float | None = None
    success_value_usd: float | None = None
    """What one successful turn is worth in dollars: with it, measured turn costs set the price."""
    min_cost_turns: int = 30
    """Turns with a measured cost each system needs before the measured price is used."""
    objective: str = "cost"
    """``"cost"``: the expected cost of a turn that gets done; ``"success"``: success less a
    price per System 2 call (:mod:`artibot.learning.objective`)."""
    redo_cost_usd: float = 0.10
    """What a redo costs the person, in dollars (``redoCostUsd``): the cost objective charges it
    to every System 1 turn that fails."""

    def chosen_objective(self) -> str:
        """``"cost"`` or ``"success"``: ``objective``, unless a price of the success objective is set
        by hand (``system2Cost``, ``targetSystem2Share``, ``successValueUsd``). Here, not in the
        learning package, because the router reads it on the prompt hook's path."""
        if self.system2_cost is not None or self.target_system2_share is not None \
                or self.success_value_usd is not None:
            return "success"
        return self.objective


@dataclass(frozen=True)
class TransferSettings:
    promotion_threshold: int = 3
    demotion_threshold: int = 2
    promotion_confidence: float = 0.8


@dataclass(frozen=True)
class CheckpointSettings:
    unattended: str = "defer"


@dataclass(frozen=True)
class ScheduleSettings:
    enabled: bool = False
    nightly_learner: str = "3 2 * * *"
    drift_check: str = "7 6 * * 1"


@dataclass(frozen=True)
class OffPolicySettings:
    """``learning.offPolicy``: the checkpoint-2 estimate of the proposed thresholds on the logged window."""

    method: str = "dr"
    level: float = 0.9
    min_support: int = 10
    window: int = 10_000


@dataclass(frozen=True)
class ValidationSettings:
    """``learning.validation``: the check of an applied round against the experiences after it."""

    window: int | None = None
    alpha: float = 0.025
    min_experiences: int = 50
    baseline: int = 10_000


@dataclass(frozen=True)
class FreshnessSettings:
    """``learning.freshness``: the System 1 cache's confidence decay (``enabled``: True, False or "auto")."""

    enabled: bool | str = "auto"
    decay_per_day: float = 0.015
    recent_uses: int = 5
    recent_failures: int = 2

    def active(self, mode: str) -> bool:
        """"auto" ages the cache in evidence mode only: the seed's literal rules stay exact."""
        return self.enabled is True or (self.enabled == "auto" and mode == "evidence")


@dataclass(frozen=True)
class GatewayServerSettings:
    """``gateway.server``: where the gateway listens and what it forwards to."""

    port: int = 41470
    upstream: str = "https://api.anthropic.com"
    openai_upstream: str = "https://api.openai.com/v1"
    """Where Codex CLI's requests go (the gateway's ``/openai`` path)."""


@dataclass(frozen=True)
class GatewayProfileSettings:
    """``gateway.profiles``: what each route changes in a turn's requests, as ``(effort, model)``
    (plain values: :func:`artibot.gateway.profiles.configured` builds the gateway's profiles)."""

    system1: tuple[str | None, str | None] | None = None
    system2: tuple[str | None, str | None] | None = None
    switch_max_cached_tokens: int = 1_000_000


@dataclass(frozen=True)
class GatewayPricingSettings:
    """``gateway.pricing``: $ per million tokens per model prefix, over the shipped table
    (:func:`artibot.gateway.price_table.configured` builds the table)."""

    models: Mapping[str, Mapping[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    lang: str = "en"
    router: RouterSettings = field(default_factory=RouterSettings)
    system1: System1Settings = field(default_factory=System1Settings)
    lifelong: LifelongSettings = field(default_factory=LifelongSettings)
    transfer: TransferSettings = field(default_factory=TransferSettings)
    checkpoints: CheckpointSettings = field(default_factory=CheckpointSettings)
    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    offpolicy: OffPolicySettings = field(default_factory=OffPolicySettings)
    validation: ValidationSettings = field(default_factory=ValidationSettings)
    freshness: FreshnessSettings = field(default_factory=FreshnessSettings)
    gateway_server: GatewayServerSettings = field(default_factory=GatewayServerSettings)
    gateway_profiles: GatewayProfileSettings = field(default_factory=GatewayProfileSettings)
    gateway_pricing: GatewayPricingSettings = field(default_factory=GatewayPricingSettings)
    source: Path | None = None
    """The config file these settings came from (None: shipped defaults only)."""
    warnings: tuple[str, ...] = ()
    """Keys that were ignored, in words (``artibot config show`` lists them)."""
    said_warnings: tuple[Message, ...] = ()
    """The same warnings, a message each (said in the session's language)."""
