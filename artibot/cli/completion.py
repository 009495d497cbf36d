"""What TAB completes beyond command names: agents, round ids, checkpoint answers, domains.

Each function is a typer ``autocompletion`` callback: it gets the word typed so far and
returns the matching values with a short help. They read only names (the learning log's
round ids, the thresholds file's domains) and never fail: a damaged file completes nothing.
In bash, :func:`quick_bash` calls them before typer is imported (a TAB must answer within
the 300 ms target, and typer's completion machinery alone takes much of it: docs/benchmarks.md,
"Costs behind the code").
"""

from __future__ import annotations

from artibot.cli.command_table import complete_first_word
from artibot.hookpath.clients import CLIENTS

TYPE_CHECKING = False  # `typing` itself is a share of a TAB's time (docs/benchmarks.md)
if TYPE_CHECKING:
    from typing import Callable

    Completer = Callable[[str], list[tuple[str, str]]]

ANSWERS = {"1=accept": "checkpoint 1: the comparison looks reasonable", "1=reset": "checkpoint 1: discard the groups",
           "2=apply": "checkpoint 2: apply the threshold changes", "2=revert": "checkpoint 2: keep the thresholds",
           "3=auto": "checkpoint 3: take every automatic decision"}


def agents(incomplete: str) -> list[tuple[str, str]]:
    return [(name, client.title) for name, client in CLIENTS.items() if name.startswith(incomplete)]


def rounds(incomplete: str) -> list[tuple[str, str]]:
    """The applied rounds, newest first, and ``last``."""
    try:  # the learning log itself, as `artibot history` reads it, without the rollback machinery
        from artibot.store.round.log_light import learning_log_entries

        items = [e for e in learning_log_entries() if e.get("type", "round") == "round"
                 and e.get("status") == "applied" and not e.get("rolled_back", False)]
    except Exception:  # noqa: BLE001 - completion must never print a traceback into the shell
        items = []
    found = [("last", "the last applied round")] + [
        (e["round_id"], f"applied {str(e.get('finished') or '')[:16]}, "
                        f"{(e.get('inputs') or {}).get('processed')} experiences")
        for e in reversed(items)]
    return [(value, why) for value, why in found if value.startswith(incomplete)]


def answers(incomplete: str) -> list[tuple[str, str]]:
    """``N=CHOICE``, and ``3.PATTERN=`` for the patterns of the round waiting for review."""
    found = list(ANSWERS.items())
    if incomplete.startswith("3."):
        try:
            from artibot.round.review import pending_questions

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
    from artibot.hookpath.router.domains import DOMAIN_NAMES

    names = set(DOMAIN_NAMES)
    try:
        from artibot.store.home import Home
        from artibot.store.learned.thresholds_file import load_thresholds

        names |= set(load_thresholds(Home.of(None), 0.4).domains)
    except Exception:  # noqa: BLE001 - as above
        pass
    return [(name, "domain") for name in sorted(names) if name.startswith(incomplete)]


QUICK: dict[str, tuple[frozenset[str], Completer | None, dict[str, Completer]]] = {
    "rollback": (frozenset({"--dry-run", "--yes", "-y", "--json"}), rounds, {}),
    "install": (frozenset({"--dry-run", "--gateway", "--no-gateway"}), agents, {}),
    "uninstall": (frozenset({"--dry-run"}), agents, {}),
    "review": (frozenset({"--json", "--prepare", "--flush", "--discard", "--interactive", "-i"}), None,
               {"--answer": answers, "-a": answers}),
    "route": (frozenset({"--json", "--record"}), None, {"--domain": domains}),
    "collect": (frozenset({"--stdin"}), None, {"--domain": domains}),
}
"""Per command: its flags (options without a value), the completer of its first argument,
and its options whose value TAB completes. Only these words are understood here: a command
line with any other option goes to typer's completion."""


def quick_bash(environ: dict[str, str]) -> str | None:
    """bash's TAB completion without loading typer, for the command name and the cases of
    :data:`QUICK`: the lines typer would print, or None when typer must answer."""
    names = complete_first_word(environ)
    if names is not None or environ.get("_ARTIBOT_COMPLETE") != "complete_bash":
        return names
    line = environ.get("COMP_WORDS", "")
    if any(c in line for c in "'\"\\="):
        return None  # quoting, escapes and --opt=value: typer's own splitting
    words, cword = line.split(), environ.get("COMP_CWORD", "")
    if not cword.isdigit() or not 2 <= int(cword) <= len(words):
        return None
    items = _quick_items(words[1:int(cword)], (words[int(cword):] or [""])[0])
    if items is None:
        return None
    return "".join(f"{value}\n" for value, _why in items) or "\n"


def quick_zsh_fish(environ: dict[str, str]) -> tuple[str, int] | None:
    """zsh's and fish's TAB completion without loading typer, for the cases bash has: what
    typer would print and the exit code, or None when typer must answer."""
    shell = environ.get("_ARTIBOT_COMPLETE")
    if shell not in ("complete_zsh", "complete_fish"):
        return None
    line = environ.get("_TYPER_COMPLETE_ARGS", "")
    if any(c in line for c in "'\"\\="):
        return None  # quoting, escapes and --opt=value: typer's own splitting
    args = line.split()[1:]
    incomplete = args.pop() if args and not line.endswith(" ") else ""
    if args:
        items = _quick_items(args, incomplete)
    elif incomplete.startswith("-"):
        return None  # an option of artibot itself: typer knows them
    else:
        from artibot.cli.command_table import COMMANDS

        items = [(name, help_text) for name, (_module, help_text) in COMMANDS.items() if name.startswith(incomplete)]
    if items is None:
        return None
    if shell == "complete_zsh":  # as typer's ZshComplete writes them
        shown = "\n".join(f'"{_zsh(value)}":"{_zsh(why)}"' if why else f'"{_zsh(value)}"' for value, why in items)
        return (f"_arguments '*: :(({shown}))'" if items else "_files") + "\n", 0
    action = environ.get("_TYPER_COMPLETE_FISH_ACTION", "")  # as typer's FishComplete writes them
    if action == "is-args":
        return "", 0 if items else 1
    if action != "get-args":
        return "\n", 0
    return "\n".join(f"{value}\t{''.join(' ' if c.isspace() else c for c in why)}" if why else value
                     for value, why in items) + "\n", 0


def _zsh(text: str) -> str:
    return (text.replace('"', '""').replace("'", "''").replace("$", "\\$").replace("`", "\\`")
            .replace(":", r"\\:"))


def _quick_items(args: list[str], incomplete: str) -> list[tuple[str, str]] | None:
    """The values and their help that TAB offers after ``args`` (the words after ``artibot``),
    or None when this is not one of the cases of :data:`QUICK`."""
    spec = QUICK.get(args[0]) if args else None
    if spec is None or incomplete.startswith("-"):
        return None
    flags, argument, options = spec
    completer, given, rest, i = None, False, args[1:], 0
    while i < len(rest):
        word = rest[i]
        if word in options:
            if i == len(rest) - 1:  # TAB on this option's value
                completer = options[word]
            i += 2
        elif word in flags:
            i += 1
        elif word.startswith("-"):
            return None
        else:
            given, i = True, i + 1
    if completer is None:
        if argument is None or given:
            return None
        completer = argument
    return completer(incomplete)
