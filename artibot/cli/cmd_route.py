"""``artibot route`` and ``artibot outcome``: routing for agents other than Claude Code."""

from __future__ import annotations

import time
from typing import Optional

import typer

from artibot.collector import collect
from artibot.store.home import Home
from artibot.errors import InvalidInput, ValidationError
from artibot.experience import OUTCOMES, now_iso
from artibot.hookpath.record import experience_record, new_id
from artibot.hookpath.privacy import anonymize
from artibot.learned_router import Router
from artibot.messages import Message
from artibot.store.round import pending_decisions as pending
from artibot.cli import completion
from artibot.cli.render import console, emit_json, err_console, fmt

REASONS = ("cache", "team-cache", "forced", "explore", "threshold")
"""The router's reasons for a route that ``route`` words (another stays as the router said it)."""


def register(app: typer.Typer) -> None:
    @app.command("route")
    def route_cmd(
        text: str = typer.Argument(..., help="The request text."),
        domain: Optional[str] = typer.Option(None, "--domain", help="Skip classification and use this domain.",
                                             autocompletion=completion.domains),
        as_json: bool = typer.Option(False, "--json"),
        record: bool = typer.Option(False, "--record", help="Keep the decision as pending; prints its id."),
        session_id: Optional[str] = typer.Option(None, "--session-id"),
    ) -> None:
        """Score and route a request with the current thresholds and System 1 cache."""
        if not text.strip():
            raise InvalidInput(Message("route.empty"))
        home = Home.of(None)
        router = Router.load(home)
        if domain is not None:
            _check_domain(domain, router)
        decision = router.route(text, domain=domain)
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
        from artibot.cli.words import session_lang, w

        lang = session_lang()
        why = w(lang, f"ro_{decision.reason}") if decision.reason in REASONS else decision.reason
        console.print(w(lang, "ro_line", system=decision.system, complexity=fmt(decision.complexity, 2),
                        threshold=fmt(decision.threshold, 2), domain=decision.domain, why=why))
        if record:
            # not wrapped: the command is copied whole
            console.print(w(lang, "ro_recorded", id=out["id"], outcomes="|".join(OUTCOMES)), soft_wrap=True)

    @app.command("outcome")
    def outcome_cmd(
        decision_id: str = typer.Argument(..., metavar="ID", help="The id printed by `artibot route --record`."),
        outcome: str = typer.Argument(..., help="success, escalated, failed or interrupted (cut off by something "
                                                "other than the route; kept, not learned from)."),
        latency_ms: Optional[float] = typer.Option(None, "--latency-ms",
                                                   help="Default: the time since the decision."),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Complete a recorded decision into an experience."""
        if outcome not in OUTCOMES:
            raise ValidationError([Message("value.one_of", key="outcome", options=", ".join(map(repr, OUTCOMES)),
                                           value=repr(outcome))])
        home = Home.of(None)
        doc = pending.load(home, decision_id)
        d = doc["decision"]
        if latency_ms is None:
            latency_ms = max((time.time_ns() - int(doc.get("decided_ns", time.time_ns()))) / 1e6, 0.0)
        stored = collect(experience_record(
            id=doc["id"], timestamp=doc["decided_at"], session_id=doc.get("session_id"),
            input=doc["input"], domain=d["domain"], complexity=d["complexity"],
            routed_to=d["system"], outcome=outcome, latency_ms=latency_ms,
            confidence=d["confidence"], pattern=d.get("pattern"), threshold=d["threshold"],
            propensity=d["propensity"], agent="cli",
        ), home=home)
        pending.close(home, decision_id)
        if as_json:
            emit_json(stored)
        else:
            from artibot.cli.words import session_lang, value, w

            lang = session_lang()
            console.print(w(lang, "oc_recorded", outcome=value(lang, outcome), id=decision_id))


def _check_domain(domain: str, router: Router) -> None:
    """A domain neither the router nor the learned thresholds know starts a new one: say so,
    with the closest known name (a typo would otherwise split a domain's evidence in two)."""
    import difflib

    from artibot.hookpath.router.domains import DOMAIN_NAMES

    known = sorted(set(DOMAIN_NAMES) | set(router.policy.domain_thresholds))
    if domain in known:
        return
    close = difflib.get_close_matches(domain, known, n=1, cutoff=0.6)
    from artibot.cli.words import session_lang, w

    lang = session_lang()
    hint = w(lang, "ro_did_you_mean", guess=close[0]) if close else ""
    err_console.print(w(lang, "ro_new_domain", domain=domain, known=", ".join(known), hint=hint), markup=False)
