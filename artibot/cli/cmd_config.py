"""``artibot config show|path``: the effective configuration and the files it came from."""

from __future__ import annotations

import sys

import typer

from artibot.config import config_report
from artibot.errors import InvalidInput
from artibot.cli.render import emit_json


def register(app: typer.Typer) -> None:
    @app.command("config")
    def config_cmd(
        action: str = typer.Argument("show", help="show (the effective configuration) or path (the file in use)."),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Print the effective configuration and the files it came from."""
        if action not in ("show", "path"):
            raise InvalidInput(f"config takes show or path, not {action!r}")
        report = config_report()
        if as_json:
            emit_json(report if action == "show" else {k: report[k] for k in ("file", "files", "defaults")})
            return
        # plain print: paths must never be wrapped or read as markup
        if action == "path":
            print(report["file"] or f"(none: the shipped defaults, {report['defaults']})")
            return
        print("# files, in lookup order (the first that exists is used, merged over the defaults):")
        for f in report["files"]:
            state = "in use" if f["used"] else ("exists, not used" if f["exists"] else "not found")
            print(f"#   {f['path']}  ({f['why']}: {state})")
        print(f"#   defaults: {report['defaults']}")
        for warning in report["warnings"]:
            print(f"# warning: {warning}")
        import json

        sys.stdout.write(json.dumps(report["effective"], indent=2, ensure_ascii=False) + "\n")
