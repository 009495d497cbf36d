from tests.cli.conftest import cli  # noqa: F401  (the in-process CLI fixture)
