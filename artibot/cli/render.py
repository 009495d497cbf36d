"""Rendering helpers shared by the commands: JSON to stdout, rich tables to the terminal."""

from __future__ import annotations

import sys
from typing import Any, Iterable, Sequence

import orjson
from rich.console import Console
from rich.table import Table

from artibot.checkpoints import Evidence, texts

console = Console(highlight=False, soft_wrap=False)
err_console = Console(stderr=True, highlight=False)


def emit_json(data: Any) -> None:
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
                                  | orjson.OPT_SERIALIZE_DATACLASS).decode() + "\n")
    sys.stdout.flush()


def table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Table:
    t = Table(title=title, title_justify="left", show_lines=False)
    for col in columns:
        t.add_column(col)
    for row in rows:
        t.add_row(*("—" if v is None else str(v) for v in row))
    return t


def fmt(x: float | None, nd: int = 3) -> str:
    return "—" if x is None else f"{x:.{nd}f}"


MAX_GROUP_ROWS = 40


def evidence_table(ev: Evidence) -> Table:
    t = texts(ev.lang)
    title = t["title"][ev.checkpoint]
    if ev.checkpoint == 1:
        rows = [(r["batch"], r["domain"], f"{fmt(r['complexity'][0], 2)}–{fmt(r['complexity'][1], 2)}",
                 r["s1"], r["s2"], fmt(r["advantage"]) if not r["one_sided"] else "one-sided",
                 (f"[{fmt(r['interval'][0], 2)}, {fmt(r['interval'][1], 2)}]" if "interval" in r else ""))
                for r in ev.rows]
        shown = rows[:MAX_GROUP_ROWS]
        tab = table(title, ["batch", "domain", "complexity", "S1 ok/n", "S2 ok/n", "advantage s2−s1",
                            "interval"], shown)
        s = ev.summary
        tab.caption = (f"{s['groups']} groups in {s['batches']} batch(es): {s['two_sided']} two-sided, "
                       f"{s['one_sided']} one-sided (not used)"
                       + (f"; first {MAX_GROUP_ROWS} shown, all in --json" if len(rows) > MAX_GROUP_ROWS else ""))
        return tab
    if ev.checkpoint == 2:
        rows = [(r["domain"], fmt(r["old"]), fmt(r["new"]), f"{r['change']:+.3f}", r["direction"], r["batches"],
                 r["clamped"]) for r in ev.rows]
        tab = table(title, ["domain", "old", "new", "change", "direction", "steps", "clamped"], rows)
        why = [f"{r['domain']}: {r['reason']}" for r in ev.rows if r.get("reason")]
        if "price" in ev.summary:
            why.insert(0, f"price of a System 2 call {ev.summary['price']:.3f} ({ev.summary['price_source']})")
        if why:
            tab.caption = "\n".join(why)
            tab.caption_justify = "left"
        return tab
    rows = [(r["key"], r["status"], r["automatic"], r["promotion_streak"], r["demotion_streak"], r["s1"], r["s2"],
             fmt(r["confidence"], 2),
             f"[{fmt(r['bounds'][0], 2)}, {fmt(r['bounds'][1], 2)}]" if "bounds" in r else "", r["reason"])
            for r in ev.rows]
    return table(title, ["pattern", "status", "automatic", "S2 streak", "S1 fail streak", "S1 ok/n", "S2 ok/n",
                         "confidence", "S1 success bounds", "why"], rows)
