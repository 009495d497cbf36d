"""What the gateway checks at its edge, before anything is forwarded (no I/O but the body's read).

* **Browsers.** Claude Code (and Codex CLI) sends no ``Origin`` and none of the ``Sec-Fetch-*`` headers a
  browser adds to every request, so a request with either is a web page's, and a page
  must never spend the user's key or budget (DNS rebinding is stopped by the Host check;
  this stops a page that posts straight to ``127.0.0.1``). ``Sec-Fetch-Mode`` alone is what
  Node's ``fetch`` sends; a browser always adds ``Sec-Fetch-Site`` and ``Sec-Fetch-Dest``.
* **Body limits per path**, checked against ``Content-Length`` before a byte of the body is
  read, and while reading a chunked one: the Messages and Responses paths take ``max_body``, other
  paths a small JSON document, and methods without a body none.
* **Paths** are normalised (dot segments, also percent-encoded ones, removed) and confined
  to the upstream's own path: a request that would climb above it is refused, and so is
  an encoded slash or backslash, which some servers decode before they normalise.
* **Compressed request bodies** are forwarded as they came; to find the session they are
  inflated for inspection only, never past the path's limit (a small bomb costs at most
  the limit).
* **Logs.** aiohttp's own loggers print a malformed request's header (a stray CR, an
  over-long line) in their messages and tracebacks; :func:`quiet_aiohttp_logs` keeps the
  kind of error and drops the rest.
"""

from __future__ import annotations

import logging
import zlib
from typing import Awaitable, Container, Protocol
from urllib.parse import unquote


class ChunkSource(Protocol):
    """What :func:`read_bounded` reads from (aiohttp's ``StreamReader`` is one)."""

    async def readany(self) -> bytes: ...

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
BROWSER_HEADERS = ("origin", "sec-fetch-site", "sec-fetch-dest", "sec-fetch-user")
"""Headers only a browser sends (an ``Origin`` of ``null`` included)."""

MESSAGES_PREFIX = "/v1/messages"
OPENAI_PREFIX = "/openai"
"""Codex CLI's model provider points here (``base_url = http://127.0.0.1:PORT/openai``): the
rest of the path goes to the OpenAI upstream, as the rest of any other path goes to Anthropic's."""
RESPONSES_PATH = OPENAI_PREFIX + "/responses"
OTHER_MAX_BODY = 1024 * 1024
"""Every other path (model lists, token counts of files, event batches): JSON documents of a few KB."""

BODYLESS = frozenset({"GET", "HEAD", "DELETE", "OPTIONS"})
AIOHTTP_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.access", "aiohttp.client", "aiohttp.internal",
                   "aiohttp.websocket")


class Refused(Exception):
    """A request the gateway answers itself: ``status``, the API's error type, the sentence."""

    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status, self.kind = status, kind


def browser_header(headers: Container[str]) -> str | None:
    """The header that marks a browser's request, if any."""
    for name in BROWSER_HEADERS:
        if name in headers:
            return name
    return None


def body_limit(method: str, path: str, max_body: int) -> int:
    """The largest body a legitimate client sends with ``method`` on ``path``."""
    if method in BODYLESS:
        return 0
    if path == MESSAGES_PREFIX or path.startswith(MESSAGES_PREFIX + "/"):
        return max_body
    if path == RESPONSES_PATH or path.startswith(RESPONSES_PATH + "/"):  # a whole conversation too
        return max_body
    return min(OTHER_MAX_BODY, max_body)


def too_large(limit: int) -> Refused:
    what = "no body" if limit == 0 else f"at most {limit} bytes"
    return Refused(413, "request_too_large", f"artibot gateway: this path takes {what}")


def confined_path(raw_path: str) -> str:
    """The request target's path with dot segments resolved, still percent-encoded as sent.

    >>> confined_path("/v1/./messages?beta=true")
    '/v1/messages?beta=true'
    >>> confined_path("/v1/x/%2e%2E/models")
    '/v1/models'
    >>> confined_path("/../admin")
    Traceback (most recent call last):
    ...
    artibot.gateway.edge.Refused: artibot gateway: the path climbs above the upstream's
    """
    path, sep, query = raw_path.partition("?")
    if not path.startswith("/"):
        raise Refused(400, "invalid_request_error", "artibot gateway: the request target must be a path")
    kept: list[str] = []
    plain = ""
    for segment in path[1:].split("/"):
        plain = unquote(segment) if "%" in segment else segment
        if "/" in plain or "\\" in plain or "\x00" in plain:
            raise Refused(400, "invalid_request_error",
                          "artibot gateway: a path segment holds an encoded slash, backslash or NUL")
        if plain == "..":
            if not kept:
                raise Refused(400, "invalid_request_error", "artibot gateway: the path climbs above the upstream's")
            kept.pop()
        elif plain != ".":
            kept.append(segment)
    if plain in (".", ".."):
        kept.append("")  # "/a/b/.." is "/a/", as a browser resolves it
    return "/" + "/".join(kept) + sep + query


