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
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:2em}figure{margin:0}
figure svg{width:100%;max-width:640px;height:auto}
table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}
.note{color:#555;font-size:.9em}.lead{margin-top:1.2em}.lead p{margin:.3em 0}
.headline{font-size:1.35em;font-weight:600;line-height:1.35}
.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}
.card{flex:1 1 14em;border:1px solid #ddd;border-radius:8px;padding:.7em 1em}
.card .label{color:#555;font-size:.9em}.card .big{font-size:1.9em;font-weight:700;margin:.1em 0}
.card .sub{font-size:.9em}.card .interval{color:#555;font-size:.85em;margin-top:.3em}
@media (max-width:600px){body{margin:1em auto}.headline{font-size:1.15em}}"""
"""The page's look: one column up to a laptop's width; on a phone the three figures stack and
each chart fits the screen's width whole (an SVG: zoomed in, it stays sharp)."""

WIDE = (6.4, 3.0)
"""A chart's size in inches: drawn at most 640 px wide, its 11 pt text about the page's own size
on a laptop and still legible across a phone."""


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
        from artibot.messages import Message

        raise ArtibotError(Message("report.no_matplotlib", hint=report_install_hint())) from None
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "artibot", "font.size": 11,
                                "axes.spines.top": False, "axes.spines.right": False})
    import matplotlib.pyplot as plt

    return plt


def report_install_hint() -> str:
    """The command that adds matplotlib, for how this artibot was installed (:mod:`.install_source`)."""
    from artibot.cli.install_source import install_source, report_command

    return report_command(install_source())


def _legend_above(ax: Any, columns: int) -> None:
    """The legend in a row above the plot, where it covers no line or bar."""
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.02), ncol=columns, frameon=False, borderaxespad=0,
              handlelength=1.6, columnspacing=1.2)


def _day_axis(ax: Any, days: list[str]) -> None:
    """Days as ``MM-DD`` (the year once, on the axis), at most about twelve labels."""
    step = max(1, -(-len(days) // 12))
    ax.set_xticks(range(0, len(days), step), [d[5:] for d in days[::step]])
    years = sorted({d[:4] for d in days})
    ax.set_xlabel("day (UTC), " + "–".join([years[0], years[-1]] if len(years) > 1 else years))
    ax.set_xlim(-0.6, len(days) - 0.4)


def _share_axis(ax: Any, top: float) -> None:
    from matplotlib.ticker import PercentFormatter

    ax.set_ylim(0, top)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))


def cost_chart(costs: Mapping[str, Mapping[str, Any]]) -> str | None:
    """Each day's measured cost per route, stacked, and every turn at System 2 beside it; None
    when no day has a measured turn."""
    days = [d for d in costs if costs[d]["turns"]]
    if not days:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=WIDE)
    xs = list(range(len(days)))
    s1 = [costs[d]["system1"] for d in days]
    s2 = [costs[d]["system2"] for d in days]
    ax.bar(xs, s1, color=COLORS["system1"], label="System 1", width=0.7)
    ax.bar(xs, s2, bottom=s1, color=COLORS["system2"], label="System 2", width=0.7)
    every = [costs[d]["all_system2"] for d in days]
    top = max(a + b for a, b in zip(s1, s2))
    if all(v is not None for v in every):
        ax.plot(xs, every, color=COLORS["all"], marker="o", label="every turn at System 2")
        top = max(top, *every)
    ax.set_ylim(0, top * 1.1 or 1.0)
    ax.yaxis.set_major_formatter(lambda v, _pos: f"${v:,.2f}")
    ax.set_ylabel("USD per day")
    _day_axis(ax, days)
    _legend_above(ax, 3)
    return _svg(fig)


def success_chart(days: Mapping[str, Mapping[str, Any]]) -> str | None:
    if not days:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=WIDE)
    names = list(days)
    for route, label in (("system1", "System 1"), ("system2", "System 2")):
        rates = [days[d]["successes"][route] / days[d]["turns"][route] if days[d]["turns"][route] else None
                 for d in names]
        ax.plot(range(len(names)), [r if r is not None else float("nan") for r in rates], marker="o",
                color=COLORS[route], label=label)
    _share_axis(ax, 1.04)
    ax.set_ylabel("turns that succeeded")
    _day_axis(ax, names)
    _legend_above(ax, 2)
    return _svg(fig)


def explored_chart(days: Mapping[str, Mapping[str, Any]]) -> str | None:
    """Each day's share of turns sent against the threshold's route; None when no turn was."""
    names = list(days)
    shares = [days[d]["explored"] / days[d]["total"] if days[d]["total"] else 0 for d in names]
    if not any(shares):
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(WIDE[0], 2.4))
    ax.bar(range(len(names)), shares, color=COLORS["explored"], width=0.7)
    _share_axis(ax, max(0.05, max(shares) * 1.2))
    ax.set_ylabel("explored")
    _day_axis(ax, names)
    return _svg(fig)


