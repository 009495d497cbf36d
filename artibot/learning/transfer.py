"""Knowledge transfer: pattern streaks, confidence and promote / demote / hold.

Over a round's processed records, in timestamp order, per pattern:

- the **promotion streak** counts System 2 records: a success extends it, an
  ``escalated`` or ``failed`` resets it to 0; System 1 records leave it alone;
- the **demotion streak** counts System 1 records: ``failed`` or ``escalated`` extends
  it, a success resets it to 0; System 2 records leave it alone;
- **confidence** is the running mean of the records' ``confidence`` (over all rounds).

Streaks continue from the stored stats. Decisions are taken once, on the state at the
end of the round: a pattern that is not active is promoted when its promotion streak
reaches ``promotionThreshold`` and its confidence is above ``promotionConfidence``; an
active pattern is demoted when its demotion streak reaches ``demotionThreshold`` or its
confidence is below ``minConfidence``. Promotion and demotion reset both streaks
(:func:`apply_decisions`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

import numpy as np

from artibot.config.settings import Settings
from artibot.learning.frame import Frame
from artibot.learning.types import ACTIONS, PatternStats, TransferDecision
from artibot.messages import Message


CONFIDENCE_DIGITS = 12
"""Pattern confidence is compared with the bars after rounding to this many decimals."""


def update_patterns(frame: Frame, processed: int,
                    before: Mapping[str, PatternStats]) -> tuple[dict[str, PatternStats], tuple[str, ...]]:
    """Stats after the first ``processed`` records of ``frame``, and the keys seen among them."""
    after = {key: before[key] for key in sorted(before)}
    codes = frame.pattern[:processed]
    rows = np.flatnonzero(codes >= 0)
    if len(rows) == 0:
        return after, ()
    order = rows[np.argsort(codes[rows], kind="stable")]  # by pattern, then timestamp
    code = codes[order]
    s2 = frame.system2[order]
    ok = frame.success[order]
    size = len(order)
    new_seg = np.ones(size, np.bool_)
    new_seg[1:] = code[1:] != code[:-1]
    start = np.flatnonzero(new_seg)
    end = np.append(start[1:], size)  # exclusive

    n = end - start
    n2 = np.add.reduceat(s2.astype(np.int64), start)
    k2 = np.add.reduceat((s2 & ok).astype(np.int64), start)
    k1 = np.add.reduceat((~s2 & ok).astype(np.int64), start)
    confidence = np.add.reduceat(frame.confidence[order], start)
    promo_run, promo_reset = _trailing_run(start, end, extend=s2 & ok, reset=s2 & ~ok)
    demo_run, demo_reset = _trailing_run(start, end, extend=~s2 & ~ok, reset=~s2 & ok)
    first = order[start].tolist()
    last = order[end - 1].tolist()

    seen = tuple(frame.patterns[c] for c in code[start].tolist())
    columns = zip(seen, n.tolist(), n2.tolist(), k1.tolist(), k2.tolist(), confidence.tolist(),
                  promo_run.tolist(), promo_reset.tolist(), demo_run.tolist(), demo_reset.tolist(), first, last)
    for key, cn, cn2, ck1, ck2, csum, prun, preset, drun, dreset, i_first, i_last in columns:
        old = before.get(key) or PatternStats(key)
        after[key] = PatternStats(
            key=key, status=old.status,
            promotion_streak=prun if preset else old.promotion_streak + prun,
            demotion_streak=drun if dreset else old.demotion_streak + drun,
            n=old.n + cn, n1=old.n1 + cn - cn2, k1=old.k1 + ck1, n2=old.n2 + cn2, k2=old.k2 + ck2,
            confidence_sum=old.confidence_sum + csum,
            first_seen=old.first_seen or frame.timestamps[i_first],
            last_seen=frame.timestamps[i_last],
        )
    return {key: after[key] for key in sorted(after)}, seen


def _trailing_run(start: np.ndarray, end: np.ndarray, extend: np.ndarray,
                  reset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per segment: how many ``extend`` flags follow its last ``reset``, and whether it had one."""
    index = np.arange(len(extend))
    last_reset = np.maximum.reduceat(np.where(reset, index, -1), start)
    had_reset = last_reset >= 0
    counted = np.concatenate(([0], np.cumsum(extend, dtype=np.int64)))  # counted[i] = extends before i
    from_here = np.where(had_reset, last_reset + 1, start)
    return counted[end] - counted[from_here], had_reset


