"""What a person sees at each checkpoint, laid out for an 80-column terminal.

Every value a person judges — pattern keys, decisions, old and new thresholds, reasons —
is shown whole: a long value gets a line of its own (a pattern key heads its entry, a
reason is wrapped under its row) instead of a column that would cut it short.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from artibot.checkpoints import Evidence, texts
from artibot.cli.render import Hanging, Listing, fmt

MAX_GROUP_ROWS = 24

# promote and demote change the cache: shown first, then what is held
_ACTION_ORDER = {"promote": 0, "demote": 1, "hold": 2}


def transfer_order(rows: Sequence[Mapping[str, Any]], *, moves_last: bool = False) -> list[Mapping[str, Any]]:
    """Checkpoint 3's patterns: promotions, demotions, then holds, each by key; ``moves_last``
    puts the holds first, so that the moves stand just above the question in a terminal."""
    rank = (lambda r: -_ACTION_ORDER.get(r["automatic"], 3)) if moves_last else \
        (lambda r: _ACTION_ORDER.get(r["automatic"], 3))
    return sorted(rows, key=lambda r: (rank(r), r["key"]))


def _interval(pair: Sequence[float] | None) -> str:
    return "" if pair is None else f"[{fmt(pair[0], 2)}, {fmt(pair[1], 2)}]"


def _signed(x: float | None, nd: int = 3) -> str:
    return "—" if x is None else f"{x:+.{nd}f}"


def group_view(ev: Evidence) -> RenderableType:
    """Checkpoint 1: per domain, then the groups where both systems ran (the only ones that
    move a threshold)."""
    s = ev.summary
    compared = [r for r in ev.rows if not r["one_sided"]]
    with_interval = any("interval" in r for r in compared)
    batches = len({r["batch"] for r in compared}) > 1  # one batch (evidence mode): no column
    columns = (["batch"] * batches + ["domain", "complexity", "S1 ok/n", "S2 ok/n", "S2−S1 here"]
               + (["estimate [90% interval]"] * with_interval))
    rows = [[r["batch"]] * batches + [r["domain"], f"{fmt(r['complexity'][0], 2)}–{fmt(r['complexity'][1], 2)}",
             _ok(r, 1), _ok(r, 2), _signed(r["advantage"])]
            + ([_estimate(r)] * with_interval) for r in compared[:MAX_GROUP_ROWS]]
    caption = (f"{s['groups']} groups in {s['batches']} batch(es): {s['two_sided']} with both systems, "
               f"{s['one_sided']} one-sided (not used); S2−S1 here: System 2's success rate minus System 1's "
               "in this round's requests")
    if len(compared) > MAX_GROUP_ROWS:
        caption += f"; the first {MAX_GROUP_ROWS} shown, all in `artibot review --json`"
    if with_interval:  # S2−S1 is this round's; the estimate rests on the cell's whole history
        caption += ("; estimate: System 2's advantage in the group over every round so far, with its 90% "
                    "interval")
    by_domain = Listing(None, ["domain", "groups", "S1 ok/n", "S2 ok/n", "mean S2−S1"], _domain_rows(compared))
    t = texts(ev.lang)
    return Group(Text(t["title"][1], style="bold"), Hanging(t["explain"][1]),
                 Listing(None, columns, rows, caption=caption), Text(""), by_domain)


def _estimate(row: Mapping[str, Any]) -> str:
    if "interval" not in row or row["interval"] is None:
        return "—"
    return f"{_signed(row.get('estimate'), 2)} {_interval(row['interval'])}"


def _ok(row: Mapping[str, Any], system: int) -> str:
    """``successes/records`` of System ``system`` in an evidence row."""
    return f"{row[f'k{system}']}/{row[f'n{system}']}"


def _domain_rows(groups: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    """Each domain's compared groups summed: the overall picture behind the group rows."""
    totals: dict[str, list[float]] = {}
    for r in groups:
        k1, n1, k2, n2 = r["k1"], r["n1"], r["k2"], r["n2"]
        t = totals.setdefault(r["domain"], [0, 0, 0, 0, 0, 0.0])
        for i, v in enumerate((1, k1, n1, k2, n2, r["advantage"] or 0.0)):
            t[i] += v
    return [[d, int(g), f"{int(k1)}/{int(n1)}", f"{int(k2)}/{int(n2)}", _signed(a / g)]
            for d, (g, k1, n1, k2, n2, a) in sorted(totals.items())]


