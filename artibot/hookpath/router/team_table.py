"""The team's System 1 table as the router reads it: pattern keys by the team's keyed hash.

A team's published state lists the patterns its reviewed round found safe on System 1, by
the team's keyed hash of the pattern key (HMAC-SHA-256 with the team's key, the first 128
bits in hex): the pool holds no pattern text. A member's router hashes the request's
pattern key the same way and looks it up. The prompt hook imports this module, so the HMAC
is built here on CPython's own ``_sha256`` (:mod:`hmac` brings :mod:`hashlib`'s OpenSSL
binding, many times dearer to load: docs/benchmarks.md, "Costs behind the code"), with
:mod:`hashlib`'s as the fallback; a test checks it against :mod:`hmac`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    from typing import Any, Callable

HASH_CHARS = 32
BLOCK = 64


def keyed_hash(pattern: str, key_hex: str) -> str:
    """The team's keyed hash of ``pattern`` (the same as :func:`hmac.new` with SHA-256, cut to 128 bits).

    >>> keyed_hash("docs:fix:doc+typo", "00" * 32)
    '4af34f810e9fd9a14bdf5b5af2f08899'
    """
    key = bytes.fromhex(key_hex)
    sha = _sha256()
    if len(key) > BLOCK:
        key = sha(key).digest()
    key = key.ljust(BLOCK, b"\0")
    inner = sha(bytes(b ^ 0x36 for b in key) + pattern.encode("utf-8")).digest()
    digest: str = sha(bytes(b ^ 0x5C for b in key) + inner).hexdigest()
    return digest[:HASH_CHARS]


def _sha256() -> "Callable[[bytes], Any]":
    """SHA-256's constructor: CPython's builtin module (``_sha2`` since 3.12), else :mod:`hashlib`'s."""
    try:
        import _sha256  # type: ignore[import-not-found]

        sha: Callable[[bytes], Any] = _sha256.sha256
        return sha
    except ImportError:  # pragma: no cover - Python 3.12 and later
        try:
            import _sha2  # type: ignore[import-not-found]

            sha = _sha2.sha256
            return sha
        except ImportError:
            import hashlib

            return hashlib.sha256
