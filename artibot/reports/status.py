"""``artibot status``: thresholds, cache, counts, last round, pending review (the ``--json`` shape is a contract other tools read)."""

from __future__ import annotations

from collections.abc import Sequence

from artibot.round import checks as round_checks
from artibot.reports.costs import report_and_counts
from artibot.store.home import Home, HomeArg
from artibot.config import load_settings
from artibot.config.settings import Settings
from artibot.store.learned import system1_cache as cache_store
from artibot.store import sessions
from artibot.store.round import rounds
from artibot.store.learned import pattern_stats as patterns
from artibot.store.log.experiences import ExperienceLog
from artibot.store.learned.thresholds_file import load_thresholds
from artibot.gateway import health
from artibot.shapes import GatewayStatus, PriceInForce, RoundEntry, StatusReport
from artibot.hookpath.store import gateway_state


PER_AGENT_REASON = (
    "one set of thresholds serves every client: a domain's threshold is about the request (how hard "
    "it is), the clients run the same kinds of model on the same kinds of request, and a separate set "
    "per client would split each domain's evidence, which is what the learner lacks most; the records "
    "keep their client (agent), so a per-client split can be measured once there is data to show that "
    "outcomes differ")


def status(*, home: HomeArg = None, settings: Settings | None = None,
           installed_ports: Sequence[int] | None = None) -> StatusReport:
    """Sensible zeros before any learning; every damaged file raises (it is never shown as empty).

    ``installed_ports``: the gateway ports the agents' settings send this home's requests to
    (the caller reads them: the client's files are not the library's); None: unknown."""
    h = Home.of(home)
    settings = settings or load_settings(h.root)
    thresholds = load_thresholds(h, settings.router.threshold)
    cache = cache_store.load_cache(h)
    tracked = patterns.tracked_patterns(h)
    log = rounds.read_learning_log(h)
    pending = rounds.load_pending(h)
    unprocessed = ExperienceLog(h).count()
    last = rounds.last_round(log)
    costs, counts = report_and_counts(home=h)  # one pass over the archive and the log
    spooled = sessions.pending_turns(h)
    report: StatusReport = {
        "thresholds": thresholds.to_json(),
        "system1_patterns": sorted(cache),
        "unprocessed": unprocessed,
        "pending_review": pending is not None,
        "last_round": last["round_id"] if last else None,
        "last_round_status": last.get("status") if last else None,
        # as `history` says it: a round applied, then undone by `rollback`
        "last_round_rolled_back": bool(last.get("rolled_back")) if last else False,
        "pending_round": pending.round_id if pending else None,
        "full_batches": unprocessed // settings.lifelong.batch_size,
        "batch_size": settings.lifelong.batch_size,
        "mode": settings.lifelong.mode,
        "patterns_tracked": tracked,
        "rounds": sum(1 for r in log if rounds.is_round(r)),
        "home": str(h.root),
        "config": str(settings.source) if settings.source else None,
        # applied rounds measured on the experiences after them (never rolled back here)
        "validation": round_checks.summary(round_checks.validations(h, settings, log)),
        # the price of a System 2 call in force and where it comes from
        "price": price_in_force(settings, last),
        # what the turns cost, measured by the gateway (zeros without it)
        "costs": costs.to_json(),
        # turns cut off by something other than the route (kept, left out of learning), and
        # the clients the turns came from, with why they share one set of thresholds
        "interrupted": counts["interrupted"],
        "agents": counts["agents"],
        "thresholds_per_agent": {"kept": False, "reason": PER_AGENT_REASON},
        # each ended session's last turn, waiting for a correction from the resumed session
        "held_for_resume": spooled["held"],
        # the gateway of each port this data home runs one on: does it serve, its version, its counters
        "gateway": gateway_status(str(h.root), settings.gateway_server.port, installed_ports),
        # what the hooks could not do since they last worked (a config they could not load…)
        "hook_failures": sessions.hook_failures(h),
        # turns in open or held sessions: not in the log, the counts or the costs yet
        "pending_turns": spooled,
    }
    from artibot.store.team_files import any_team_files

    if any_team_files(h):  # never a member: no team to load (start-up time)
        from artibot.team.member import team_status

        team = team_status(h)  # no database: the membership, the queue and the cached team state
        if team is not None:
            report["team"] = team
    return report


GATEWAY_STATES = {health.OK: "up", health.REFUSED: "down", health.SILENT: "not answering",
                  health.FOREIGN: "another program"}


def gateway_status(root: str, configured: int, installed: Sequence[int] | None = None) -> list[GatewayStatus]:
    """Asked of the port itself (:mod:`artibot.gateway.health`), never read from a pid file:
    the ports with a pid file, and the ports installed in the agents' settings (``installed``:
    the hooks keep a gateway there, and stop every prompt while another program holds it,
    even before this home's gateway ever ran). When the installed ports are unknown, the
    configured one once a gateway has run in this data home; a port the settings moved away
    from is not asked again."""
    import json

    ports = set(gateway_state.ports(root)) | set(installed or ())
    if installed is None and gateway_state.read_token(root) is not None:
        ports.add(configured)
    out: list[GatewayStatus] = []
    for port in sorted(ports):
        state, body = health.probe(port, gateway_state.read_token(root))
        try:
            doc = json.loads(body) if state in (health.OK, health.FOREIGN) and body else {}
        except ValueError:  # proved, but the body is cut: the state stands, the details are unknown
            doc = {}
        doc = doc if isinstance(doc, dict) else {}
        entry: GatewayStatus = {"port": port, "state": GATEWAY_STATES[state], "version": doc.get("version"),
                                "pid": doc.get("pid"), "counters": doc.get("counters"),
                                "installed": installed is not None and port in installed,
                                "unrouted_models": [m for m in doc.get("unrouted_models") or []
                                                    if isinstance(m, str)]}
        if state == health.FOREIGN:
            # what it says of itself, unproved: enough to tell the person where to look
            entry["version"], entry["counters"] = None, None
            pid = doc.get("pid")
            entry["pid"] = pid if doc.get("gateway") == "artibot" and isinstance(pid, int) else None
            entry["held_by"] = "another data home" if doc.get("gateway") == "artibot" else "another program"
        out.append(entry)
    return out


def price_in_force(settings: Settings, last: RoundEntry | None) -> PriceInForce | None:
    """The price of a System 2 call the learner uses, and where it comes from (None in seed mode).

    The configured ``system2Cost``; else what the last round used (``estimated`` from the
    logged data, or set by ``targetSystem2Share``); before any round, the estimate's
    starting value.
    """
    from artibot.learning.objective import configured, in_force
    from artibot.learning.round_params import RoundParams

    used = None
    if last is not None and last.get("mode") == settings.lifelong.mode:
        try:
            used = RoundParams.from_json(last.get("params") or {}).price
        except ValueError:
            used = None  # a hand-edited log: the price shown is the one a round would start from
    price = in_force(settings, used)
    if price is None:
        return None
    if configured(settings) is not None:
        return {"value": price.value, "source": price.source}
    return {"value": price.value, "source": price.source, "round": last.get("round_id") if used and last else None}