def threshold_view(ev: Evidence) -> RenderableType:
    """Checkpoint 2: old → new per domain, the direction in words, and the row's reason under it."""
    rows = [[r["domain"], fmt(r["old"]), fmt(r["new"]), _signed(r["change"]), r["direction"]] for r in ev.rows]
    notes = [[str(r[k]) for k in ("reason", "why") if r.get(k)] + _limit_note(r) for r in ev.rows]
    summary = ev.summary
    parts = []
    price = summary.get("price")  # evidence mode's price in force and where it came from
    if price is not None:
        parts.append(f"price of a System 2 call: {price:.3f} ({summary.get('price_source')})")
    if summary.get("max_step") and summary.get("batch_size"):
        parts.append(f"a threshold moves at most {summary['max_step']:.2f} per batch of {summary['batch_size']} "
                     f"({summary.get('batches') or 1} batch(es) this round), and in a domain's first round no "
                     "farther than the exploration band")
    if summary.get("money"):
        parts.append(str(summary["money"]))
    return Listing(texts(ev.lang)["title"][2], ["domain", "old", "new", "change", "direction"],
                   rows, notes, caption="; ".join(parts) or None)


def _limit_note(row: Mapping[str, Any]) -> list[str]:
    """How far the threshold could move this round, and whether the move was cut short there."""
    limit = row.get("limit")
    if limit is None and not row.get("clamped"):
        return []
    text = f"could move at most {limit:.2f} this round" if limit is not None else ""
    if row.get("clamped"):
        text += ("; " if text else "") + "the evidence pointed farther: the move stops at that limit"
    return [text]


def transfer_view(ev: Evidence) -> RenderableType:
    """Checkpoint 3: one entry per pattern — decision and key, then its numbers, then why."""
    rows, notes = [], []
    ordered = transfer_order(ev.rows, moves_last=True)
    for r in ordered:
        rows.append([r["automatic"], r["key"]])
        numbers = (f"now {r['status']}; S1 ok {_ok(r, 1)}, S2 ok {_ok(r, 2)}; confidence {fmt(r['confidence'], 2)}; "
                   f"streaks: S2 success {r['promotion_streak']}, S1 failure {r['demotion_streak']}")
        if "bounds" in r and "success" not in r["reason"]:
            numbers += f"; S1 success {_interval(r['bounds'])}"
        notes.append([numbers, f"why: {r['reason']}"])
    counts = {a: sum(1 for r in ordered if r["automatic"] == a) for a in _ACTION_ORDER}
    caption = (f"{len(ordered)} pattern(s): {counts['hold']} hold, {counts['demote']} demote, "
               f"{counts['promote']} promote (listed in that order)")
    return Listing(texts(ev.lang)["title"][3], ["decision", "pattern"], rows, notes, caption=caption)


def evidence_table(ev: Evidence) -> RenderableType:
    """The checkpoint's evidence as a person reads it (``--json`` has every field)."""
    return {1: group_view, 2: threshold_view, 3: transfer_view}[ev.checkpoint](ev)


def threshold_result(changes: Mapping[str, Mapping[str, Any]]) -> RenderableType:
    """After a round: each threshold's old and new value and whether it was applied."""
    applied = {True: "yes", False: "reverted", None: "—"}
    rows = [[d, fmt(c["old"]), fmt(c["new"]), c["direction"], applied[c.get("applied")]] for d, c in changes.items()]
    return Listing("Thresholds", ["domain", "old", "new", "direction", "applied"], rows)


def transfer_result(transfers: Sequence[Mapping[str, Any]]) -> RenderableType:
    """After a round: each pattern that moves (or was overridden), with its automatic decision and why."""
    rows = [[t["final"], t["key"]] for t in transfers]
    notes = [[("why: " if t["final"] == t["automatic"] else f"overridden; the automatic {t['automatic']} was for: ")
              + t["reason"]] for t in transfers]
    return Listing("Knowledge transfer", ["final", "pattern"], rows, notes)
