"""A pending round for an agent's chat (``artibot review --json --prepare``, inlined by
``/learn``): the decisions that need the person, each in a few lines, sized to be shown
whole, with the rest one command away.

An agent client shows a command's output inline only up to a size, and past it keeps a
short preview. Claude Code 2.1.331 keeps 30,000 bytes of a ``!`command``` output inline
and replaces a longer one with "Output too large … Preview (first 2KB)": the round's
questions would be lost. So the brief stays within :data:`BUDGET` whatever the round's
size: per checkpoint its question and options, a few summary lines, the changes the
person decides on (threshold moves, promotions and demotions; what is held needs no
decision and is a count), and the command that shows the rest:
``artibot review --json --question N --page P`` (a page of :data:`PAGE_ROWS` rows of the
full evidence) or ``artibot review --json --pattern KEY`` (one pattern). A list that would
not fit is cut to its first entries, with how many there are and the page that has the
rest.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import orjson

from artibot.messages import Message, render
from artibot.round import checkpoints as cp

BUDGET = 16_000
"""Bytes of the brief as ``--json`` prints it (two-space indent): about half of what
Claude Code shows inline (30,000 bytes), so a larger client frame or wider text still fits."""

PAGE_ROWS = 15
"""Rows of evidence per ``--page``: a page of the largest rows stays within :data:`BUDGET`."""

MAX_DOMAINS = 8
"""Checkpoint 1's per-domain lines in the brief (the domains with most groups first)."""

def _w(lang: str, key: str, **values: Any) -> str:
    """A line of the brief in ``lang``: the catalogue's ``brief.KEY`` (:mod:`artibot.messages`)."""
    return render(Message(f"brief.{key}", **values), lang)


def page_command(n: int, page: int = 1) -> str:
    return f"artibot review --json --question {n}" + (f" --page {page}" if page > 1 else "")


def pattern_command(key: str) -> str:
    return f"artibot review --json --pattern '{key}'"


def size(doc: Any) -> int:
    """Bytes of ``doc`` as ``--json`` prints it."""
    return len(orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)) + 1


def _head(ev: cp.Evidence) -> dict[str, Any]:
    """The question without its evidence: what the agent asks and the answers it lists."""
    full = cp.question_json(ev)
    return {k: full[k] for k in ("number", "title", "question", "skippable", "options", "default")}


def _groups(ev: cp.Evidence) -> dict[str, Any]:
    lang, s = ev.lang, ev.summary
    compared = [r for r in ev.rows if not r["one_sided"]]
    lines = [_w(lang, "groups", groups=s["groups"], batches=s["batches"], two=s["two_sided"], one=s["one_sided"])]
    totals: dict[str, list[float]] = {}
    for r in compared:
        t = totals.setdefault(str(r["domain"]), [0, 0, 0, 0, 0, 0.0])
        for i, v in enumerate((1, r["k1"], r["n1"], r["k2"], r["n2"], r["advantage"] or 0.0)):
            t[i] += v
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0]))
    for domain, (g, k1, n1, k2, n2, a) in ranked[:MAX_DOMAINS]:
        lines.append(_w(lang, "domain", domain=domain, groups=int(g), k1=int(k1), n1=int(n1), k2=int(k2),
                        n2=int(n2), mean=a / g))
    if len(ranked) > MAX_DOMAINS:
        lines.append(_w(lang, "more_domains", n=len(ranked) - MAX_DOMAINS, command=page_command(1)))
    intervals = [r["interval"] for r in compared if r.get("interval")]
    if intervals:
        lines.append(_w(lang, "surely", s2=sum(1 for lo, _ in intervals if lo > 0),
                        s1=sum(1 for _, hi in intervals if hi < 0)))
    return {**_head(ev), "summary": lines, "more": _w(lang, "more", command=page_command(1))}


def _thresholds(ev: cp.Evidence, change_words: Callable[[Mapping[str, Any], str], dict[str, Any]]) -> dict[str, Any]:
    s = ev.summary
    changes = [change_words(r, ev.lang) for r in ev.rows]
    out: dict[str, Any] = {**_head(ev), "changes": changes}
    if not changes:
        out["summary"] = [_w(ev.lang, "nothing_moves")]
    op = s.get("off_policy")
    if op:
        brief = {k: op[k] for k in ("verdict", "reason") if k in op}
        for side in ("current", "proposed", "difference"):
            if side in op:
                brief[side] = {k: v for k, v in op[side].items() if k in ("success", "interval", "system2_share")}
        if "interval" in op:
            brief["interval"] = op["interval"]
        out["off_policy"] = brief
    if s.get("utility") is not None:
        out["utility"] = s["utility"]
    for key in ("price", "price_source", "money"):
        if s.get(key) is not None:
            out[key] = s[key]
    out["more"] = _w(ev.lang, "more", command=page_command(2))
    return out


