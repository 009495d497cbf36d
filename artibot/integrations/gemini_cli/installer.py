"""What ``artibot install gemini-cli`` registers: five hooks in Gemini CLI's ``settings.json``.

User scope ``~/.gemini/settings.json``, project scope ``<project>/.gemini/settings.json``
(Gemini CLI asks before it runs a project's hooks the first time, and again whenever
one changes). Timeouts are in milliseconds, Gemini CLI's unit. Each entry has a
``name`` (``artibot-BeforeAgent`` …) so that ``/hooks disable`` can name it.

With ``models`` (``{"system1": "gemini-2.5-flash", …}``, from ``--model ROUTE=MODEL``) a
sixth hook, ``BeforeModel``, sets each request's model from the open turn's route; the
models ride in that entry's ``env``, where the user sees and edits them. Installing
again without ``--model`` takes it out.

The ``/learn`` equivalent is a custom command, ``commands/learn.toml`` beside
``settings.json`` (user ``~/.gemini/commands/``, project ``<project>/.gemini/commands/``;
Gemini CLI 0.61.0 loads both, the project's winning). Its prompt runs
``artibot review --json --prepare`` through ``!{…}`` (Gemini CLI asks before it runs
that command, except in YOLO mode or when the user allowed it) and takes the user's
arguments (``/learn 2=revert``) through ``{{args}}``. Its first line is the
``<!-- artibot:learn -->`` marker, which the ``BeforeAgent`` hook recognises
(:data:`~.events.LEARN_MARKER`): the expanded command is not a prompt to route or record.
"""

from __future__ import annotations

from pathlib import Path

from artibot.errors import InvalidInput
from artibot.integrations.gemini_cli.events import MODEL_ENV
from artibot.integrations.json_hooks import Hook, HookFile, LearnFile
from artibot.messages import Message

HOOKS = (
    Hook("SessionStart", 10_000),
    Hook("BeforeAgent", 5_000),
    Hook("AfterTool", 5_000),
    Hook("AfterAgent", 10_000),
    Hook("SessionEnd", 5_000),
)


def parse_models(values: list[str] | None) -> dict[str, str]:
    """``["system1=gemini-2.5-flash", …]`` -> ``{"system1": "gemini-2.5-flash", …}``."""
    models: dict[str, str] = {}
    for value in values or []:
        route, _, model = value.partition("=")
        if route not in MODEL_ENV or not model.strip() or any(c.isspace() for c in model.strip()):
            raise InvalidInput(Message("installers.gemini_model", value=repr(value)))
        models[route] = model.strip()
    return models


def hook_file(user_dir: Path, project_dir: Path, models: dict[str, str] | None = None) -> HookFile:
    hooks: tuple[Hook, ...] = HOOKS
    if models:
        env = tuple((MODEL_ENV[route], model) for route, model in sorted(models.items()))
        hooks = HOOKS + (Hook("BeforeModel", 5_000, env=env),)
    learn = LearnFile("gemini-cli/commands/learn.toml", user_dir / "commands" / "learn.toml",
                      project_dir / ".gemini" / "commands" / "learn.toml", r"!\{(.+) review --json --prepare\}", "/learn")
    return HookFile("gemini-cli", "Gemini CLI", user_dir / "settings.json", project_dir / ".gemini" / "settings.json",
                    hooks, grouped=True, named=True, learn=learn,
                    restart_hint=Message("installers.restart_gemini"))
