"""One round of the evidence learner (``mode: "evidence"``, the default).

Same inputs, outputs, checkpoints and files as the seed's rule
(:func:`artibot.learning.seed_mode.propose_round`); different statistics.

**What it optimizes.** By default (``objective: "cost"``) the expected cost of a turn that
gets done: System 1 first where ``c1 + (1 - p1)(c2 + redo) < c2``, i.e. per bin System 2's gain
is System 1's failure rate ``1 - p1`` and its price the break-even rate ``(c2 - c1) / (c2 +
redo)`` (:mod:`artibot.learning.objective`), with a break-even gap prior where no other domain pools
in, and escalated retries left out of the evidence. With the success objective, utility per
request = ``P(success) - price * [System 2]``. The price is ``learning.lifelong.system2Cost``; with ``targetSystem2Share`` instead, the
price is the one at which the best thresholds would send that share of the traffic to
System 2 (a budget); with neither, it is *estimated from the logged data*: System 2's
average advantage in the traffic, stratified by (domain, complexity bin) and shrunk
toward 0.05 (:func:`artibot.learning.empirical_bayes.estimated_price`); measured turn costs, when
there are enough, take the estimate's place. :mod:`artibot.learning.objective` decides it, and
``params.price`` (a :class:`~artibot.learning.objective.Price`) says which. The seed's rule is the special case ``price = 0`` driven by noise.

**Evidence.** Per domain and complexity bin (0.05 wide), the counts of System 1 and
System 2 trials and successes, accumulated over rounds (see
:mod:`artibot.learning.bandit`: exponential forgetting with a half-life of 1,000 of the
domain's records, and a reset of a domain-system whose new outcomes contradict its
history by a Bonferroni-corrected z-test). Records of patterns in the System 1 cache
are left out: the cache routed them, not the threshold. Routing depends only on
(domain, complexity, pattern), so success rates conditioned on the cell need no
reweighting; the logged ``propensity`` identifies the explored records (the route given
less than even odds, counted in ``params.numbers["explored"]``; ``params.numbers["randomized"]`` counts
every record with a propensity below 1). Exploration gives both systems data: near a
threshold at ``cognitive.router.exploration`` (0.05), across the whole domain at
``domainExploration`` (0.01), so a domain whose complexity score does not separate the
systems (MMLU subjects: 91% of their requests score 0.66-0.90) is seen from both sides too.
With ``cognitive.router.explorationBudget`` above 0 (default 0: off), the rate away from
the threshold is learned per domain instead (:mod:`artibot.learning.exploration`:
probability matching on this posterior, clipped to the budget) and stored with the
thresholds; on the tuning data it measured the same as the fixed 1%, not better.

**Pooling.** Each domain's gap curve has the pooled gap level of the other domains as
its prior mean (empirical Bayes, :mod:`artibot.learning.empirical_bayes`), as tight as the
domains are alike; a domain with little data follows the others, a domain with much
data its own evidence, and a new domain starts from the pooled level.

**Thresholds.** Per domain seen in the round and for the default threshold (all domains
pooled). The posterior (:mod:`artibot.learning.posterior`) is a smooth curve of System
2's success per bin and a smooth *gap* down to System 1's; the threshold moves to the
candidate with the best posterior mean utility among those whose posterior probability
of improving utility is at least :data:`LEVEL` (0.5: the Bayes decision, the move whose
expected utility is highest), within ``±0.1`` per batch of the round: a round of ten
batches may move a threshold by up to 1.0, as far as its evidence supports
(``params.numbers["reach"]``), and no farther. No candidate better in expectation: the
threshold stays (there is no blind seeking any more: the domain-wide exploration brings
the evidence). Why 0.5 and not a stricter level: exploration keeps bringing both
systems' outcomes, so a wrong move is seen and undone, while waiting for 80% certainty
left most MMLU subjects on System 2 for the whole pass and scored lower on the tuning
subjects, with W1 and W2 regret no worse (``experiments/README.md``, "At a glance"). Thresholds stay in
``[minThreshold, maxThreshold]``; a domain seen for the first time starts from the
default.

**The first round of a domain** (:data:`FIRST_LIMIT`). Where a domain's traffic lies around
its threshold (at least :data:`FIRST_BAND_MASS` of it within the exploration band), its first
round has both systems' outcomes mostly within the band: System 1's below the threshold and
System 2's above it, and the other system's only where the router explored, 5% within the
band and 1% beyond it. A longer move would rest on one system's curve carried past its
data, so unless the other system was tried at least :data:`FIRST_TRIALS` times beyond the
band on each side, the first round moves at most the band's width (0.15); from the second
round on the moved traffic has been tried by both. Without that limit W1's first round sent
every domain to the top on that extrapolation, and the next night paid for it
(``experiments/README.md``, "A slow start that keeps the switch"). A domain whose traffic lies away from its threshold
(an MMLU subject: 91% of its requests score 0.66-0.90, against 0.4) has no traffic the band
could show, and its first round may still switch it whole: that switch is how the other
system gets tried there at all (waiting for the 1% domain-wide exploration left subjects
on System 2 for the whole pass). The switch does not wait for the expected utility to favour
it (:data:`TRY_Z`): while such a domain's curves rest on fewer than :data:`FIRST_TRIALS` trials
of a system, a move whose improvement is above 0 at one posterior sd is taken, so a subject the
pooled prior would keep on System 2 gets a round of System 1 and is then decided on its own
outcomes.

**The default threshold** moves at :data:`DEFAULT_LEVEL` (0.8), from a fit of all domains'
cells whose gap prior is break-even (:func:`_default_fit`): with System 1 barely tried,
the fit no longer takes it for as good as System 2, and a handful of trials does not move
the threshold that every new domain starts from (a plain fit let MMLU's first round move it
to the top on a handful of System 1 trials: ``experiments/README.md``, "A slow start that
keeps the switch"; it now stays, and follows the evidence later).

``params.evidence[domain].reason`` says each change in a user's words (:func:`reason`).

**Transfers** (per pattern, on its Beta(1, 1) posteriors, one-sided
:data:`CREDIBLE` bounds):

- *promote* a pattern not in the cache when its System 1 success is credibly high
  (lower bound >= ``promotionConfidence``), or when System 2 solves it credibly well
  (lower bound of System 2 success >= ``promotionConfidence``) and its System 1 record
  does not speak against it (upper bound >= ``promotionConfidence``): then System 1 is
  tried on it, on probation;
- *demote* a cached pattern only when its System 1 success is credibly low: upper bound
  below the demotion level ``(minConfidence + promotionConfidence) / 2`` (0.7 by
  default). Promotion needs a lower bound above 0.8, demotion an upper bound under 0.7:
  the gap is the hysteresis. A pattern that succeeds 90% of the time on System 1 is
  demoted within 50 uses with probability about 0.013 even when checked after every use.

Router confidence is not used (the seed's ``confidence`` rules are about the router,
not about the outcome). Decision codes: ``promote_s1``, ``promote_s2``, ``demote_bound``,
``hold_evidence``, ``hold_active``.

**Uncertainty at the checkpoints.** The proposal keeps the base types (so a pending
round survives ``to_json``/``from_json``); the intervals are records in ``params``
(:mod:`artibot.learning.round_params`): ``params.intervals.groups[i]`` is the 90% interval
of System 2's advantage in the cell of group ``i`` (all evidence so far, ``None`` when a
system was never tried there), ``params.intervals.patterns[key]`` the System 1 success
bounds of a decided pattern, and ``params.evidence[domain]`` the numbers behind each
threshold step. The groups of the checkpoint are the cells this round touched, as one batch
(index 0), with this round's counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, cast

import numpy as np

from artibot.config.settings import Settings
from artibot.learning import bandit, exploration
from artibot.learning import empirical_bayes
from artibot.learning.bandit import N1, N2
from artibot.learning.route_costs import MeasuredPrice
from artibot.learning.batching import batch_plan
from artibot.learning.frame import Frame
from artibot.learning.learner import Learned, RoundOptions, own_state
from artibot.learning.learner_state import EvidenceState
from artibot.learning.evidence_reason import reason
from artibot.learning.evidence_frame import cell_stamps, frame_groups
from artibot.learning.evidence_transfers import CREDIBLE, decide, demotion_level
from artibot.learning.posterior import Prior, beta_bounds
from artibot.learning.objective import Price, RouteCosts, objective
from artibot.learning.objective import decide as decide_price
from artibot.learning.round_params import JSON, Intervals, JSONObject, RoundParams, Scalar, StepEvidence
from artibot.learning.threshold_steps import MAX_STEP
from artibot.learning.transfer import apply_decisions, update_patterns
from artibot.hookpath.router.policy import EXPLORATION_BAND
from artibot.learning.columns import Batches, Table
from artibot.learning.types import DEFAULT_KEY, DomainStep, GroupResult, PatternStats, RoundProposal, Thresholds

__all__ = ["LEARNER", "EvidenceLearner", "propose_round", "apply_decisions", "decide", "reason"]

MODE = "evidence"
LEVEL = 0.5
"""Posterior probability that a threshold step improves utility, needed to take it (see the module doc)."""
DEFAULT_LEVEL = 0.8
"""The same for the default threshold, the one every domain seen for the first time starts from and
is routed by until its first round: a handful of trials must not set it (see the module doc)."""
FIRST_LIMIT = True
"""A domain's first round moves its threshold no farther than the exploration band when its
traffic lies around the threshold (False: as far as the round's reach; for ablations)."""
FIRST_TRIALS = 20.0
"""Trials of the other system beyond the band, on each side, that lift the first round's limit."""
FIRST_BAND_MASS = 0.1
"""Share of a domain's traffic within the band around its threshold above which its first round is
limited to the band (below it the domain's traffic lies away from the threshold: see the module doc)."""
CHAIN = True
"""A round's batches chain their steps (False: one step of MAX_STEP per round; for ablations)."""
POOL = True
"""Pooled (empirical Bayes) gap priors (False: each domain alone; for ablations)."""
RAW_PRIOR = Prior(gap_sd=5.0)
"""A domain's fit on its own data, before pooling: a gap prior too weak to bias the pooled mean."""
PRIOR = Prior()
"""Smoothness of the success curves (see :class:`artibot.learning.posterior.Prior`)."""
DRIFT_ALPHA = 0.01
"""Family-wise false alarm rate per round of the change test (Bonferroni over domain-systems)."""
TRY_Z = 1.0
"""A trial of the other system (0: off): a domain whose traffic lies away from its threshold
(less than :data:`FIRST_BAND_MASS` within the band) and whose curves rest on fewer than
:data:`FIRST_TRIALS` trials of a system moves to the candidate whose improvement is highest at
``TRY_Z`` posterior sds, when that bound is above 0 and no candidate is supported outright: the
other system is tried for a round. Without it an MMLU subject left on System 2 sees System 1 only
through the 1% domain-wide exploration (a handful of trials in a whole pass) and the pooled prior
decides for it. Chosen on the tuning subjects, where it raised the score, and on W1 and W2's
tuning seeds, which it left unchanged: their traffic lies around the thresholds, where the band
explores (``docs/team.md``, "Learning with a team"; ``docs/learning.md``)."""
SLOW_Z = 0.0
"""A slow start from the posterior's width (0: off, for ablations): a move longer than one
``MAX_STEP`` is taken only when System 2's gain over the traffic it moves is at least ``SLOW_Z``
posterior sds from the price; else one step. Off because it measured worse on the tuning
subjects: most subjects stay on System 2 for the whole pass (``experiments/README.md``,
"Learned exploration rates and a slow start: a negative result")."""


class EvidenceLearner:
    """The evidence learner (:class:`artibot.learning.learner.Learner`); its own state is the cells."""

    MODE = MODE

    def initial(self) -> EvidenceState:
        return EvidenceState()

    def propose(self, frame: Frame, state: Learned, settings: Settings,
                options: RoundOptions = RoundOptions()) -> tuple[RoundProposal, Learned]:
        """Process every full batch of ``frame`` (and the remainder when ``options.flush``) as one
        evidence step. ``options.measured``: the price of a System 2 call from the turns' measured
        costs (:mod:`artibot.learning.route_costs`); it takes the place of the estimated price (an
        explicit ``system2Cost`` or ``targetSystem2Share`` still wins). Deterministic, and none of
        the arguments is modified."""
        proposal, cells = _propose(frame, state.thresholds, state.patterns, own_state(state, EvidenceState), settings,
                                   options.flush, options.measured, options.costs)
        return proposal, Learned(proposal.new, proposal.patterns_after, cells)


LEARNER = EvidenceLearner()


def propose_round(frame: Frame, thresholds: Thresholds, patterns: Mapping[str, PatternStats],
                  settings: Settings, *, flush: bool = False, measured: MeasuredPrice | None = None,
                  cells: EvidenceState | None = None, costs: RouteCosts | None = None) -> RoundProposal:
    """The proposal of :meth:`EvidenceLearner.propose` from its parts (``cells``: none before)."""
    state = Learned(thresholds, patterns, cells if cells is not None else EvidenceState())
    return LEARNER.propose(frame, state, settings, RoundOptions(flush, measured, costs))[0]


def _propose(frame: Frame, thresholds: Thresholds, patterns: Mapping[str, PatternStats], own: EvidenceState,
             settings: Settings, flush: bool, measured: MeasuredPrice | None,
             costs: RouteCosts | None = None) -> tuple[RoundProposal, EvidenceState]:
    lifelong, router = settings.lifelong, settings.router
    lo, hi = router.min_threshold, router.max_threshold
    processed, n_batches = batch_plan(len(frame), lifelong.batch_size, flush)
    cells, plain = own.arrays(), patterns

    # threshold evidence: the processed records not routed by the System 1 cache
    active = [i for i, key in enumerate(frame.patterns) if plain.get(key) and plain[key].status == "active"]
    # (nor by the escalation rule: a retry after a failed System 1 turn is not a threshold's choice)
    use = ~np.isin(frame.pattern[:processed], np.asarray(active, np.int32)) & ~frame.rule[:processed]
    names = frame.domains
    fresh = bandit.count_cells(frame.domain[:processed][use], frame.complexity[:processed][use],
                               frame.system2[:processed][use], frame.success[:processed][use], len(names))
    seen_domains = [i for i in range(len(names)) if fresh[i].sum() > 0]
    cs = step_cells(cells, {names[i]: fresh[i] for i in seen_domains}, thresholds, settings, n_batches, measured,
                    costs=costs)
    after_cells, changes, evidence, price, reach = cs.after_cells, cs.changes, cs.evidence, cs.price, cs.reach

    # transfers
    after_plain, seen = update_patterns(frame, processed, plain)
    decisions = tuple(decide(after_plain[k], settings) for k in sorted(set(seen)) if k in after_plain)

    groups, group_intervals = frame_groups(frame, processed, use, fresh, after_cells, seen_domains)
    own_after = EvidenceState.from_arrays(after_cells, own, cell_stamps(frame, processed, use))
    explored = frame.propensity[:processed]
    transfer = settings.transfer
    numbers: dict[str, Scalar] = {
        "batch_size": lifelong.batch_size, "batches": n_batches, "flush": flush,
        "level": LEVEL, "default_level": DEFAULT_LEVEL, "bins": bandit.BINS, "half_life": bandit.HALF_LIFE,
        "max_step": MAX_STEP, "reach": reach, "exploration_budget": settings.router.exploration_budget,
        "min_threshold": lo, "max_threshold": hi, "credible": CREDIBLE,
        "promotion_level": transfer.promotion_confidence, "demotion_level": demotion_level(settings),
        "explored": int(np.sum(np.isfinite(explored) & (explored < 0.5))),
        "randomized": int(np.sum(np.isfinite(explored) & (explored < 1.0))),
        "cache_records": int(processed - use.sum() - frame.rule[:processed].sum()),
        "escalations": int(frame.rule[:processed].sum()),
    }
    intervals = Intervals(tuple(None if g is None else (g[0], g[1]) for g in group_intervals),
                          {d.key: beta_bounds(d.stats.k1, d.stats.n1, CREDIBLE) for d in decisions})
    prior: JSONObject = {k: v for k, v in PRIOR.to_json().items()}
    params = RoundParams(numbers, price, evidence, intervals, extra={"prior": prior, "changes": changes})
    return RoundProposal(
        mode=MODE, batches=Batches.of(GroupResult, (tuple(groups),) if processed else ()),
        steps=Table.of(DomainStep, cs.steps), old=thresholds,
        new=cs.new, processed_ids=frame.ids[:processed],
        remainder=len(frame) - processed, patterns_before=patterns, patterns_after=after_plain,
        decisions=decisions, params=params,
    ), own_after


@dataclass(frozen=True)
class CellsStep:
    """One round's threshold step from the cells: what :func:`step_cells` returns."""

    after_cells: dict[str, np.ndarray]
    changes: list[JSON]
    steps: list[DomainStep]
    evidence: dict[str, StepEvidence]
    new: Thresholds
    price: Price
    reach: float


def step_cells(cells: Mapping[str, np.ndarray], fresh: Mapping[str, np.ndarray], thresholds: Thresholds,
               settings: Settings, n_batches: int, measured: MeasuredPrice | None = None,
               half_life: float | None = None, costs: RouteCosts | None = None) -> CellsStep:
    """The threshold part of a round from counts alone: ``cells`` (the history, per domain, in
    trials), ``fresh`` (this round's ``(BINS, 4)`` counts of each domain seen). The personal
    round counts ``fresh`` from its frame; the team round gets the same counts from SQL, and
    forgets over its pool's ``half_life`` (:func:`artibot.learning.bandit.pooled_half_life`)."""
    router = settings.router
    lo, hi = router.min_threshold, router.max_threshold
    seen = sorted(name for name, arr in fresh.items() if arr.sum() > 0)
    z_crit = bandit.z_critical(DRIFT_ALPHA, 2 * len(seen))
    after_cells = {name: arr.copy() for name, arr in cells.items()}
    changes: list[JSON] = []
    for name in seen:
        history = cells.get(name, np.zeros((bandit.BINS, 4)))
        flagged = bandit.changed(history, fresh[name], z_crit, PRIOR)
        changes += [{"domain": name, "system": s, "z": z} for s, z in flagged]
        after_cells[name] = bandit.merge(history, fresh[name], {s for s, _ in flagged}, half_life)

    # thresholds: every domain with evidence pools into the others' priors; seen domains step
    raw = {name: bandit.fit(arr, _clip(thresholds.for_domain(name), lo, hi), RAW_PRIOR)
           for name, arr in after_cells.items() if arr[:, [N1, N2]].sum() > 0}
    levels = {name: empirical_bayes.domain_level(after_cells[name][:, N1] + after_cells[name][:, N2],
                                         f.pair.mean[bandit.BINS:], np.diag(f.pair.cov)[bandit.BINS:])
              for name, f in raw.items()}
    cascade = objective(settings) == "cost"
    # the cost objective's price is the break-even failure rate, known before any fit; the
    # success objective's may come from the fits (a budget) or the cells (the estimate)
    early = decide_price(settings, {}, after_cells, lo, hi, measured, costs) if cascade else None
    fits = {name: _pooled_fit(after_cells[name], f.t, levels, name, early) for name, f in raw.items()}
    price = early if early is not None else decide_price(settings, fits, after_cells, lo, hi, measured, costs)
    reach = MAX_STEP * (max(1, n_batches) if CHAIN else 1)  # each batch may move a threshold by MAX_STEP
    steps: list[DomainStep] = []
    evidence: dict[str, StepEvidence] = {}
    new_default = thresholds.default
    new_domains = dict(thresholds.domains)
    if seen:
        pooled = cast(np.ndarray, sum(after_cells.values()))  # seen: at least one array
        default_fit = _default_fit(pooled, _clip(thresholds.default, lo, hi), price.value, cascade)
        step, evidence[DEFAULT_KEY] = _step(DEFAULT_KEY, thresholds.default, default_fit, price, lo, hi,
                                            reach, DEFAULT_LEVEL)
        steps.append(step)
        new_default = step.new
    for name in seen:
        first_reach = _first_reach(name, cells, after_cells[name], fits[name], reach)
        step, evidence[name] = _step(name, thresholds.for_domain(name), fits[name], price, lo, hi, first_reach)
        steps.append(step)
        new_domains[name] = step.new
    rates = _rates(fits, after_cells, new_domains, price.value, settings) if seen else dict(thresholds.exploration)
    for name, rate in rates.items():
        if name in evidence:
            evidence[name] = replace(evidence[name], exploration=rate)
    return CellsStep(after_cells, changes, steps, evidence, Thresholds(new_default, new_domains, rates), price, reach)


def _clip(t: float, lo: float, hi: float) -> float:
    return float(min(max(t, lo), hi))


def _rates(fits: Mapping[str, bandit.Fit], cells: Mapping[str, np.ndarray], thresholds: Mapping[str, float],
           price: float, settings: Settings) -> dict[str, float]:
    """Per domain: the router's exploration rate away from its threshold for the next round
    (:mod:`artibot.learning.exploration`); none when ``domainExploration`` or the budget is 0."""
    router = settings.router
    if router.domain_exploration <= 0 or router.exploration_budget <= 0:
        return {}
    lo, hi = router.min_threshold, router.max_threshold
    return exploration.rates(fits, cells, {k: _clip(v, lo, hi) for k, v in thresholds.items()}, price,
                             band=EXPLORATION_BAND, band_rate=router.exploration,
                             budget=router.exploration_budget)[0]


def _default_fit(counts: np.ndarray, t: float, price: float, cascade: bool = False) -> bandit.Fit:
    """The default threshold's fit: all domains' cells, with the gap's prior at break-even.

    Per bin, the prior gap is the one at which System 1 falls short of System 2 by exactly
    the price (System 2's curve from a first fit), so where System 1 was hardly tried the
    fit is indifferent instead of taking System 1 for as good as System 2 (the base prior's
    gap of 0), and the default moves only where both systems' outcomes move it.
    """
    p2 = np.clip(bandit.fit(counts, t, PRIOR).pair.p2, 0.01, 0.99)
    # break-even: System 1 short of System 2 by the price, or (cost objective) failing at the price
    p1 = np.clip(1.0 - price if cascade else p2 - price, 0.01, 0.99)  # a budget's price may be negative or above p2
    even: np.ndarray = np.log(p2 / (1 - p2)) - np.log(p1 / (1 - p1))
    return bandit.fit(counts, t, PRIOR, even, cascade=cascade)


def _first_reach(name: str, history: Mapping[str, np.ndarray], counts: np.ndarray, f: bandit.Fit,
                 reach: float) -> float:
    """How far the domain's threshold may move this round: the round's ``reach``, or the
    exploration band in the domain's first round when its traffic lies around its threshold
    and the systems were hardly tried beyond the band (see the module doc)."""
    if not FIRST_LIMIT or name in history or exploration.band_mass(f, f.t, EXPLORATION_BAND) < FIRST_BAND_MASS:
        return reach
    below = bandit.CENTERS < f.t - EXPLORATION_BAND
    above = bandit.CENTERS > f.t + EXPLORATION_BAND
    beyond = min(float(counts[above, N1].sum()), float(counts[below, N2].sum()))  # the other system, each side
    return reach if beyond >= FIRST_TRIALS else min(reach, EXPLORATION_BAND)


def _pooled_fit(counts: np.ndarray, t: float, levels: Mapping[str, tuple[float, float]], name: str,
                cost: Price | None = None) -> bandit.Fit:
    """A domain's fit whose gap prior is the pooled gap level of the other domains
    (:func:`artibot.learning.empirical_bayes.pooled_level`); when there is no other domain, the base prior,
    or with the cost objective (``cost``: its price) the break-even one (:func:`_default_fit`): the
    base prior's gap of 0 takes System 1 for as good as System 2, so with System 1 untried it would
    send the domain to System 1 on no evidence."""
    cascade = cost is not None
    mean, sd = empirical_bayes.pooled_level(levels, exclude=name, floor=PRIOR.gap_sd, bins=bandit.BINS)
    if mean is None or not POOL:
        if cost is not None:
            return _default_fit(counts, t, cost.value, True)
        return bandit.fit(counts, t, PRIOR, cascade=cascade)
    return bandit.fit(counts, t, PRIOR, np.full(bandit.BINS, mean), np.full(bandit.BINS, sd), cascade=cascade)


def _step(name: str, old: float, f: bandit.Fit, p: Price, lo: float, hi: float,
          reach: float, level: float = LEVEL) -> tuple[DomainStep, StepEvidence]:
    start, price = f.t, p.value
    trial = TRY_Z if (name != DEFAULT_KEY and min(f.pair.trials) < FIRST_TRIALS
                      and exploration.band_mass(f, f.t, EXPLORATION_BAND) < FIRST_BAND_MASS) else 0.0
    choice = bandit.choose(f, price=price, lo=lo, hi=hi, max_step=reach, level=level, optimism=trial)
    if SLOW_Z > 0 and abs(choice.new - start) > MAX_STEP + 1e-9:
        mean, sd = bandit.region_gain(f, min(start, choice.new), max(start, choice.new))
        if abs(mean - price) < SLOW_Z * sd:  # the posterior is too wide to settle the move: one step
            choice = bandit.choose(f, price=price, lo=lo, hi=hi, max_step=MAX_STEP, level=level)
    step = DomainStep(batch=0, domain=name, advantage=choice.gain_mean, raw_delta=old - choice.best,
                      delta=old - choice.new, old=old, new=choice.new,
                      clamped=abs(choice.best - start) > reach + 1e-9, bounded=start != old)
    moved = abs(choice.new - start) > 1e-9
    gain, sd = bandit.region_gain(f, min(start, choice.new), max(start, choice.new)) if moved else \
        bandit.region_gain(f, 0.0, 1.01)
    per_100 = _per_100(f, start, choice.new, gain, p.costs) if moved and p.costs is not None else None
    evidence = StepEvidence(choice.best, choice.probability, choice.improvement,
                            (choice.gain_mean, *choice.gain_interval), tuple(choice.trials), price, choice.seeking,
                            (gain, sd), reach, reason(name, gain, sd, price, p.source, old, choice.new, per_100),
                            per_100=per_100)
    return step, evidence


def _per_100(f: bandit.Fit, start: float, new: float, failure: float, costs: RouteCosts) -> tuple[float, float]:
    """A cost-objective step per 100 of the domain's turns: the bill's change in dollars and the
    redos' (the rerouted traffic times what System 1 first saves per turn, and times its failure
    rate: each failed System 1 try is a redo).

    >>> import numpy as np
    >>> from artibot.learning.posterior import Prior
    >>> counts = np.zeros((bandit.BINS, 4))
    >>> counts[6:8] = [10, 8, 0, 0]  # bins 0.30-0.35 and 0.35-0.40: all the traffic
    >>> f = bandit.fit(counts, 0.3, Prior(), cascade=True)
    >>> usd, redos = _per_100(f, 0.3, 0.4, 0.25, RouteCosts(0.02, 0.10, 0.10))
    >>> round(usd, 2), round(redos, 1)  # all the traffic moves to System 1: 100 * -(0.10 - 0.02 - 0.25 * 0.2), 100 * 0.25
    (-3.0, 25.0)
    """
    share = bandit.region_mass(f, min(start, new), max(start, new))
    to_system1 = new > start
    saving = costs.saving_usd(failure)
    usd = 100 * share * (-saving if to_system1 else saving)
    redos = 100 * share * (failure if to_system1 else -failure)
    return float(usd), float(redos)
