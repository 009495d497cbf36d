"""Money as the commands show it, the lead of ``report cost`` and ``status`` (the HTML report
:mod:`artibot.cli.report_html` says the same figures its own way),
and the measured cost lines of ``status`` and ``/learn``.

Apart from :mod:`artibot.cli.cmd_report` so that ``artibot status`` renders them without
loading the CLI framework.
"""

from __future__ import annotations

from typing import Any, Mapping


def usd(x: float | None) -> str:
    return "—" if x is None else f"{'-' if x < 0 else ''}${abs(x):,.4f}"


def cost_lines(doc: Mapping[str, Any]) -> list[str]:
    """Cost per route in one or two lines (for ``status`` and ``/learn``); none before any was measured."""
    routes = doc["routes"]
    if not any(r["turns"] for r in routes.values()):
        return []
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    parts = [w(lang, "cost_route", route=name.replace("system", "System "), usd=usd(r["mean_usd"]), n=r["turns"])
             for name, r in routes.items() if r["turns"]]
    line = w(lang, "cost_measured") + "; ".join(parts)
    saved = doc.get("saved_usd")
    if saved:
        line += w(lang, "cost_saved", all=usd(doc["all_system2_usd"]), total=usd(doc["total_usd"]),
                  est=usd(saved["estimate"]), low=usd(saved["low"]), high=usd(saved["high"]))
    return [line]


def pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def any_turns(doc: Mapping[str, Any]) -> bool:
    """Whether the cost report counts any turn, measured or only judged."""
    return any(r["turns"] for r in doc["routes"].values()) or bool(doc.get("unmeasured_turns")) \
        or any(j["turns"] for j in (doc.get("judged") or {}).values())


def lead_lines(doc: Mapping[str, Any], lang: str) -> list[str]:
    """The two lines the cost screens start with: what routing saved against every turn at
    System 2 (or that nothing was measured), and the redos per 100 turns it added against
    System 2 alone, each with its 95% interval."""
    from artibot.cli.words import w

    saved, share, redos = doc.get("saved_usd"), doc.get("saved_share"), doc.get("redos")
    if saved and share:
        first = w(lang, "lead_saved", est=usd(saved["estimate"]), pct=pct(share["estimate"]),
                  low=usd(saved["low"]), high=usd(saved["high"]), plow=pct(share["low"]), phigh=pct(share["high"]))
    elif any(r["turns"] for r in doc["routes"].values()):
        first = w(lang, "lead_no_saving")
    else:
        first = w(lang, "lead_no_cost")
    if redos:
        extra = redos["extra_per_100"]
        second = w(lang, "lead_redos", extra=f"{extra['estimate']:+.1f}", low=f"{extra['low']:+.1f}",
                   high=f"{extra['high']:+.1f}", routed=f"{redos['routed_per_100']:.1f}",
                   alone=f"{redos['system2_alone_per_100']:.1f}")
    else:
        second = w(lang, "lead_no_redos")
    return [first, second]