INFLATE_STEP = 1 << 20
INSPECTED_ENCODINGS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


def inflated(raw: bytes, encoding: str, limit: int) -> bytes | None:
    """``raw`` decoded for inspection, at most ``limit`` bytes of output; None when it cannot
    be read (an unknown or stacked coding, corrupt data). A body that inflates past the
    limit raises :class:`Refused` (413) once the limit is reached, not after."""
    wbits = INSPECTED_ENCODINGS.get(encoding.strip().lower())
    if wbits is None:
        return None
    if encoding.strip().lower() == "deflate" and raw[:1] and raw[0] & 0x0F != 8:
        wbits = -zlib.MAX_WBITS  # raw deflate, as some clients send it
    decoder = zlib.decompressobj(wbits)
    out = bytearray()  # one growing buffer: a decompress(raw, limit) would hold its blocks and their join
    data = raw
    try:
        while True:
            piece = decoder.decompress(data, INFLATE_STEP)
            out += piece
            if len(out) > limit:
                raise too_large(limit)
            data = decoder.unconsumed_tail
            if decoder.eof or not (data or piece):
                return bytes(out)
    except zlib.error:
        return None


async def read_bounded(content: ChunkSource, limit: int) -> bytes:
    """The whole body, refused as soon as it passes ``limit`` bytes (a chunked body has no
    length to check first)."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = await content.readany()
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        parts.append(chunk)


class ClientGone(Exception):
    """The client's connection closed while the gateway wrote to it."""


async def to_client(write: Awaitable[object]) -> None:
    """Await a write to the client, telling its disconnect apart from the upstream's errors
    (aiohttp raises a ``ClientError`` subclass for both)."""
    try:
        await write
    except ConnectionError as exc:
        raise ClientGone(type(exc).__name__) from None


def check_origin(host_header: str | None, headers: Container[str]) -> None:
    """Refuse a foreign host name (DNS rebinding) and any request a browser makes."""
    value = host_header or ""
    host = value.split("]")[0] + "]" if value.startswith("[") else value.rsplit(":", 1)[0]
    if host.lower() not in LOOPBACK_NAMES:
        raise Refused(403, "permission_error", "artibot gateway: only loopback host names are served")
    browser = browser_header(headers)
    if browser is not None:
        raise Refused(403, "permission_error",
                           f"artibot gateway: a browser's request ({browser} header) is never served")


def proxy_for(upstream: str) -> str | None:
    """The proxy the environment names for ``upstream`` (``HTTPS_PROXY``/``HTTP_PROXY``, minus
    ``NO_PROXY``), as Claude Code would use it: read once at start, not per request (aiohttp's
    ``trust_env`` looks it up, and ``~/.netrc``, for every request)."""
    import urllib.request
    from urllib.parse import urlsplit

    parts = urlsplit(upstream)
    proxies = urllib.request.getproxies_environment()
    bypass = getattr(urllib.request, "proxy_bypass_environment")  # public, but not in typeshed
    if not parts.hostname or bypass(parts.hostname, proxies):
        return None
    return proxies.get(parts.scheme) or None


class _Contentless(logging.Filter):
    """Rewrites each record of aiohttp's loggers to its level and error kind: their messages
    and tracebacks quote the request line and headers of a malformed request."""

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else None
        record.msg = "aiohttp %s%s (its content is not logged)" % (
            record.name.rsplit(".", 1)[-1], f": {kind}" if kind else "")
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


_FILTER = _Contentless()


def quiet_aiohttp_logs() -> logging.Logger:
    """Put the filter on every aiohttp logger (idempotent); returns the server's, for its handler."""
    for name in AIOHTTP_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    return logging.getLogger("aiohttp.server")
