"""JSON for the hook path: the C accelerator behind :mod:`json` (``_json``), without :mod:`json`.

:mod:`json` imports its decoder, which compiles regular expressions at import time (it
loads :mod:`re`); ``orjson``, which the library uses for its large files, needs
:mod:`site` (the hooks run under ``python -S``) and loads :mod:`dataclasses`, :mod:`enum`
and :mod:`uuid` as it starts. ``_json``'s scanner and encoder parse and write the same
JSON; here they are driven directly. The figures are in ``docs/design.md`` ("The hook's
lean floor").

Every hook file (the spools, the caches, the failure records, the gateway's token and
pid files) goes through :func:`loads` and :func:`dumps`: one codec for what the hooks
read and write.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's own: every hook imports this module
if TYPE_CHECKING:
    from typing import Any


class _ScanContext:
    # What _json.make_scanner reads from json.JSONDecoder: the C scanner parses
    # objects, arrays, strings and numbers itself.
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        raise ValueError(f"{name} is not JSON")


_scanner: Any = None
_encoder: Any = None
_WS = " \t\n\r"


def loads(data: bytes | str) -> Any:
    """Parse one JSON document (``ValueError`` if it is not one; NaN and infinities refused)."""
    global _scanner
    try:
        import _json
    except ImportError:  # pragma: no cover - other Pythons: the regular module
        import json

        return json.loads(data)
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if _scanner is None:
        _scanner = _json.make_scanner(_ScanContext)  # type: ignore[arg-type]  # duck-typed decoder
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scanner(text, start)
    except StopIteration:
        raise ValueError(f"not JSON at character {start}") from None
    if text[end:].strip(_WS):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def dumps(value: object) -> str:
    """Compact JSON text (non-ASCII escaped; NaN and infinities refused)."""
    global _encoder
    try:
        import _json
    except ImportError:  # pragma: no cover
        import json

        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    if _encoder is None:
        def unknown(obj: object) -> None:
            raise TypeError(f"{type(obj).__name__} is not JSON serializable")

        _encoder = _json.make_encoder(None, unknown, _json.encode_basestring_ascii, None,
                                      ":", ",", False, False, False)
    return "".join(_encoder(value, 0))
