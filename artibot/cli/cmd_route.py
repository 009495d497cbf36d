"""``artibot route`` and ``artibot outcome``: routing for agents other than Claude Code."""

from __future__ import annotations

import time
from typing import Optional

import typer

from artibot.collector import collect
from artibot.store.home import Home
from artibot.errors import ValidationError
from artibot.experience import OUTCOMES, new_id, now_iso
from artibot.privacy import anonymize
from artibot.learned_router import Router
from artibot.store import pending_decisions as pending
from artibot.cli.render import console, emit_json, fmt


def register(app: typer.Typer) -> None:
    @app.command("route")
    def route_cmd(
        text: str = typer.Argument(..., help="The request text."),
        domain: Optional[str] = typer.Option(None, "--domain", help="Skip classification and use this domain."),
        as_json: bool = typer.Option(False, "--json"),
        record: bool = typer.Option(False, "--record", help="Keep the decision as pending; prints its id."),
        session_id: Optional[str] = typer.Option(None, "--session-id"),
    ) -> None:
        """Score and route a request with the current thresholds and System 1 cache."""
        home = Home.of(None)
        decision = Router.load(home).route(text, domain=domain)
        out = decision.to_json()
        if record:
            decision_id = new_id()
            pending.save(home, decision_id, {"id": decision_id, "decided_at": now_iso(),
                                             "decided_ns": time.time_ns(), "session_id": session_id,
                                             "input": anonymize(text), "decision": out})
            out["id"] = decision_id
        if as_json:
            emit_json(out)
            return
        why = {"cache": "System 1 cache hit", "forced": "explicit think flag", "explore": "exploration",
               "threshold": "complexity vs threshold"}.get(decision.reason, decision.reason)
        console.print(f"{decision.system}  complexity {fmt(decision.complexity, 2)}  threshold "
                      f"{fmt(decision.threshold, 2)}  domain {decision.domain}  ({why})")
        if record:
            console.print(f"recorded as {out['id']}: complete it with `artibot outcome {out['id']} success|escalated|failed`")

    @app.command("outcome")
    def outcome_cmd(
        decision_id: str = typer.Argument(..., metavar="ID", help="The id printed by `artibot route --record`."),
        outcome: str = typer.Argument(..., help="success, escalated or failed."),
        latency_ms: Optional[float] = typer.Option(None, "--latency-ms",
                                                   help="Default: the time since the decision."),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Complete a recorded decision into an experience."""
        if outcome not in OUTCOMES:
            raise ValidationError([f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}"])
        home = Home.of(None)
        doc = pending.load(home, decision_id)
        d = doc["decision"]
        if latency_ms is None:
            latency_ms = max((time.time_ns() - int(doc.get("decided_ns", time.time_ns()))) / 1e6, 0.0)
        stored = collect({
            "id": doc["id"], "timestamp": doc["decided_at"], "session_id": doc.get("session_id"),
            "input": doc["input"], "domain": d["domain"], "complexity": d["complexity"],
            "routed_to": d["system"], "outcome": outcome, "latency_ms": latency_ms,
            "confidence": d["confidence"], "pattern": d.get("pattern"), "threshold": d["threshold"],
            "propensity": d["propensity"], "source": "cli",
        }, home=home)
        pending.close(home, decision_id)
        if as_json:
            emit_json(stored)
        else:
            console.print(f"recorded {outcome} for {decision_id}")
