"""What a person sees at each checkpoint, laid out for an 80-column terminal.

Every value a person judges — pattern keys, decisions, old and new thresholds, reasons —
is shown whole: a long value gets a line of its own (a pattern key heads its entry, a
reason is wrapped under its row) instead of a column that would cut it short.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from artibot.round.checkpoint_texts import direction, explain, title
from artibot.round.checkpoints import Evidence, reason_said
from artibot.messages import Message, render
from artibot.cli.words import action, price_said, status_word, w
from artibot.cli.render import Hanging, Listing, fmt

MAX_GROUP_ROWS = 24

# promote and demote change the cache: shown first, then what is held
_ACTION_ORDER = {"promote": 0, "demote": 1, "hold": 2}


def transfer_order(rows: Sequence[Mapping[str, Any]], *, moves_last: bool = False) -> list[Mapping[str, Any]]:
    """Checkpoint 3's patterns: promotions, demotions, then holds, each by key; ``moves_last``
    puts the holds first, so that the moves stand just above the question in a terminal."""
    sign = -1 if moves_last else 1

    def order(r: Mapping[str, Any]) -> tuple[int, str]:
        return sign * _ACTION_ORDER.get(r["automatic"], 3), str(r["key"])

    return sorted(rows, key=order)


def _interval(pair: Sequence[float] | None) -> str:
    return "" if pair is None else f"[{fmt(pair[0], 2)}, {fmt(pair[1], 2)}]"


def _signed(x: float | None, nd: int = 3) -> str:
    return "—" if x is None else f"{x:+.{nd}f}"


def group_view(ev: Evidence) -> RenderableType:
    """Checkpoint 1: per domain, then the groups where both systems ran (the only ones that
    move a threshold)."""
    s, lang = ev.summary, ev.lang
    compared = [r for r in ev.rows if not r["one_sided"]]
    with_interval = any("interval" in r for r in compared)
    batches = len({r["batch"] for r in compared}) > 1  # one batch (evidence mode): no column
    columns = ([w(lang, "batch")] * batches + [w(lang, k) for k in ("domain", "complexity", "s1", "s2", "here")]
               + ([w(lang, "estimate")] * with_interval))
    rows = [[r["batch"]] * batches + [r["domain"], f"{fmt(r['complexity'][0], 2)}–{fmt(r['complexity'][1], 2)}",
             _ok(r, 1), _ok(r, 2), _signed(r["advantage"])]
            + ([_estimate(r)] * with_interval) for r in compared[:MAX_GROUP_ROWS]]
    caption = w(lang, "groups_caption", groups=s["groups"], batches=s["batches"], two=s["two_sided"],
                one=s["one_sided"])
    if len(compared) > MAX_GROUP_ROWS:
        caption += "; " + w(lang, "first_shown", n=MAX_GROUP_ROWS)
    if with_interval:  # S2−S1 is this round's; the estimate rests on the cell's whole history
        caption += "; " + w(lang, "estimate_caption")
    by_domain = Listing(None, [w(lang, k) for k in ("domain", "groups", "s1", "s2", "mean")], _domain_rows(compared))
    held = [Hanging(held_out_text(s["held_out"], s.get("held_out_limits") or ["?", "?"], lang))] \
        if s.get("held_out") else []
    return Group(Text(title(1, lang), style="bold"), Hanging(explain(1, lang)),
                 Listing(None, columns, rows, caption=caption), Text(""), by_domain, *held)


def held_out_text(held: Mapping[str, Mapping[str, int]], limits: Sequence[Any], lang: str) -> str:
    """A team round's held-out domains (new to the team beyond what one member or a round may
    add), by member: the reason, and whose rows were not learned."""
    members = ", ".join(w(lang, "tm_held_member", member=m, domains=v["domains"], rows=v["rows"])
                        for m, v in sorted(held.items()))
    return w(lang, "tm_held_out", per=limits[0], all=limits[1], members=members)


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
    lang = ev.lang
    rows = [[r["domain"], fmt(r["old"]), fmt(r["new"]), _signed(r["change"]), r["direction"]] for r in ev.rows]
    notes = [_reasons(r, lang) + _limit_note(r, lang) for r in ev.rows]
    summary = ev.summary
    parts = []
    price = summary.get("price")  # evidence mode's price in force and where it came from
    if price is not None:
        parts.append(price_said(lang, float(price), str(summary.get("price_source"))))
    if summary.get("max_step") and summary.get("batch_size"):
        parts.append(w(lang, "limit_caption", step=summary["max_step"], size=summary["batch_size"],
                       batches=summary.get("batches") or 1))
    if summary.get("money") and lang == "en":
        parts.append(str(summary["money"]))
    return Listing(title(2, lang), [w(lang, k) for k in ("domain", "old", "new", "change", "direction")],
                   rows, notes, caption="; ".join(parts) or None)


def change_words(row: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """One threshold change as an agent shows it (``/learn``'s brief): the numbers, the
    direction and the reason in the round's language."""
    out = {k: row[k] for k in ("domain", "old", "new", "direction") if k in row}
    said = _reasons(row, lang) + _limit_note(row, lang)
    if said:
        out["reason"] = "; ".join(said)
    for k in ("usd_per_100", "redos_per_100"):
        if row.get(k) is not None:
            out[k] = row[k]
    return out


def _reasons(row: Mapping[str, Any], lang: str) -> list[str]:
    said = reason_said(row, lang)
    return [said] if said else []


def _limit_note(row: Mapping[str, Any], lang: str = "en") -> list[str]:
    """How far the threshold could move this round, and whether the move was cut short there."""
    limit = row.get("limit")
    if limit is None and not row.get("clamped"):
        return []
    text = w(lang, "could_move", limit=limit) if limit is not None else ""
    if row.get("clamped"):
        # the best-looking threshold lay beyond the limit: the move stopped there, or stopped short
        # of it (or did not start) because no threshold within it is surely better
        change = abs(float(row.get("change") or 0.0))
        reached = limit is None or change >= float(limit) - 1e-9
        key = "clamped" if change > 1e-12 and reached else "clamped_short" if change > 1e-12 else "clamped_stays"
        text += ("; " if text else "") + w(lang, key)
    return [text]


def transfer_view(ev: Evidence, held: str | None = None) -> RenderableType:
    """Checkpoint 3: one entry per pattern — decision and key, then its numbers, then why.

    ``held``: the patterns held where they are (they need no decision) are one line, their
    count and ``held`` (how to see them); None lists every pattern."""
    lang = ev.lang
    rows, notes = [], []
    ordered = transfer_order(ev.rows, moves_last=True)
    counts = {a: sum(1 for r in ordered if r["automatic"] == a) for a in _ACTION_ORDER}
    listed = [r for r in ordered if held is None or r["automatic"] != "hold"]
    evidence_mode = ev.summary.get("mode") == "evidence"
    for r in listed:
        rows.append([action(lang, r["automatic"]), r["key"]])
        if evidence_mode:  # decided on the success bounds in its reason: no confidence or streak beside them
            numbers = w(lang, "pattern_counts", status=status_word(lang, r["status"]), s1=_ok(r, 1), s2=_ok(r, 2))
        else:
            numbers = w(lang, "pattern_numbers", status=status_word(lang, r["status"]), s1=_ok(r, 1), s2=_ok(r, 2),
                        confidence=fmt(r["confidence"], 2), promo=r["promotion_streak"], demo=r["demotion_streak"])
        if "bounds" in r and "success" not in r["reason"]:
            numbers += w(lang, "s1_bounds", bounds=_interval(r["bounds"]))
        reason = reason_said(r, lang) or ""
        notes.append([numbers, w(lang, "why", reason=reason)])
    caption = w(lang, "patterns_caption", n=len(ordered), hold=counts["hold"], demote=counts["demote"],
                promote=counts["promote"])
    heading = title(3, lang)
    if held is None or not counts["hold"]:
        return Listing(heading, [w(lang, "decision"), w(lang, "pattern")], rows, notes, caption=caption)
    line = Hanging(w(lang, "held_line", n=counts["hold"], how=held))
    if not rows:
        return Group(Text(heading, style="bold"), line)
    return Group(Listing(heading, [w(lang, "decision"), w(lang, "pattern")], rows, notes), line)


def held_patterns(ev: Evidence) -> RenderableType:
    """The patterns checkpoint 3 holds where they are, each with its numbers (the line that
    collapses them, unfolded)."""
    lang = ev.lang
    only = Evidence(3, ev.round_id, lang, rows=[r for r in ev.rows if r["automatic"] == "hold"], summary=ev.summary)
    return transfer_view(only)


def evidence_table(ev: Evidence, held: str | None = None) -> RenderableType:
    """The checkpoint's evidence as a person reads it (``--json`` has every field); ``held``:
    checkpoint 3's held patterns in one line, with how to see them (:func:`transfer_view`)."""
    if ev.checkpoint == 3:
        return transfer_view(ev, held)
    return {1: group_view, 2: threshold_view}[ev.checkpoint](ev)


def threshold_result(changes: Mapping[str, Mapping[str, Any]], lang: str = "en") -> RenderableType:
    """After a round: each threshold's old and new value and whether it was applied."""
    applied = {True: w(lang, "yes"), False: w(lang, "reverted"), None: "—"}
    rows = [[d, fmt(c["old"]), fmt(c["new"]), direction(c["old"], c["new"], lang), applied[c.get("applied")]]
            for d, c in changes.items()]
    return Listing(w(lang, "thresholds"), [w(lang, k) for k in ("domain", "old", "new", "direction", "applied")], rows)


def transfer_result(transfers: Sequence[Mapping[str, Any]], lang: str = "en",
                    said: Mapping[str, Message] | None = None) -> RenderableType:
    """After a round: each pattern that moves (or was overridden), with its automatic decision
    and why; ``said``: each pattern's reason as a message, to say it in ``lang`` (a round's
    report read back from its JSON has only the English reason, said in English or, in another
    language, as the decision alone)."""
    rows = [[action(lang, t["final"]), t["key"]] for t in transfers]

    def why(t: Mapping[str, Any]) -> str:
        kept = t["final"] == t["automatic"]
        if said and t["key"] in said:
            reason = render(said[t["key"]], lang)
        elif lang == "en":
            reason = str(t["reason"])
        else:
            return w(lang, "decision_kept") if kept else w(lang, "decision_overridden", action=action(lang, t["automatic"]))
        return (w(lang, "why", reason="") if kept else w(lang, "overridden", action=action(lang, t["automatic"]))) + reason

    return Listing(w(lang, "transfer"), [w(lang, "final"), w(lang, "pattern")], rows, [[why(t)] for t in transfers])
