"""Validation after the fact (pure): did an applied round make routing worse?

Every round records the outcome counts of its own experiences (``params.window``, see
:mod:`artibot.learning.logged`): ``all`` (logged *before* the round was applied: its
before-window) and ``after_previous`` (those logged after the previous round was applied).
The after-window of an applied round R is the ``after_previous`` part of the next applied
round, extended over the rounds after it while none of them changed anything and the window
is shorter than ``window`` experiences (None: the next round only). Rounds that were rolled
back, reset or discarded are skipped (their experiences come back to the log).

The comparison is on the *utility* ``success - price * System 2`` (``price``:
``learning.lifelong.system2Cost``, 0 when unset, i.e. plain success): a change that buys a
lower System 2 share with the success the user said it was worth is not worse. It is a
one-sided two-sample z-test at level ``alpha``; "worse" needs ``z < -z(1 - alpha)``.

>>> before = {"n": 1000, "success": 850, "system2": 400, "system2_success": 360}
>>> after = {"n": 1000, "success": 780, "system2": 400, "system2_success": 350}
>>> compare(before, after, alpha=0.025, price=0.0)["verdict"]
'worse'
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from artibot.learning.round_params import logged_checks


def _rates(c: Mapping[str, int], price: float) -> tuple[float, float, float, float]:
    """success rate, System 2 share, utility mean and the utility's per-record variance."""
    n = c["n"]
    r = c["success"] / n
    s = c["system2"] / n
    rs = c["system2_success"] / n
    u = r - price * s
    var = (r - r * r) + price * price * (s - s * s) - 2 * price * (rs - r * s)
    return r, s, u, max(0.0, var)


def compare(before: Mapping[str, int], after: Mapping[str, int], *, alpha: float, price: float,
            min_experiences: int = 1) -> dict[str, Any]:
    """The verdict of one before/after pair with the numbers behind it."""
    if after["n"] < max(1, min_experiences) or before["n"] < 1:
        return {"verdict": "waiting", "before": _show(before, price), "after": _show(after, price) if after["n"] else
                {"n": after["n"]}}
    rb, sb, ub, vb = _rates(before, price)
    ra, sa, ua, va = _rates(after, price)
    se = math.sqrt(vb / before["n"] + va / after["n"])
    diff = ua - ub
    z = diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    from statistics import NormalDist  # here: `artibot status` with no round to measure yet need not load it

    crit = NormalDist().inv_cdf(1 - alpha)
    verdict = "worse" if z < -crit else "better" if z > crit else "no_change_detected"
    return {"verdict": verdict, "before": _show(before, price), "after": _show(after, price),
            "difference": {"success": round(ra - rb, 4), "system2_share": round(sa - sb, 4),
                           "utility": round(diff, 4)},
            "z": round(z, 3) if math.isfinite(z) else z, "alpha": alpha, "price": price}


def _show(c: Mapping[str, int], price: float) -> dict[str, Any]:
    r, s, u, _ = _rates(c, price)
    return {"n": c["n"], "success": round(r, 4), "system2_share": round(s, 4), "utility": round(u, 4)}


def _add(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in ("n", "success", "system2", "system2_success")}


def _changed(entry: Mapping[str, Any]) -> bool:
    moved = any(abs(c.get("new", 0) - c.get("old", 0)) > 1e-12 for c in (entry.get("threshold_changes") or {}).values())
    transfers = any(a in ("promote", "demote") for a in (entry.get("transfers") or {}).values())
    return bool(entry.get("thresholds_applied") and moved) or transfers


