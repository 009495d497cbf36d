"""Secrets in disguise: wrapped across lines, split into concatenated string literals, or
base64-encoded. Each check looks at the pieces joined back together (or decoded) and asks
the ordinary rules about the result, so a disguised secret is taken only when the plain
one would be; ordinary text is not flooded with placeholders.

The engine passes its matchers in (``tokens``: the provider-token rules alone, fast;
``everything``: all rules) so that this module does not import it.
"""

from __future__ import annotations

from .rules import Finding, _Lazy, _looks_random

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    from collections.abc import Callable

    from .gates import _Claims

    Matcher = Callable[[str], list[Finding]]

_TOKEN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.~"
_T = r"[A-Za-z0-9_\-+/=.~]"

# --- a token wrapped across lines (a terminal's width, an e-mail, a backslash continuation):
# a line that ends in 16 or more token characters, and a next line that starts with more.
_WRAP = _Lazy(rf"\n(?:(?<={_T}{{16}}\n)|(?<={_T}{{16}}\r\n)|(?<={_T}{{16}}\\\n))(?P<r>{_T}{{3,1000}})"
              r"(?=[\s\"'`,;)\]}\\]|\Z)(?![ \t]*[=:])")  # not the key of the next line


def wrapped(text: str, claims: _Claims, tokens: Matcher) -> None:
    """Grow a finding that ends at a line end over the next line's token, or take a provider
    token that only matches once the two lines are joined."""
    if "\n" not in text:
        return
    block_end = -1  # where the last joint between two whole token lines ended
    for m in _WRAP.finditer(text):
        left_end = m.start()
        while left_end and text[left_end - 1] in "\r\\":
            left_end -= 1
        rs, re_ = m.span("r")
        if claims.covers(rs):
            continue
        f = claims.at(left_end - 1)
        if f is not None:
            if f.end == left_end and _continues(text[rs:re_]):
                claims.take_over(Finding(f.kind, f.start, re_))
            continue
        window = text[max(0, left_end - 1000):left_end]
        ls = left_end - (len(window) - len(window.rstrip(_TOKEN)))  # str.rstrip runs in C
        whole = ls == 0 or text[ls - 1] == "\n"
        inside_block, block_end = whole and block_end == left_end, re_ if whole else -1
        if inside_block:
            continue  # a base64 block: a token wrapped here started on a line above, and was taken there
        left, right = text[ls:left_end], text[rs:re_]
        for g in tokens(left + right):
            if g.start < len(left) < g.end:
                claims.take_over(Finding(g.kind, ls + g.start, rs + g.end - len(left)))
                break
        else:
            if not whole:
                _wrapped_value(text, claims, ls, left + right, re_)


def _wrapped_value(text: str, claims: _Claims, ls: int, joined: str, end: int) -> None:
    """``api_key = <first half>`` / ``<second half>``: the value of a secret key."""
    key_end = ls
    while key_end > ls - 4 and text[key_end - 1] in " \t\"'":
        key_end -= 1
    if text[ls - 1] != "=" and text[key_end - 1] not in ":=":
        return
    key = _KEY_BEFORE.search(text, max(text.rfind("\n", 0, key_end) + 1, key_end - 80), ls)
    if key and len(joined) >= 20 and "." not in joined and any(c.isdigit() for c in joined) \
            and _looks_random(joined) and text[end:end + 1] in ("", "\n", "\r", '"', "'"):
        claims.take_over(Finding("secret", ls, end))


def _continues(right: str) -> bool:
    """The next line's token goes on with the secret: random-looking, or 8+ capitals; not
    an assignment of its own (``DB_PASSWORD=x``: ``=`` only as base64 padding)."""
    if "=" in right.rstrip("="):
        return False
    return _looks_random(right) or (len(right) >= 8 and right.isalnum() and right.isupper())


# --- a key split into string literals: ``"sk-proj-ab" + "cd..."``, ``('AKIA' 'XYZ...')``.
# Two scans, each led by its literal quote (a scan led by a class of two quotes costs several
# times as much: docs/benchmarks.md, "Costs behind the code").
_JOINS = {q: _Lazy(rf"{q}[ \t]*(?:\+|\.\.?)?[ \t]*(?:\r?\n[ \t]*)?{q}") for q in "\"'"}
_CONTENT = frozenset(_TOKEN + ":")
_KEY_BEFORE = _Lazy(r"(?i:[\w.\-]*(?:token|secret|passw|pwd|key|credential)[\w.\-]*)[\"']?[ \t]*(?::=|=|:)[ \t]*\(?[ \t]*\Z")


def _literal_back(text: str, close: int) -> int | None:
    """Start of the content of the literal whose closing quote is at ``close``."""
    q, i = text[close], close
    while i > max(0, close - 300) and text[i - 1] in _CONTENT:
        i -= 1
    return i if i < close and i and text[i - 1] == q else None


def _literal_forward(text: str, open_: int) -> int | None:
    q, i, n = text[open_], open_ + 1, min(len(text), open_ + 301)
    while i < n and text[i] in _CONTENT:
        i += 1
    return i if i > open_ + 1 and i < len(text) and text[i] == q else None


def concatenated(text: str, claims: _Claims, tokens: Matcher) -> None:
    joints: list[tuple[int, int]] = []  # (closing quote of a piece, opening quote of the next)
    for q, pattern in _JOINS.items():
        if q in text and (q + " " in text or q + "+" in text or q + "\n" in text or q + "." in text):
            joints += [(m.start(), m.end() - 1) for m in pattern.finditer(text)]
    if not joints:
        return
    joints.sort()
    pieces_of: dict[int, list[tuple[int, int]]] = {}  # chain, by the closing quote of its last piece
    chains: list[list[tuple[int, int]]] = []
    for close, open_ in joints:
        start = _literal_back(text, close)
        end = _literal_forward(text, open_)
        if start is None or end is None:
            continue
        chain = pieces_of.pop(close, None)
        if chain is None:
            chain = [(start, close)]
            chains.append(chain)
        chain.append((open_ + 1, end))
        pieces_of[end] = chain
    for chain in chains:
        _claim_chain(text, chain, claims, tokens)


