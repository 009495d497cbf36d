"""A team member's sync after a command that adds to the log or learns (``collect``, ``learn``).

Apart from the commands' modules so that ``learn`` answered before the CLI framework loads
(:mod:`artibot.cli.quick`) runs it too.
"""

from __future__ import annotations

from artibot.cli.render import err_console


def team_push(*, pull: bool = False) -> None:
    """A team member's records go to the pool once they are in the log (a failure leaves them
    queued); with ``pull``, the team's latest state comes back too."""
    from artibot.errors import TeamError
    from artibot.team.push import push_if_member

    try:
        member = push_if_member() is not None
    except TeamError as exc:  # the records stay queued
        from artibot.cli.quick import said
        from artibot.cli.words import session_lang, w

        err_console.print(w(session_lang(), "tm_push_postponed", why=said(exc)), markup=False, highlight=False)
        member = True  # the pull still runs
    if pull and member:
        try:
            from artibot.team.member import pull as pull_state

            pull_state(timeout_s=3.0)
        except TeamError as exc:
            from artibot.cli.quick import said
            from artibot.cli.words import session_lang, w

            err_console.print(w(session_lang(), "tm_not_pulled", why=said(exc)), markup=False, highlight=False)