def threshold_chart(series: Mapping[str, list[Mapping[str, Any]]]) -> str | None:
    """Each domain's threshold over the rounds that proposed a change (one x position per such
    round, shared by the domains), with a proposal answered Revert as a cross."""
    if not series:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=WIDE)
    last = 0
    for domain, points in series.items():
        xs = [int(p.get("n", i)) for i, p in enumerate(points)]
        last = max(last, *xs)
        line = ax.step(xs, [p["value"] for p in points], where="post", marker="o", label=domain)[0]
        for x, p in zip(xs, points):
            if p.get("answer") == "revert":  # the proposal a person turned down
                ax.plot([x], [p["proposed"]], marker="x", color=line.get_color(), markersize=9, linestyle="none")
    step = max(1, -(-last // 12))
    ticks = list(range(0, last + 1, step))
    ax.set_xticks(ticks, ["before" if t == 0 else str(t) for t in ticks])
    ax.set_xlim(-0.3, last + 0.3)
    ax.set_xlabel("round that proposed a change (× a change answered Revert at checkpoint 2)")
    ax.set_ylabel("threshold")
    ax.set_ylim(0, 1)
    _legend_above(ax, min(len(series), 6))
    return _svg(fig)


def money(x: float) -> str:
    """Dollars for a person: cents from a dollar up, four decimals below (a turn costs cents)."""
    sign = "-" if x < 0 else ""
    return f"{sign}${abs(x):,.2f}" if abs(x) >= 1 else f"{sign}${abs(x):.4f}"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _turns(n: int) -> str:
    return f"{n:,} turn{'s' if n != 1 else ''}"


def headline(doc: Mapping[str, Any]) -> str:
    """The sentence the page starts with: what routing saved against every turn at System 2, at
    how many more redos per 100 turns than System 2 alone (or what is missing to say it)."""
    saved, share, redos = doc.get("saved_usd"), doc.get("saved_share"), doc.get("redos")
    measured = sum(r["turns"] for r in doc["routes"].values())
    judged = sum(j["turns"] for j in (doc.get("judged") or {}).values())
    if not measured and not judged and not doc.get("unmeasured_turns"):
        return "No turns recorded yet: the figures start with the first turn an agent makes through artibot."
    extra = redos["extra_per_100"]["estimate"] if redos else None
    if saved and share:
        est = saved["estimate"]
        first = (f"Routing saved you {money(est)} ({_pct(share['estimate'])}) against sending every turn to System 2"
                 if est >= 0 else
                 f"Routing cost you {money(-est)} ({_pct(-share['estimate'])}) more than sending every turn to "
                 "System 2")
        if extra is None:
            return first + "; the redos need judged turns of both routes."
        return first + (f", at {extra:.1f} more redos per 100 turns than System 2 alone." if extra > 0.05 else
                        f", with {-extra:.1f} fewer redos per 100 turns than System 2 alone." if extra < -0.05 else
                        ", with as many redos as System 2 alone.")
    first = ("What routing saved needs measured turns of both routes." if measured else
             "No measured cost yet: the gateway measures each turn's cost (`artibot install claude-code --gateway`).")
    if extra is None:
        return first + " The redos need judged turns of both routes."
    return first + (f" Against System 2 alone, routing cost you {extra:.1f} more redos per 100 turns." if extra > 0.05
                    else f" Against System 2 alone, routing spared you {-extra:.1f} redos per 100 turns."
                    if extra < -0.05 else " Routing cost you as many redos as System 2 alone.")


def _card(name: str, label: str, big: str, sub: str, interval: str = "") -> str:
    esc = html.escape
    extra = f"<div class='interval'>{esc(interval)}</div>" if interval else ""
    return (f"<div class='card' data-card='{name}'><div class='label'>{esc(label)}</div>"
            f"<div class='big'>{esc(big)}</div><div class='sub'>{esc(sub)}</div>{extra}</div>")


def lead(doc: Mapping[str, Any]) -> str:
    """The page's lead: the headline, then what the person paid, what they saved and the redos it
    cost them, each with its 95% interval, and what none of it counts yet (in English, as the page is)."""
    from artibot.cli.render_health import pending_line

    esc = html.escape
    measured = sum(r["turns"] for r in doc["routes"].values())
    cards = []
    if measured:
        unmeasured = doc.get("unmeasured_turns") or 0
        cards.append(_card("paid", "You paid", money(doc["total_usd"]), f"for {_turns(measured)} the gateway measured"
                           + (f" ({unmeasured:,} more without a measured cost)" if unmeasured else "")))
    saved, share = doc.get("saved_usd"), doc.get("saved_share")
    if saved and share:
        cards.append(_card("saved", "You saved", f"{money(saved['estimate'])} ({_pct(share['estimate'])})",
                           f"against every turn at System 2 ({money(doc['all_system2_usd'])})",
                           f"95% interval {money(saved['low'])} to {money(saved['high'])}, "
                           f"{_pct(share['low'])} to {_pct(share['high'])}"))
    redos = doc.get("redos")
    if redos:
        extra = redos["extra_per_100"]
        more = extra["estimate"] >= 0
        cards.append(_card("redos", "Redos it cost you" if more else "Redos it spared you",
                           f"{extra['estimate']:+.1f}",
                           f"{'more' if more else 'fewer'} redos per 100 turns than System 2 alone "
                           f"({redos['routed_per_100']:.1f} routed, {redos['system2_alone_per_100']:.1f} with "
                           "System 2 alone)",
                           f"95% interval {extra['low']:+.1f} to {extra['high']:+.1f}"))
    parts = ["<p class='headline'>" + COMMAND.sub(r"<code>\1</code>", esc(headline(doc))) + "</p>"]
    if cards:
        parts.append(f"<div class='cards'>{''.join(cards)}</div>")
    waiting = pending_line(doc.get("pending_turns"), "en")
    if waiting:
        parts.append(f"<p class='note' data-note='pending'>{esc(waiting)}</p>")
    if redos:
        parts.append(f"<p class='note'>{esc(doc['redo_note'])}</p>")
    return f"<section class='lead' data-lead='costs'>{''.join(parts)}</section>"


def render(data: Mapping[str, Any], *, now: datetime | None = None) -> str:
    """The whole page for :func:`artibot.reports.data.report_data`'s ``data``."""
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    esc = html.escape
    parts = [f"<h1>artibot report</h1><p class='note'>{esc(data['home'])}, {stamp}; "
             f"{data['experiences']:,} turns recorded</p>", lead(data["lead"])]

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
            "explored", "No turn was explored yet." if data["days"] else "No turns recorded yet.")
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
