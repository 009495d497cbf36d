"""JSON on stdout, as every ``--json`` prints it.

Apart from :mod:`artibot.cli.render` so that ``artibot status --json`` starts without rich.
"""

from __future__ import annotations

import sys
from typing import Any

import orjson


def tidy(value: Any) -> Any:
    """``value`` with every float at 12 significant digits: the sum 0.4 + 0.1 + 0.1 is shown as
    0.6, not 0.6000000000000001 (no value artibot computes means anything past that).

    >>> tidy({"t": [0.6000000000000001, 1e-13, 3]})
    {'t': [0.6, 1e-13, 3]}
    """
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: tidy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [tidy(v) for v in value]
    return value


def emit_json(data: Any) -> None:
    data = tidy(data)
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
                                  | orjson.OPT_SERIALIZE_DATACLASS).decode() + "\n")
    sys.stdout.flush()
