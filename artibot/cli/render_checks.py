"""Text of the issue-12 checks: the off-policy block under checkpoint 2 and the validation report."""

from __future__ import annotations

from typing import Any, Mapping

METHOD_NAMES = {"dr": "doubly robust", "snips": "self-normalised IPS"}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def _pts(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:+.1f}"


def offpolicy_text(op: Mapping[str, Any] | None) -> str:
    """The block printed under the checkpoint-2 table (plain words when the evidence is too thin)."""
    if not op:
        return "Off-policy estimate: not available for this round (prepared before artibot computed it)."
    cur, new, diff = op["current"], op["proposed"], op["difference"]
    share = (f"System 2 share {_pct(cur['system2_share'])} -> {_pct(new['system2_share'])} "
             f"({_pts(diff['system2_share'])} points)")
    earlier = op.get("earlier") or 0
    head = f"Off-policy check, {op['n']:,} logged experiences" + (f" ({earlier:,} from earlier rounds)" if earlier else "")
    if op["verdict"] == "too_thin":
        return f"{head}:\n  success: {op['reason']}.\n  {share}."
    if op["verdict"] == "no_change":
        return (f"{head}:\n  {op['reason']} (success {_pct(cur['success'])}, "
                f"System 2 share {_pct(cur['system2_share'])}).")
    level = int(round(op["level"] * 100))
    lo, hi = op["interval"]

    def line(name: str, p: Mapping[str, Any]) -> str:
        a, b = p["interval"]
        return (f"  {name:<10} success {_pct(p['success'])} [{_pct(a)}, {_pct(b)}]   "
                f"System 2 share {_pct(p['system2_share'])}")

    return (f"{head};\n{METHOD_NAMES.get(op['method'], op['method'])} estimates with {level}% intervals:\n"
            f"{line('current', cur)}\n{line('proposed', new)}\n"
            f"  {'change':<10} success {_pts(diff['success'])} points [{_pts(lo)}, {_pts(hi)}]   "
            f"System 2 share {_pts(diff['system2_share'])} points\n"
            f"  {op['reason']};\n  effective sample size {op['ess']:,.0f}; "
            f"{op['support']['proposed']} explored on the new route where they differ.")


def validation_lines(summary: Mapping[str, Any]) -> list[str]:
    """``artibot status`` lines: every round found worse (with its rollback command), else the latest check."""
    lines = [f"[bold]worse after a round[/bold]: {v['message']}" for v in summary.get("worse", [])]
    last = summary.get("last")
    if not lines and last is not None:
        lines.append(f"last validation: {last['message']}")
    if summary.get("waiting"):
        lines.append("waiting to be validated: " + ", ".join(summary["waiting"]))
    return lines
