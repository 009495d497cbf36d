"""``artibot demo``: simulated coding sessions in a temporary home, learned round by round.

Each round is "a day": requests are generated from templates, routed by the real
:class:`~artibot.learned_router.Router` with the learned state, their outcomes drawn from a
hidden truth (System 1 succeeds reliably below a per-domain complexity, System 2
almost always), recorded with :func:`~artibot.collector.collect`, and then learned
with :func:`~artibot.round.cycle.learn` (checkpoints pre-approved). Everything goes through
the product's own files; nothing outside the temporary home is touched.

Both learning modes run on the same traffic (same seed), each in its own home: the
shipped defaults (no config file at all: evidence mode, exploration on, the price of
System 2 estimated from the data) under the key ``"evidence"``, and the seed's literal
rule (``mode: "seed"``: the original algorithm artibot was built to reproduce, a fixed
step per batch; everything else shipped) under ``"seed"``.

Each day's bill is in dollars at the costs the learner assumes before the gateway has
measured any (:func:`artibot.learning.objective.route_costs` of the settings: a System 1 turn,
a System 2 turn, and System 2's retry of every System 1 turn that did not succeed).
"""

from __future__ import annotations

import math
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import orjson

from artibot.collector import collect_many
from artibot.config import default_settings, load_settings
from artibot.round.cycle import learn
from artibot.learned_router import Router
from artibot.learning.objective import route_costs
from artibot.hookpath.record import experience_record
from artibot.reports.status import status
from artibot.store.fs import atomic_write_bytes
from artibot.store.home import Home

# hidden truth: System 1 succeeds with high probability below this complexity
ORACLE = {"frontend": 0.55, "backend": 0.35, "docs": 0.75, "security": 0.2}

TASKS = {
    "frontend": ["fix the typo in the button label of the react component",
                 "rename the css class of the navbar component",
                 "add a loading spinner to the react form component and then update the css layout",
                 "refactor the react state management of the dashboard page, then migrate the components "
                 "to hooks and update the ui tests"],
    "backend": ["fix the typo in the api error message",
                "add a query parameter to the rest api endpoint",
                "add pagination to the api endpoint and then update the database query",
                "migrate the database schema of the orders service, then refactor the api handlers and "
                "deploy the backend to production"],
    "docs": ["fix the typo in the readme",
             "update the docs for the install command",
             "write a tutorial section in the documentation and then update the changelog",
             "restructure the documentation site, then migrate every guide and update the api reference"],
    "security": ["rename the variable in the auth helper",
                 "update the password hashing parameters in the auth module",
                 "add csrf protection to the login form and then audit the session tokens",
                 "investigate why the auth tokens leak in production logs, then rotate the secrets and "
                 "fix the security vulnerability in the oauth flow"],
}


def _p_success(system: str, complexity: float, domain: str) -> float:
    if system == "system2":
        return 0.95
    return 1.0 / (1.0 + math.exp(-(ORACLE[domain] - complexity) * 14.0)) * 0.97


def _requests(rng: random.Random, n: int) -> list[tuple[str, str]]:
    out = []
    for _ in range(n):
        domain = rng.choice(list(TASKS))
        out.append((domain, rng.choice(TASKS[domain])))
    return out


MODES: dict[str, dict[str, Any] | None] = {
    # the seed's rule, literally; the rest as shipped (exploration on)
    "seed": {"learning": {"lifelong": {"mode": "seed"}}},
    # what a user gets without any config: the shipped defaults
    "evidence": None,
}


