"""``artibot config show|path``: the effective configuration and the files it came from."""

from __future__ import annotations

import sys

import typer

from artibot.config import config_report
from artibot.errors import InvalidInput
from artibot.messages import Message
from artibot.cli.render import emit_json


def register(app: typer.Typer) -> None:
    @app.command("config")
    def config_cmd(
        action: str = typer.Argument("show", help="show (the effective configuration) or path (the file in use)."),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Print the effective configuration and the files it came from."""
        if action not in ("show", "path"):
            raise InvalidInput(Message("args.takes", command="config", some="show", last="path", value=repr(action)))
        report = config_report()
        if as_json:
            emit_json({**report, "warnings": [str(m) for m in report["warnings"]]} if action == "show" else
                      {k: report[k] for k in ("file", "files", "defaults")})
            return
        from artibot.cli.words import session_lang, w
        from artibot.cli.words_errors import said_message

        lang = session_lang()
        # plain print: paths must never be wrapped or read as markup
        if action == "path":
            print(report["file"] or w(lang, "cf_none", path=report["defaults"]))
            return
        print(w(lang, "cf_files"))
        for f in report["files"]:
            state = w(lang, "cf_in_use") if f["used"] else w(lang, "cf_not_used" if f["exists"] else "cf_not_found")
            print(w(lang, "cf_file", path=f["path"], why=w(lang, WHY[f["why"]]) if f["why"] in WHY else f["why"],
                     state=state))
        print(w(lang, "cf_defaults", path=report["defaults"]))
        for warning in report["warnings"]:
            print(w(lang, "cf_warning", warning=said_message(lang, warning)))
        import json

        sys.stdout.write(json.dumps(report["effective"], indent=2, ensure_ascii=False) + "\n")


WHY = {"$ARTIBOT_CONFIG": "cf_env", "the current directory": "cf_cwd", "the data home": "cf_home"}
"""Why a config file is looked at (as :func:`artibot.config.config_report` says it) -> its words."""
