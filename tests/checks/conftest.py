"""The CLI fixture of tests/cli, for the end-to-end checks of issue 12."""

from tests.cli.conftest import cli  # noqa: F401