def run_demo(*, rounds: int = 8, seed: int = 7, home: Path | None = None, per_round: int = 400) -> dict[str, Any]:
    """Both learning modes on the same generated traffic, each in its own home under ``home``."""
    root = Path(home) if home else Path(tempfile.mkdtemp(prefix="artibot-demo-"))
    runs = {mode: _run_mode(mode, rounds=rounds, seed=seed, home=root / mode, per_round=per_round)
            for mode in MODES}
    seed_run, evidence_run = runs["seed"]["rounds"], runs["evidence"]["rounds"]
    late = max(1, rounds // 2)

    def mean(rows: list[dict[str, Any]], key: str) -> float:
        total: float = sum(r[key] for r in rows[-late:])
        return total / late

    summary = (f"last {late} rounds — shipped defaults: success {mean(evidence_run, 'success_rate'):.1%}, "
               f"System 2 share {mean(evidence_run, 'system2_share'):.1%}, "
               f"${mean(evidence_run, 'usd_per_100'):.2f} per 100 turns; seed rule: success "
               f"{mean(seed_run, 'success_rate'):.1%}, System 2 share {mean(seed_run, 'system2_share'):.1%}, "
               f"${mean(seed_run, 'usd_per_100'):.2f} per 100 turns.")
    return {"home": str(root), "oracle": ORACLE, "modes": runs, "summary": summary}


def remove_demo_home(path: str | Path) -> None:
    """Delete a temporary home :func:`run_demo` made (the CLI's default: nothing is left behind)."""
    shutil.rmtree(path, ignore_errors=True)


def _run_mode(mode: str, *, rounds: int, seed: int, home: Path, per_round: int) -> dict[str, Any]:
    rng = random.Random(seed)
    root = home
    h = Home(root).ensure()
    config = MODES[mode]
    if config is not None:
        atomic_write_bytes(h.config_file, orjson.dumps(config, option=orjson.OPT_INDENT_2))
    # no config file: the shipped defaults (a config in the working directory is not consulted)
    settings = load_settings(root) if config is not None else default_settings()
    history = []
    costs = route_costs(settings)  # the prior costs: nothing is measured in a simulation
    for day in range(1, rounds + 1):
        router = Router.load(h, settings=settings, rng=random.Random(rng.random()))
        records, wins, s2, usd = [], 0, 0, 0.0
        for domain, text in _requests(rng, per_round):
            d = router.route(text, domain=domain)
            ok = rng.random() < _p_success(d.system, d.complexity, domain)
            outcome = "success" if ok else ("escalated" if d.system == "system1" and rng.random() < 0.5 else "failed")
            wins += ok
            s2 += d.system == "system2"
            # a System 1 turn that did not succeed is retried at System 2
            usd += costs.system2_usd if d.system == "system2" else costs.system1_usd + (0.0 if ok else costs.system2_usd)
            records.append(experience_record(
                input=text, domain=domain, complexity=d.complexity, routed_to=d.system, outcome=outcome,
                latency_ms=40.0 if d.system == "system1" else 480.0, confidence=d.confidence, pattern=d.pattern,
                threshold=d.threshold, propensity=d.propensity, session_id=f"demo-day-{day}", agent="demo"))
        collect_many(records, home=h)
        report = learn(home=h, answers="defaults", settings=settings)
        st = status(home=h, settings=settings)
        reasons, numbers = {}, {}
        if report.evidence is not None:
            moved = [r for r in report.evidence[2].rows if r.get("reason") and r["change"]]
            reasons = {r["domain"]: r["reason"] for r in moved}
            # the numbers each reason is worded from, for a screen that words it in another language
            numbers = {r["domain"]: {k: r.get(k) for k in ("domain", "gain", "sd", "price", "source", "old", "new")}
                       for r in moved}
        history.append({"round": day, "experiences": len(records), "success_rate": wins / len(records),
                        "system2_share": s2 / len(records), "learned": report.status,
                        "usd_per_100": 100 * usd / len(records),
                        "thresholds": {"default": st["thresholds"]["default"], **st["thresholds"]["domains"]},
                        "cache": len(st["system1_patterns"]), "price": st["price"], "reasons": reasons,
                        "reason_numbers": numbers})
    return {"home": str(root), "rounds": history,
            "costs_usd": {"system1": costs.system1_usd, "system2": costs.system2_usd, "retry": costs.system2_usd}}