def _window(entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    w = logged_checks(entry).window
    return w if isinstance(w, Mapping) and isinstance(w.get("all"), Mapping) else None


def validate(entries: Sequence[Mapping[str, Any]], *, window: int | None, alpha: float, price: float,
             min_experiences: int, baseline: int = 10_000) -> list[dict[str, Any]]:
    """One validation per applied round that changed something, oldest first (learning-log entries in).

    The before-window is the round's own experiences, extended back over the rounds before it
    that changed nothing (their experiences were logged under the same state) up to
    ``baseline`` experiences.
    """
    live = [e for e in entries if e.get("type", "round") == "round" and e.get("status") == "applied"
            and not e.get("rolled_back") and _window(e) is not None]
    out = []
    for i, entry in enumerate(live):
        if not _changed(entry):
            continue
        before = dict(_window(entry)["all"])  # type: ignore[index]
        for prev in reversed(live[:i]):
            if _changed(prev) or before["n"] >= baseline:
                break
            before = _add(before, _window(prev)["all"])  # type: ignore[index]
        after = {"n": 0, "success": 0, "system2": 0, "system2_success": 0}
        rounds: list[str] = []
        for nxt in live[i + 1:]:
            w = _window(nxt)
            part = w.get("after_previous") if not rounds else w.get("all")  # type: ignore[union-attr]
            if not isinstance(part, Mapping):
                break
            after = _add(after, part)
            rounds.append(nxt["round_id"])
            if window is None or after["n"] >= window or _changed(nxt):
                break  # the next change would mix its own effect in
        result = compare(before, after, alpha=alpha, price=price, min_experiences=min_experiences)
        rid = entry["round_id"]
        result.update(round_id=rid, measured_over=rounds, rollback=f"artibot rollback {rid}",
                      predicted=_predicted(entry))
        result["vs_prediction"] = _vs_prediction(result)
        result["message"] = message(result)
        out.append(result)
    return out


def _predicted(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    op = logged_checks(entry).off_policy
    if not isinstance(op, Mapping) or not entry.get("thresholds_applied"):  # reverted: nothing was predicted
        return None
    proposed = op.get("proposed") or {}
    if not isinstance(proposed, Mapping):
        return None
    return {"success": proposed.get("success"), "interval": proposed.get("interval"),
            "system2_share": proposed.get("system2_share"), "verdict": op.get("verdict")}


def _vs_prediction(result: Mapping[str, Any]) -> str | None:
    """Where the measured success falls against checkpoint 2's interval, allowing for the
    after-window's own sampling noise (a 90% half-width on the measured rate)."""
    pred = result.get("predicted")
    after = result.get("after") or {}
    if not pred or pred.get("interval") is None or "success" not in after:
        return None
    lo, hi = pred["interval"]
    if after["success"] + _half_width(after) < lo:
        return "below the predicted interval"
    if after["success"] - _half_width(after) > hi:
        return "above the predicted interval"
    return "within the predicted interval"


def _half_width(after: Mapping[str, Any]) -> float:
    return 1.6448536269514722 * math.sqrt(max(after["success"] * (1 - after["success"]), 1e-12) / after["n"])


def message(v: Mapping[str, Any]) -> str:
    """One plain sentence for status, the session context and /learn."""
    rid = v.get("round_id", "?")
    if v["verdict"] == "waiting":
        return f"round {rid}: waiting for experiences after it to measure its effect"
    b, a, d = v["before"], v["after"], v["difference"]
    head = (f"round {rid}: success {b['success']:.1%} -> {a['success']:.1%} "
            f"({d['success'] * 100:+.1f} points), System 2 share {b['system2_share']:.1%} -> "
            f"{a['system2_share']:.1%} over {a['n']} experiences after it vs {b['n']} before")
    if v.get("price"):
        head += (f"; utility (success - {v['price']:g} x System 2 share) "
                 f"{d['utility'] * 100:+.1f} points")
    pred = v.get("predicted")
    if pred and pred.get("success") is not None:
        if pred.get("interval") is not None and v.get("vs_prediction"):
            lo, hi = pred["interval"]
            head += (f"; measured {a['success']:.1%} ± {_half_width(a):.1%} is {v['vs_prediction']} "
                     f"[{lo:.1%}, {hi:.1%}] of checkpoint 2")
        else:
            head += f"; checkpoint 2 predicted {pred['success']:.1%} (no interval: too thin to estimate)"
    if v["verdict"] == "worse":
        return head + f". Worse beyond noise (z = {v['z']}): `{v['rollback']}` undoes it (nothing was rolled back)."
    if v["verdict"] == "better":
        return head + "."
    return head + "; no change beyond noise."
