"""What TAB completes beyond command names: agents, round ids, checkpoint answers, domains.

Each function is a typer ``autocompletion`` callback: it gets the word typed so far and
returns the matching values with a short help. They read only names (the learning log's
round ids, the thresholds file's domains) and never fail: a damaged file completes nothing.
"""

from __future__ import annotations

AGENTS = {"claude-code": "Claude Code", "gemini-cli": "Gemini CLI", "codex-cli": "Codex CLI", "cursor": "Cursor"}
ANSWERS = {"1=accept": "checkpoint 1: the comparison looks reasonable", "1=reset": "checkpoint 1: discard the groups",
           "2=apply": "checkpoint 2: apply the threshold changes", "2=revert": "checkpoint 2: keep the thresholds",
           "3=auto": "checkpoint 3: take every automatic decision"}


def agents(incomplete: str) -> list[tuple[str, str]]:
    return [(name, what) for name, what in AGENTS.items() if name.startswith(incomplete)]


def rounds(incomplete: str) -> list[tuple[str, str]]:
    """The applied rounds, newest first, and ``last``."""
    try:
        from artibot.rollback import history

        items = [h for h in history() if h["type"] == "round" and h["status"] == "applied" and not h["rolled_back"]]
    except Exception:  # noqa: BLE001 - completion must never print a traceback into the shell
        items = []
    found = [("last", "the last applied round")] + [
        (h["round_id"], f"applied {str(h['finished'] or '')[:16]}, {h['processed']} experiences")
        for h in reversed(items)]
    return [(value, why) for value, why in found if value.startswith(incomplete)]


def answers(incomplete: str) -> list[tuple[str, str]]:
    """``N=CHOICE``, and ``3.PATTERN=`` for the patterns of the round waiting for review."""
    found = list(ANSWERS.items())
    if incomplete.startswith("3."):
        try:
            from artibot.review import pending_questions

            doc = pending_questions()
            for q in doc.get("questions", []) if doc.get("pending") else []:
                for row in (q.get("evidence") or {}).get("rows", []) if q.get("number") == 3 else []:
                    for choice in ("auto", "promote", "demote", "hold"):
                        found.append((f"3.{row['key']}={choice}", f"pattern {row['key']}: {choice}"))
        except Exception:  # noqa: BLE001 - as above
            pass
    return [(value, why) for value, why in found if value.startswith(incomplete)]


def domains(incomplete: str) -> list[tuple[str, str]]:
    """The router's domains and those with a learned threshold."""
    from artibot.router.domains import DOMAIN_NAMES

    names = set(DOMAIN_NAMES)
    try:
        from artibot.store.home import Home
        from artibot.store.thresholds import load_thresholds

        names |= set(load_thresholds(Home.of(None), 0.4).domains)
    except Exception:  # noqa: BLE001 - as above
        pass
    return [(name, "domain") for name in sorted(names) if name.startswith(incomplete)]
