"""The commands' names, modules and one-line help, as plain data.

Read by the lazy command group (:mod:`artibot.cli.lazy`) and, before any framework is
imported, by the first word's TAB completion (:mod:`artibot.__main__`).
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "collect": ("cmd_collect", "Append experiences."),
    "route": ("cmd_route", "Score and route a request with the current thresholds and System 1 cache."),
    "outcome": ("cmd_route", "Complete a recorded decision into an experience."),
    "learn": ("cmd_learn", "One learning round (steps 1–6) with the three human checkpoints (after steps 3, 4 "
                           "and 5)."),
    "review": ("cmd_learn", "Show or answer the round waiting for review."),
    "status": ("cmd_state", "Thresholds, System 1 cache, counts, last round, pending review."),
    "turns": ("cmd_turns", "The last turns: time, agent, prompt (anonymized), domain, complexity/threshold, "
                           "route and why, the gateway's effort and model, outcome, tokens, cost."),
    "history": ("cmd_state", "Past rounds and rollbacks, oldest first."),
    "rollback": ("cmd_state", "Restore the learned state from before ROUND_ID (later rounds are undone too)."),
    "doctor": ("cmd_state", "Verify every file in the data home."),
    "config": ("cmd_config", "Print the effective configuration and the files it came from."),
    "install": ("cmd_integrate", "Register artibot's hooks and the /learn command."),
    "uninstall": ("cmd_integrate", "Remove exactly what `artibot install` added."),
    "schedule": ("cmd_integrate", "Manage the user crontab lines for the nightly learner and the weekly drift "
                                  "check."),
    "hook": ("cmd_integrate", "Claude Code hook entry point (payload on stdin)."),
    "demo": ("cmd_integrate", "A self-contained run on generated data in a temporary home."),
    "drift": ("cmd_integrate", "Test each domain's recent outcomes against its history (the weekly drift "
                               "check)."),
    "gateway": ("cmd_gateway", "Serve the local API gateway: each routed turn's requests get its route's "
                               "profile."),
    "report": ("cmd_report", "Reports over the recorded turns."),
    "team": ("cmd_team", "Learn as a team: pool experiences on a shared PostgreSQL, one reviewed round."),
}
"""Each command: the module under ``artibot.cli`` that defines it, and its one-line help."""


def complete_first_word(environ: dict[str, str]) -> str | None:
    """bash's completion of the command name (``artibot st<TAB>``) without loading typer: the
    lines it expects, or None when this is not that case (typer answers the others)."""
    if environ.get("_ARTIBOT_COMPLETE") != "complete_bash" or environ.get("COMP_CWORD") != "1":
        return None
    words = environ.get("COMP_WORDS", "").split()
    typed = words[1] if len(words) > 1 else ""
    if typed.startswith("-"):
        return None  # an option of artibot itself: typer knows them
    return "".join(f"{name}\n" for name in COMMANDS if name.startswith(typed))
