"""One round of the seed's literal learning algorithm (``mode: "seed"``, kept exact).

:func:`propose_round` computes everything a round would change — groups, threshold
steps, pattern stats and automatic transfer decisions — and changes nothing: the cycle
asks the checkpoints, then persists what was accepted (the new thresholds, and
:func:`apply_decisions` over ``patterns_after`` with the final actions).
"""

from __future__ import annotations

from typing import Mapping

from artibot.config.settings import Settings
from artibot.learning.batching import batch_plan, make_groups
from artibot.learning.frame import Frame
from artibot.learning.learner import Learned, RoundOptions, own_state
from artibot.learning.learner_state import SeedState
from artibot.learning.round_params import RoundParams
from artibot.learning.grpo import batch_advantages, group_results, group_stats
from artibot.learning.threshold_steps import apply_steps
from artibot.learning.transfer import apply_decisions, decide_round, update_patterns
from artibot.learning.types import DEFAULT_KEY, PatternStats, RoundProposal, Thresholds

__all__ = ["LEARNER", "SeedLearner", "propose_round", "apply_decisions"]

MODE = "seed"


class SeedLearner:
    """The seed's rule (:class:`artibot.learning.learner.Learner`); it keeps no state of its own."""

    MODE = MODE

    def initial(self) -> SeedState:
        return SeedState()

    def propose(self, frame: Frame, state: Learned, settings: Settings,
                options: RoundOptions = RoundOptions()) -> tuple[RoundProposal, Learned]:
        """:func:`propose_round` (``options.measured`` is not used: the seed's rule has no price)."""
        proposal = propose_round(frame, state.thresholds, state.patterns, settings, flush=options.flush)
        return proposal, Learned(proposal.new, proposal.patterns_after, own_state(state, SeedState))


LEARNER = SeedLearner()


def propose_round(frame: Frame, thresholds: Thresholds, patterns: Mapping[str, PatternStats],
                  settings: Settings, *, flush: bool = False) -> RoundProposal:
    """Process every full batch of ``frame`` (and the remainder when ``flush``) in timestamp order.

    Deterministic, and none of the arguments is modified.
    """
    lifelong = settings.lifelong
    processed, n_batches = batch_plan(len(frame), lifelong.batch_size, flush)
    groups = make_groups(frame.domain[:processed], frame.complexity[:processed], lifelong.batch_size,
                         lifelong.grpo_group_size)
    stats = group_stats(groups, frame.system2[:processed], frame.success[:processed],
                        frame.complexity[:processed])
    batches = group_results(groups, stats, frame.domains, n_batches)

    adv = batch_advantages(groups, stats)
    names = (*frame.domains, DEFAULT_KEY)  # code -1 is the default threshold
    steps, new = apply_steps(thresholds, adv.batch, [names[c] for c in adv.code.tolist()], adv.advantage,
                             settings.router)

    after, seen = update_patterns(frame, processed, patterns)
    decisions = decide_round(after, seen, settings)
    router, transfer = settings.router, settings.transfer
    params = RoundParams({
        "batch_size": lifelong.batch_size, "group_size": lifelong.grpo_group_size, "flush": flush,
        "adapt_rate": router.adapt_rate, "min_threshold": router.min_threshold,
        "max_threshold": router.max_threshold, "promotion_threshold": transfer.promotion_threshold,
        "demotion_threshold": transfer.demotion_threshold,
        "promotion_confidence": transfer.promotion_confidence,
        "min_confidence": settings.system1.min_confidence,
    })
    return RoundProposal(
        mode=MODE, batches=batches, steps=steps, old=thresholds, new=new,
        processed_ids=frame.ids[:processed], remainder=len(frame) - processed,
        patterns_before=patterns, patterns_after=after, decisions=decisions, params=params,
    )