def _transfers(ev: cp.Evidence) -> dict[str, Any]:
    lang = ev.lang
    moves = [r for r in ev.rows if r["automatic"] != "hold"]
    held = len(ev.rows) - len(moves)
    decisions = [{"key": r["key"], "automatic": r["automatic"], "reason": cp.reason_said(r, lang),
                  "answer_as": f"3.{r['key']}=auto|promote|demote|hold"} for r in moves]
    summary = [_w(lang, "held", n=held, command=page_command(3)) if held else _w(lang, "none_held")]
    return {**_head(ev), "decisions": decisions, "summary": summary,
            "counts": {a: sum(1 for r in ev.rows if r["automatic"] == a) for a in ("promote", "demote", "hold")},
            "more": _w(lang, "more", command=page_command(3))}


_LISTS = {1: "summary", 2: "changes", 3: "decisions"}


def brief(doc: Mapping[str, Any], evidence: Sequence[cp.Evidence], change_words: Callable[[Mapping[str, Any], str], dict[str, Any]],
          budget: int = BUDGET) -> dict[str, Any]:
    """``doc`` (:func:`artibot.round.review.pending_questions` of a pending round) with each open
    question's evidence in brief: within ``budget`` bytes. ``change_words(row, lang)``: one
    threshold row as the agent shows it (the row's domain, old and new value, direction and reason)."""
    built = {1: _groups, 3: _transfers}
    questions = [_thresholds(ev, change_words) if ev.checkpoint == 2 else built[ev.checkpoint](ev)
                 for ev in evidence]
    out = {**{k: v for k, v in doc.items() if k != "questions"}, "brief": True, "questions": questions}
    full = {q["number"]: len(q[_LISTS[q["number"]]]) for q in questions}
    while size(out) > budget:
        # cut the longest list in half, keeping its first entries and saying where the rest are
        q = max(questions, key=lambda q: len(q[_LISTS[q["number"]]]))
        key = _LISTS[q["number"]]
        items = q[key]
        if len(items) <= 1:
            break  # nothing left to cut: a round's texts alone (never near the budget)
        kept = len(items) // 2
        q[key] = items[:kept]
        if q["number"] == 1:
            q[key].append(_w(doc.get("lang", "en"), "more_domains", n=full[1] - kept, command=page_command(1)))
        q["cut"] = _w(doc.get("lang", "en"), "shown", shown=kept, total=full[q["number"]],
                      command=page_command(q["number"], _page_of(q["number"], kept, evidence)))
    return out


def _page_of(n: int, kept: int, evidence: Sequence[cp.Evidence]) -> int:
    """The page of the full evidence that holds the first entry the brief left out."""
    ev = next(e for e in evidence if e.checkpoint == n)
    if n == 3:  # the brief lists the moves; the pages list every row, moves first
        order = page_rows(ev)
        moves = [r for r in order if r["automatic"] != "hold"]
        at = order.index(moves[kept]) if kept < len(moves) else kept
    else:
        at = kept
    return at // PAGE_ROWS + 1


def page_rows(ev: cp.Evidence) -> list[Mapping[str, Any]]:
    """The evidence rows in the order the pages list them (checkpoint 3: promotions,
    demotions, then holds, each by key)."""
    rows = list(ev.rows)
    if ev.checkpoint == 3:
        order = {"promote": 0, "demote": 1, "hold": 2}
        rows.sort(key=lambda r: (order.get(str(r["automatic"]), 3), str(r["key"])))
    return rows


def page(ev: cp.Evidence, number: int) -> dict[str, Any]:
    """Page ``number`` (from 1) of a question's full evidence (``--question N --page P``)."""
    rows = page_rows(ev)
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    if not 1 <= number <= pages:
        from artibot.errors import ReviewError

        raise ReviewError(Message("review.page_range", page=number, checkpoint=ev.checkpoint, pages=pages,
                                  rows=len(rows), per=PAGE_ROWS))
    part = rows[(number - 1) * PAGE_ROWS:number * PAGE_ROWS]
    full = cp.question_json(ev)
    full["evidence"] = {"rows": [cp.json_row(r) for r in part], "summary": full["evidence"]["summary"]}
    if ev.checkpoint == 3:
        keys = {r["key"] for r in part}
        full["patterns"] = [p for p in full["patterns"] if p["key"] in keys]
        full["patterns"].sort(key=lambda p: [r["key"] for r in part].index(p["key"]))
    full.update(page=number, pages=pages, rows=len(rows))
    if number < pages:
        full["next"] = page_command(ev.checkpoint, number + 1)
    return full


def pattern(ev: cp.Evidence, key: str) -> dict[str, Any]:
    """One pattern of checkpoint 3, every field (``--pattern KEY``)."""
    for r in ev.rows:
        if r["key"] == key:
            return {**cp.json_row(r), "answer_as": f"3.{key}=auto|promote|demote|hold"}
    from artibot.errors import ReviewError

    keys = sorted(str(r["key"]) for r in ev.rows)
    near = [k for k in keys if key.lower() in k.lower()][:5]
    raise ReviewError(Message("review.no_pattern_near", key=repr(key), near=", ".join(near)) if near else
                      Message("review.no_pattern_count", key=repr(key), n=len(keys)))
