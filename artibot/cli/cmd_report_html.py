"""``artibot report [--out FILE] [--open]``: write the HTML report (see :mod:`.report_html`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

DEFAULT_NAME = "artibot-report.html"


def register(report_app: typer.Typer) -> None:
    @report_app.callback(invoke_without_command=True)
    def report_main(ctx: typer.Context,
                    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                                       help=f"Where to write the page [default: ./{DEFAULT_NAME}]."),
                    open_page: bool = typer.Option(False, "--open", help="Open it in the web browser."),
                    ) -> None:
        """Reports over the recorded turns. Alone: write one self-contained HTML page (cost and success per
        route per day, the share explored, each domain's threshold over the rounds, the round waiting)."""
        if ctx.invoked_subcommand is not None:
            return
        from artibot.cli.render import progress_line, err_console, console
        from artibot.cli.report_html import render
        from artibot.reports.data import report_data
        from artibot.store.exports import write_export
        from artibot.store.home import Home

        from artibot.cli.words import session_lang, w

        lang = session_lang()
        home = Home.of(None).require()
        progress_line(err_console)(w(lang, "rp_drawing"))
        page = render(report_data(home=home))
        target = write_export(out or Path.cwd() / DEFAULT_NAME, page.encode("utf-8"))
        console.print(w(lang, "rp_wrote", target=target, kb=len(page) // 1024), markup=False)
        if open_page:
            import webbrowser

            if not webbrowser.open_new_tab(target.as_uri()):
                console.print(w(lang, "rp_no_browser", uri=target.as_uri()), markup=False)