def _claim_chain(text: str, chain: list[tuple[int, int]], claims: _Claims, tokens: Matcher) -> None:
    joined = "".join(text[s:e] for s, e in chain)
    offsets, at = [], 0
    for s, e in chain:
        offsets.append(at)
        at += e - s
    for g in tokens(joined):
        first = max(i for i, o in enumerate(offsets) if o <= g.start)
        last = max(i for i, o in enumerate(offsets) if o < g.end)
        if first != last:  # only a secret that the split hid
            start = chain[first][0] + g.start - offsets[first]
            end = chain[last][0] + g.end - offsets[last]
            claims.take_over(Finding(g.kind, start, end))
            return
    head = chain[0][0] - 1
    line_start = text.rfind("\n", 0, head) + 1
    before = text[max(line_start, head - 80):head]
    if before.strip() in ("", "(") and line_start:  # a continuation line: the key is above
        prev = text.rfind("\n", 0, line_start - 1) + 1
        before = text[max(prev, line_start - 81):line_start - 1] + before.strip()
    key = _KEY_BEFORE.search(before)
    if key and len(joined) >= 16 and _looks_random(joined):
        kind = "password" if "pass" in key.group().lower() or "pwd" in key.group().lower() else "secret"
        claims.take_over(Finding(kind, chain[0][0], chain[-1][1]))


# --- base64: what a secret's prefix looks like once encoded (``sk-`` -> ``c2st``), from the
# start of the encoded text, as far as it does not depend on what follows.
_B64_PREFIXES = (
    "c2st", "c2tf", "cmtf", "Z2h", "Z2l0aHViX3BhdF", "Z2xwYXQt", "QUtJQ", "QVNJQ", "QUl6Y", "eG94", "eGFwcC", "aGZf",
    "bnBtX", "U0cu", "UE1BSy", "ZGNrcl9wYXRf", "eyJhdXRocy", "LS0tLS1CRUdJT", "cG9zdGdyZX", "bXlzcWw6Ly", "bW9uZ29kY",
    "cmVkaX", "YW1xc", "ZXlK",
)
"""What a secret's prefix looks like once base64-encoded, from the start of the encoded text
and as far as it does not depend on what follows: ``sk-`` -> ``c2st``, ``sk_``/``rk_`` ->
``c2tf``/``cmtf``, ``gh`` -> ``Z2h`` ... ``eyJ`` (a JWT) -> ``ZXlK``, ``{"auths"`` (a docker
config) -> ``eyJhdXRocy``, and credential URLs (``postgres``, ``mysql://``, ``mongodb``,
``redis``, ``amqp``). Shared stems keep the list short: each costs a scan of the text.
``B64_PLAIN_PREFIXES`` holds one plain text per stem; a test re-encodes them."""
B64_PLAIN_PREFIXES = (
    "sk-", "sk_live_", "rk_live_", "ghp_", "github_pat_", "glpat-", "AKIA", "ASIA", "AIza", "xoxb-", "xapp-", "hf_",
    "npm_", "SG.", "PMAK-", "dckr_pat_", '{"auths"', "-----BEGIN", "postgres://", "mysql://", "mongodb://", "redis://",
    "amqp://", "eyJ",
)
_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_DOCKER_AUTH = _Lazy(r"\"(?:auth|identitytoken|registrytoken)\"[ \t]*:[ \t]*\"(?P<v>[A-Za-z0-9+/]{8,2000}={0,2})\"")


def _decode(run: str) -> str | None:
    import binascii  # a shared library to load: only for texts with a long base64 run

    try:
        raw = binascii.a2b_base64(run + "=" * (-len(run) % 4))
        plain = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return plain if plain.isprintable() or all(c.isprintable() or c in "\n\r\t" for c in plain) else None


_B64_CONTEXTS = ("=", ":", '"', "'", "|", "base64")
"""An encoded secret stands in an assignment, a YAML or JSON value, quotes, a pipe to
``base64``, or ends in ``=`` padding: texts with none of these skip the 24 look-ups."""


def encoded(text: str, claims: _Claims, everything: Matcher) -> None:
    if not any(map(text.__contains__, _B64_CONTEXTS)):
        return
    if '"' in text and ('"auth' in text or '"identitytoken"' in text or '"registrytoken"' in text):
        for m in _DOCKER_AUTH.finditer(text):
            s, e = m.span("v")
            plain = _decode(text[s:e])
            if plain is not None and (":" in plain or m.group().startswith('"identity') or m.group().startswith('"reg')) \
                    and not claims.covers(s):
                claims.add(Finding("url_credentials", s, e))
    for prefix in filter(text.__contains__, _B64_PREFIXES):
        i = text.find(prefix)
        while i >= 0:
            if not (i and text[i - 1] in _B64):
                e = i + len(prefix)
                while e < len(text) and text[e] in _B64:
                    e += 1
                while e < len(text) and e - i < 2000 and text[e] == "=":
                    e += 1
                plain = _decode(text[i:e]) if e - i >= 16 else None
                if plain is not None and not claims.covers(i):
                    found = [f for f in everything(plain) if f.kind not in ("ip", "email", "phone", "home")]
                    if found:
                        claims.add(Finding(found[0].kind, i, e))
            i = text.find(prefix, i + 1)
