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
    parts = [f"{name.replace('system', 'System ')} {usd(r['mean_usd'])}/turn over {r['turns']} turn(s)"
             for name, r in routes.items() if r["turns"]]
    line = "measured cost: " + "; ".join(parts)
    saved = doc.get("saved_usd")
    if saved:
        line += (f"; all at System 2 would have cost {usd(doc['all_system2_usd'])} instead of "
                 f"{usd(doc['total_usd'])} (saved {usd(saved['estimate'])}, 95% {usd(saved['low'])} to "
                 f"{usd(saved['high'])})")
    return [line]
