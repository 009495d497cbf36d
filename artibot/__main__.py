"""``python -m artibot`` and the ``artibot`` console script.

``artibot hook EVENT`` (Claude Code) and ``artibot hook AGENT EVENT`` (Gemini CLI, Codex
CLI, Cursor) are dispatched here, before the CLI framework is imported: hooks run on
every prompt and tool call, and typer/rich alone cost ~100 ms to import.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["hook"]:
        if args[1:2] and args[1] in ("gemini-cli", "codex-cli", "cursor"):  # artibot.integrations.adapter.AGENTS
            from artibot.integrations.adapter import main as adapter_main

            return adapter_main(args[1], args[2:])
        from artibot.integrations.claude_code.hooks import main as hook_main

        return hook_main(args[1:])
    from artibot.cli.app import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