def decide(stats: PatternStats, settings: Settings) -> TransferDecision:
    """The automatic decision for one pattern, with its reason in plain English."""
    rules = settings.transfer
    # Rounded so that float sums do not decide: three records at 0.8 average 0.8, not above it.
    conf = round(stats.confidence, CONFIDENCE_DIGITS)
    if stats.status != "active":
        streak_ok = stats.promotion_streak >= rules.promotion_threshold
        c, bar = _pair(conf, rules.promotion_confidence)
        if streak_ok and conf > rules.promotion_confidence:
            return TransferDecision.said(stats, "promote", Message(
                "transfer.promote", streak=stats.promotion_streak, needed=rules.promotion_threshold, c=c, bar=bar),
                "promote")
        parts = []
        if not streak_ok:
            parts.append(Message("transfer.hold_streak", streak=stats.promotion_streak,
                                 needed=rules.promotion_threshold))
        if conf <= rules.promotion_confidence:
            parts.append(Message("transfer.hold_confidence", c=c, bar=bar))
        return TransferDecision.said(stats, "hold", _both(parts), "hold_streak" if not streak_ok else "hold_confidence")
    streak_hit = stats.demotion_streak >= rules.demotion_threshold
    low = conf < settings.system1.min_confidence
    c, bar = _pair(conf, settings.system1.min_confidence)
    if streak_hit or low:
        parts = []
        if streak_hit:
            parts.append(Message("transfer.demote_streak", streak=stats.demotion_streak,
                                 needed=rules.demotion_threshold))
        if low:
            parts.append(Message("transfer.demote_confidence", c=c, bar=bar))
        return TransferDecision.said(stats, "demote", _both(parts),
                                     "demote_streak" if streak_hit else "demote_confidence")
    return TransferDecision.said(stats, "hold", Message(
        "transfer.hold_active", streak=stats.demotion_streak, needed=rules.demotion_threshold, c=c, bar=bar),
        "hold_active")


def _both(parts: list[Message]) -> Message:
    """One reason, or two said together."""
    return parts[0] if len(parts) == 1 else Message("transfer.both", first=parts[0], second=parts[1])


def decide_round(after: Mapping[str, PatternStats], seen: tuple[str, ...],
                 settings: Settings) -> tuple[TransferDecision, ...]:
    """One decision per pattern seen this round, plus active patterns not seen whose confidence
    is below ``minConfidence`` (possible after a manual promotion or a config change). Sorted by key."""
    keys = set(seen)
    floor = settings.system1.min_confidence
    keys.update(k for k, s in after.items()
                if s.status == "active" and s.n > 0 and round(s.confidence, CONFIDENCE_DIGITS) < floor)
    return tuple(decide(after[k], settings) for k in sorted(keys))


def apply_decisions(patterns: Mapping[str, PatternStats], actions: Mapping[str, str]) -> dict[str, PatternStats]:
    """Final actions (after checkpoint 3) applied to a copy of ``patterns``.

    ``promote`` makes a pattern active, ``demote`` makes it demoted, both reset both
    streaks to 0; ``hold`` changes nothing. An unknown key or action is a ValueError.
    """
    out = {key: patterns[key] for key in sorted(patterns)}
    for key, action in actions.items():
        if action not in ACTIONS:
            raise ValueError(Message("value.one_of", key=f"action for pattern {key!r}", options=", ".join(ACTIONS),
                                     value=repr(action)))
        if key not in out:
            raise ValueError(f"no pattern {key!r} to {action}")
        if action != "hold":
            status = "active" if action == "promote" else "demoted"
            out[key] = replace(out[key], status=status, promotion_streak=0, demotion_streak=0)
    return out


def _pair(value: float, bar: float) -> tuple[str, str]:
    """Both numbers with 2 decimals, or with as many more (up to 6) as it takes to tell them apart."""
    for digits in range(2, 7):
        a, b = f"{value:.{digits}f}", f"{bar:.{digits}f}"
        if a != b or value == bar:
            return a, b
    return f"{value!r}", f"{bar!r}"
