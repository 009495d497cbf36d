"""``artibot report``: one self-contained HTML page of what artibot decided and what it cost.

The charts are drawn with matplotlib and embedded as inline SVG: the page needs no script,
no font or stylesheet from anywhere, so it opens offline and makes no network request.
matplotlib is imported here only (the ``report`` extra), when a report is written.
"""

from __future__ import annotations

import html
import io
import re
from datetime import datetime, timezone
from typing import Any, Mapping

COMMAND = re.compile(r"`([^`]*)`")
COLORS = {"system1": "#2a9d8f", "system2": "#e76f51", "all": "#264653", "explored": "#8d99ae"}
STYLE = """body{font-family:system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em}figure{margin:0}figure svg{max-width:100%;height:auto}
table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}
.note{color:#555;font-size:.9em}.lead p{margin:.3em 0}.lead p:not(.note){font-size:1.1em;font-weight:600}"""


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    text = text[text.index("<svg"):]  # the XML prolog and doctype are not for inline SVG
    start, end = text.find("<metadata>"), text.find("</metadata>")
    if 0 <= start < end:  # the creator's RDF block: names of vocabularies, nothing the page shows
        text = text[:start] + text[end + len("</metadata>"):]
    return text


def _figure(name: str, svg: str) -> str:
    return f'<figure class="chart" data-chart="{name}">{svg}</figure>'


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        from artibot.errors import ArtibotError

        raise ArtibotError("the report draws its charts with matplotlib: pip install 'artibot[report]' "
                           "(or pip install matplotlib into artibot's environment)") from None
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "artibot", "font.size": 9})
    import matplotlib.pyplot as plt

    return plt


def cost_chart(costs: Mapping[str, Mapping[str, Any]]) -> str | None:
    if not costs:
        return None
    plt = _plt()
    days = list(costs)
    fig, ax = plt.subplots(figsize=(8, 3))
    s1 = [costs[d]["system1"] for d in days]
    s2 = [costs[d]["system2"] for d in days]
    ax.bar(days, s1, color=COLORS["system1"], label="System 1")
    ax.bar(days, s2, bottom=s1, color=COLORS["system2"], label="System 2")
    every = [costs[d]["all_system2"] for d in days]
    if all(v is not None for v in every):
        ax.plot(days, every, color=COLORS["all"], marker="o", label="every turn at System 2")
    ax.set_ylabel("USD per day")
    ax.legend(loc="upper left")
    ax.tick_params(axis="x", rotation=45)
    return _svg(fig)


def success_chart(days: Mapping[str, Mapping[str, Any]]) -> str | None:
    if not days:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3))
    names = list(days)
    for route, label in (("system1", "System 1"), ("system2", "System 2")):
        rates = [days[d]["successes"][route] / days[d]["turns"][route] if days[d]["turns"][route] else None
                 for d in names]
        ax.plot(names, [r if r is not None else float("nan") for r in rates], marker="o", color=COLORS[route],
                label=f"{label} success")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share of turns that succeeded")
    ax.legend(loc="lower left")
    ax.tick_params(axis="x", rotation=45)
    return _svg(fig)


def explored_chart(days: Mapping[str, Mapping[str, Any]]) -> str | None:
    if not days:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 2.4))
    names = list(days)
    ax.bar(names, [days[d]["explored"] / days[d]["total"] if days[d]["total"] else 0 for d in names],
           color=COLORS["explored"])
    ax.set_ylabel("share explored")
    ax.tick_params(axis="x", rotation=45)
    return _svg(fig)


def threshold_chart(series: Mapping[str, list[Mapping[str, Any]]]) -> str | None:
    if not series:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3))
    for domain, points in series.items():
        xs = list(range(len(points)))
        line = ax.step(xs, [p["value"] for p in points], where="post", marker="o", label=domain)[0]
        for x, p in zip(xs, points):
            if p.get("answer") == "revert":  # the proposal a person turned down
                ax.plot([x], [p["proposed"]], marker="x", color=line.get_color(), markersize=9)
    ax.set_xlabel("round (0: before the first; × a change answered Revert at checkpoint 2)")
    ax.set_ylabel("threshold")
    ax.set_ylim(0, 1)
    ax.legend(loc="best", fontsize=8)
    return _svg(fig)


def lead(doc: Mapping[str, Any]) -> str:
    """The page's first lines, as ``artibot report cost`` starts (in English, as the page is)."""
    from artibot.cli.render_costs import lead_lines

    lines = "".join("<p>" + COMMAND.sub(r"<code>\1</code>", html.escape(line)) + "</p>"
                    for line in lead_lines(doc, "en"))
    note = f"<p class='note'>{html.escape(doc['redo_note'])}</p>" if doc.get("redos") else ""
    return f"<section class='lead' data-lead='costs'>{lines}{note}</section>"


def render(data: Mapping[str, Any], *, now: datetime | None = None) -> str:
    """The whole page for :func:`artibot.report_data.report_data`'s ``data``."""
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    esc = html.escape
    parts = [f"<h1>artibot report</h1><p class='note'>{esc(data['home'])}, {stamp}; "
             f"{data['experiences']:,} experiences</p>", lead(data["lead"])]

    def section(title: str, chart: str | None, name: str, empty: str, note: str = "") -> None:
        parts.append(f"<h2>{esc(title)}</h2>")
        parts.append(_figure(name, chart) if chart else f"<p class='note' data-empty='{name}'>{esc(empty)}</p>")
        if note and chart:
            parts.append(f"<p class='note'>{esc(note)}</p>")

    section("Cost per day by route, against every turn at System 2", cost_chart(data["costs"]), "cost",
            "No measured cost yet: the gateway measures each turn's tokens (artibot install claude-code --gateway).",
            data.get("cost_note", ""))
    section("Success per route per day", success_chart(data["days"]), "success", "No turns recorded yet.")
    section("Share of turns explored (sent against the threshold's route)", explored_chart(data["days"]),
            "explored", "No turns recorded yet.")
    section("Each domain's threshold over the rounds", threshold_chart(data["thresholds"]), "thresholds",
            "No round has changed a threshold yet.")
    parts.append("<h2>The round waiting for review</h2>")
    waiting = data.get("waiting")
    if waiting:
        rows = "".join(f"<tr><td>{esc(d)}</td><td>{c['old']:.3f}</td><td>{c['new']:.3f}</td></tr>"
                       for d, c in waiting["changes"].items())
        parts.append(f"<p>Round <code>{esc(waiting['round_id'])}</code>, prepared {esc(str(waiting['prepared']))}, "
                     f"over {waiting['processed']:,} experiences: <code>artibot review</code> shows it, "
                     f"<code>artibot learn</code> answers it.</p>"
                     f"<table data-table='waiting'><tr><th>domain</th><th>now</th><th>proposed</th></tr>{rows}"
                     "</table>")
    else:
        parts.append("<p class='note' data-empty='waiting'>No round is waiting.</p>")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width'><title>artibot report</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>\n")
