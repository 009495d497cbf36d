"""Money as the commands show it, and the measured cost lines of ``status`` and ``/learn``.

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
