"""``python -m artibot`` and the ``artibot`` console script.

``artibot hook EVENT`` (Claude Code) and ``artibot hook AGENT EVENT`` (Gemini CLI, Codex
CLI, Cursor) are dispatched here, before the CLI framework is imported: hooks run on
every prompt and tool call, and typer/rich alone cost ~100 ms to import. Asked for its
help, ``hook`` goes through the CLI like any command.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["hook"] and not {"-h", "--help"} & set(args[1:]):
        if args[1:2] and args[1] in ("gemini-cli", "codex-cli", "cursor"):  # artibot.integrations.adapter.AGENTS
            from artibot.integrations.adapter import main as adapter_main

            return adapter_main(args[1], args[2:])
        from artibot.integrations.claude_code.hooks import main as hook_main

        return hook_main(args[1:])
    try:
        from artibot.cli.app import run
    except KeyboardInterrupt:  # Ctrl-C while the CLI is still loading: one line, as later
        sys.stderr.write("\nartibot: interrupted; nothing half-written was kept\n")
        return 130
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
