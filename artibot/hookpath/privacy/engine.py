"""Matching: run the rules in priority order, find secret assignments, and keep the
claims non-overlapping, so that a later rule never takes text an earlier one took.
"""

from __future__ import annotations

from artibot.hookpath import regex

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

from .rules import (
    _DIGIT,
    _KEY_CHARS,
    _PII_RULES,
    _PLACEHOLDER_OF,
    _PLACEHOLDER_RE,
    _TOKEN_RULES,
    Finding,
    _Lazy,
    _looks_random,
    _Rule,
)
from . import disguise
from .gates import _Claims, _Gates, bisect_left
from .more_rules import MORE_TOKEN_RULES


_TOKEN_GATES = _Gates(_TOKEN_RULES + MORE_TOKEN_RULES)
_PII_GATES = _Gates(_PII_RULES)


def _apply(rules: Sequence[_Rule], text: str, claims: _Claims) -> None:
    for rule in rules:
        left, accept, group, extend, kind = rule.left, rule.accept, rule.group, rule.extend, rule.kind
        for m in rule.regex.finditer(text):
            start, end = m.span(group)
            if extend:
                floor = start - rule.extend_max
                while start > floor and start and text[start - 1] in extend:
                    start -= 1
                while start < m.start() and not text[start].isalnum():
                    start += 1  # an extension starts at a letter or digit
            edge = m.start() if group else start
            if left and edge and text[edge - 1] in left:
                continue
            if accept is not None and not accept(text, m, start):
                continue
            claims.add(Finding(kind or m.lastgroup.rstrip("0123456789"), start, end))


# --- secret assignments: ``key = value``, ``key: value``, ``--key=value``, ``?key=value``.
# Key words are found with ``str.find`` on the lower-cased text (same offsets), and the
# full pattern is only tried, anchored, where one occurs.

_KEY_WORDS = ("pass", "pwd", "secret", "token", "credential", "sig", "key",
              "비밀번호", "패스워드", "암호")
_KEY_COMPOUNDS = ("api", "access", "private", "account", "signing", "encryption", "master", "client",
                  "app", "auth", "ssh", "secret")
_ASSIGN = _Lazy(r"""(?P<core>pass(?:word|wd|phrase)?|pwd|secret(?:[_.\-]?key)?|token|credentials?|sig
      |(?:api|access|private|account|signing|encryption|master|client|app|auth|ssh)[_.\-]?key(?:[_.\-]?id)?
      |비밀번호|패스워드|암호)
    (?P<kq>\\?["'`]?\*{0,2})(?P<w1>[ \t]*)
    (?P<sep>:=|=(?![=>~])|:(?![:/\\])(?:[ \t]*[a-z_][\w.|\[\],\ ]{0,40}?[ \t]*=(?![=>~]))?|\ (?=[^\s=:]))
    (?P<w2>[ \t]*)
    (?:(?P<bq>\\?)(?P<q>["'`])(?P<qv>[^\n]{0,200}?)(?P=bq)(?P=q)
      |(?P<bv>[!#$%()*+\-./0-9:<=>?@A-Z\[\\\]^_a-z{|}~]{1,200}))""", regex.VERBOSE)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_PASSWORD_CORES = ("pass", "pwd", "비밀번호", "패스워드", "암호")
_NOT_SECRET = frozenset(
    "none null nil undefined true false yes no on off required optional str string bytes "
    "int integer float number bool boolean any unknown object dict list tuple set char "
    "password passwd secret token key bearer basic redacted hidden masked env secretstr "
    "self this".split()
)
_DOTTED_IDENT = _Lazy(r"!?[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*")
_NUMBER = _Lazy(r"[+\-]?\d[\d_]*(?:\.\d+)?(?:[eE][+\-]?\d+)?")
_RANDOM_WORD = _Lazy(r"(?=(?:[^0-9]*[0-9]){3})(?=(?:[^A-Za-z]*[A-Za-z]){3})[A-Za-z0-9]{16,}")
_NAMES_A_SECRET = _Lazy(r"(?i)token|secret|passw|key|credential")
_TEMPLATE = _Lazy(r"%[-+ #0-9.]*[a-zA-Z(]|\{[^{}]*\}|\$\{")
_PROSE = _Lazy(r"[A-Za-z]+(?: [A-Za-z]+){2,}[.!]?")
_YAML_PREFIX = _Lazy(r"[ \t]*(?:[-*] )?(?:\*\*)?")
_ENV_PREFIXES = frozenset({"", "export", "set", "ENV", "setenv", "-"})
_NOT_LITERAL_STARTS = ("/", "./", "../", "~/", "*")


_ENV_PASSWORDS = ("PASSWORD", "PASSWD", "PWD")
"""Upper-case suffixes that make an env variable a password (``PGPASSWORD``, ``MYSQLPWD``)."""


def _core_starts(low: str) -> list[int]:
    starts: set[int] = set()
    for word in _KEY_WORDS:
        i = low.find(word)
        while i >= 0:
            if word != "key":
                starts.add(i)
            else:  # ``api_key``, ``SharedAccessKey``: the core starts at the qualifier
                j = i - 1 if i and low[i - 1] in "_.-" else i
                starts.update(j - len(q) for q in _KEY_COMPOUNDS if low.endswith(q, 0, j))
            i = low.find(word, i + 1)
    return sorted(starts)


def _assignments(text: str, claims: _Claims) -> None:
    low = text.lower()
    if len(low) != len(text):  # a few non-ASCII characters grow when lower-cased
        low = text.translate(_ASCII_LOWER)
    for start in _core_starts(low):
        prev = text[start - 1] if start else " "
        if prev.isalnum() and not (text[start].isupper() and (prev.islower() or prev.isdigit())) \
                and not (prev.isupper() and text.startswith(_ENV_PASSWORDS, start)):
            continue  # ``getpass``, ``bypass``: the word only ends in a secret word (not ``PGPASSWORD``)
        if claims.covers(start):
            continue
        m = _ASSIGN.match(low, start)
        finding = _assignment(text, m) if m else None
        if finding is not None:
            claims.add(finding)


def _assignment(text: str, m: re.Match[str]) -> Finding | None:
    """The value of a secret assignment, or None when the right-hand side is code."""
    cs, ce = m.span("core")
    ks, floor = cs, max(0, cs - 64)
    while ks > floor and (text[ks - 1] in _KEY_CHARS or "\uac00" <= text[ks - 1] <= "\ud7a3"):
        ks -= 1
    key, sep = text[ks:ce], m.group("sep")
    flag = key.startswith("--")
    query = ks > 0 and text[ks - 1] in "?&"
    if (m.group("core") == "sig" and not (key == "sig" and query)) or (sep == " " and not flag):
        return None  # ``sig`` only as an Azure SAS query parameter
    if sep == ":" and ks and text[ks - 1] == ":":
        return None  # ``arn:aws:secretsmanager:...:secret:name`` is an identifier
    kind = "password" if m.group("core").startswith(_PASSWORD_CORES) else "secret"
    if m.group("q") is not None:
        start, end = m.span("qv")
        return Finding(kind, start, end) if _quoted_is_secret(text[start:end]) else None
    line_start = text.rfind("\n", max(0, ks - 200), ks) + 1
    prefix = text[line_start:ks] if line_start or ks <= 200 else "…"  # far from a line start
    spaced = bool(m.group("w1") or m.group("w2"))
    env_line = prefix.strip() in _ENV_PREFIXES and not prefix.startswith((" ", "\t"))
    strong = sep == " " or (sep == "=" and not spaced and (
        flag or query or env_line or not any(c.islower() for c in key)))
    yaml = sep == ":" and not m.group("kq").strip("*") and _YAML_PREFIX.fullmatch(prefix) is not None
    start, end = m.span("bv")
    value = text[start:end] if strong else text[start:end].rstrip(".,:)]}")
    if not _bare_is_secret(value, kind, strong=strong, yaml=yaml):
        return None
    return Finding(kind, start, start + len(value))


def _quoted_is_secret(value: str) -> bool:
    stripped = value.strip()
    if not stripped or stripped.lower() in _NOT_SECRET or _PLACEHOLDER_RE.search(value):
        return False
    if _TEMPLATE.search(value) or "://" in value:
        return False  # a template or a URL, not a literal secret
    if value.endswith((" ", ":", "?")) or value.startswith(_NOT_LITERAL_STARTS):
        return False  # a prompt, a prefix for concatenation, or a file path
    if _DIGIT.search(value) is None and _DOTTED_IDENT.fullmatch(value) and _NAMES_A_SECRET.search(value):
        return False  # ``"output_token": "NextToken"`` names a field
    return _PROSE.fullmatch(stripped) is None


def _bare_is_secret(value: str, kind: str, *, strong: bool, yaml: bool) -> bool:
    if not value or value[0] in "$<%{" or _PLACEHOLDER_RE.search(value):
        return False
    if strong:
        return True
    if value.lower() in _NOT_SECRET or "://" in value or any(c in value for c in "([{"):
        return False  # a keyword, a type, a call, an index or a URL
    if value.startswith(_NOT_LITERAL_STARTS):
        return False
    if _NUMBER.fullmatch(value):
        return kind == "password" and len(value) >= 4
    if _DOTTED_IDENT.fullmatch(value):
        if _RANDOM_WORD.fullmatch(value):
            return True  # ``zFQH0t62SGZ4SuMv``: no one names a variable like that
        if kind == "password" and value.isalnum() and not value.isalpha() and not value.isdigit():
            return True  # ``password=hunter2``: letters and digits, no ``_`` or ``.`` of a variable's name
        if not yaml or "." in value or value[0] in "!$":
            return False
        return any(c.isdigit() for c in value) or value.islower()
    return yaml or (len(value) >= 6 and _looks_random(value))


def find_secrets(text: str, _depth: int = 0) -> list[Finding]:
    """The spans ``anonymize`` replaces, sorted by position and never overlapping.

    >>> find_secrets("mail alice@example.com")
    [Finding(kind='email', start=5, end=22)]
    """
    claims = _Claims()
    hits = _TOKEN_GATES.present(text)
    _apply(_TOKEN_GATES.rules_for(hits), text, claims)

    def tokens(piece: str) -> list[Finding]:
        """The token rules on pieces of ``text`` joined back: only the gates ``text`` holds are
        looked up (a wrapped base64 block has hundreds of line joints)."""
        return _tokens(piece, [gate for gate in hits if gate in piece])

    disguise.concatenated(text, claims, tokens)
    _assignments(text, claims)
    if _depth < 2:  # a base64 text decoded, and the docker config inside it
        disguise.encoded(text, claims, lambda plain: find_secrets(plain, _depth + 1))
    disguise.wrapped(text, claims, tokens)
    _apply(_PII_GATES.due(text), text, claims)
    return claims.findings


def _tokens(text: str, hits: list[str]) -> list[Finding]:
    claims = _Claims()
    if hits:
        _apply(_TOKEN_GATES.rules_for(hits), text, claims)
    return claims.findings


WINDOW_MARGIN = 16_384
"""How far past a cut :func:`anonymize_prefix` looks: longer than any secret a rule matches
whole (a PEM key body is capped at 12,000 characters), so a secret straddling the cut is
seen entire and replaced, never stored in part."""


def anonymize_prefix(text: str, limit: int) -> str:
    """``anonymize(text)`` cut to at most ``limit`` characters, in time bounded by ``limit``
    (only ``limit + WINDOW_MARGIN`` characters are examined, however long ``text`` is).

    A placeholder is never cut in half: the cut moves before it.

    >>> anonymize_prefix("mail bob@example.com now", 9)
    'mail '
    """
    if len(text) <= limit:
        return anonymize(text)
    again = anonymize(_prefix_once(text, limit))  # the later passes, as anonymize makes them
    return again if len(again) <= limit else _prefix_once(again, limit)


def _prefix_once(text: str, limit: int) -> str:
    window = text[:limit + WINDOW_MARGIN]
    pos, out, size = 0, [], 0
    for f in find_secrets(window):
        if f.start >= limit:
            break
        piece, holder = window[pos:f.start], _PLACEHOLDER_OF[f.kind]
        if size + len(piece) + len(holder) > limit:
            out.append(piece[:limit - size])
            return "".join(out)
        out += (piece, holder)
        size += len(piece) + len(holder)
        pos = f.end
    out.append(window[pos:pos + limit - size])
    return "".join(out)


_SEPARATOR = "\n\x00\n"
_GROUP_CHARS = 64 * 1024


def anonymize_many(texts: Sequence[str]) -> list[str]:
    """``[anonymize(t) for t in texts]``, faster for many short texts (a bulk import): they are
    scanned together, ~64 KB at a time, joined by a line holding a NUL, so the fixed cost of
    a call (gates, lower-casing) is paid once per group instead of once per text.

    A finding that would cross from one text into the next is not trusted: those texts are
    anonymized alone. Texts holding a NUL themselves are anonymized alone.

    >>> anonymize_many(["mail a@b.io", "nothing here", "DB_PASSWORD=hunter2"])
    ['mail <EMAIL>', 'nothing here', 'DB_PASSWORD=<PASSWORD>']
    """
    out = list(texts)
    n, i = len(out), 0
    while i < n:
        group, size = [], 0
        while i < n and size < _GROUP_CHARS:
            if "\x00" in out[i]:
                out[i] = anonymize(out[i])
            else:
                group.append(i)
                size += len(out[i]) + len(_SEPARATOR)
            i += 1
        if group:
            _anonymize_group(out, group)
    return out


def _anonymize_group(out: list[str], group: list[int]) -> None:
    texts = [out[k] for k in group]
    joined = _SEPARATOR.join(texts)
    starts, pos = [], 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + len(_SEPARATOR)
    per: list[list[Finding]] = [[] for _ in texts]
    alone: set[int] = set()
    for f in find_secrets(joined):
        j = bisect_left(starts, f.start + 1) - 1
        if f.end > starts[j] + len(texts[j]):
            alone.update(range(j, bisect_left(starts, f.end)))  # crosses a separator: not trusted
        else:
            per[j].append(f)
    for j, k in enumerate(group):
        if j in alone:
            out[k] = anonymize(texts[j])
        elif per[j]:
            parts: list[str] = []
            base, text, at = starts[j], texts[j], 0
            for f in per[j]:
                parts += (text[at:f.start - base], _PLACEHOLDER_OF[f.kind])
                at = f.end - base
            parts.append(text[at:])
            out[k] = anonymize("".join(parts))  # the rest of the passes (see anonymize)


def anonymize(text: str) -> str:
    """Replace secrets and personal data by typed placeholders; idempotent.

    A placeholder can open a word boundary that the secret it replaced did not leave (in
    ``4444secret = 'x'``, the card number hides the assignment), so the text is scanned
    again until a pass finds nothing (at most :data:`MAX_PASSES`; a text without a finding
    costs one pass).

    >>> anonymize("DB_PASSWORD=hunter2 psql -h 10.0.0.7 -U alice")
    'DB_PASSWORD=<PASSWORD> psql -h <IP> -U alice'
    >>> anonymize("charged 5555-5555-5555-4444secret = 'hunter2hunter2'")
    "charged <CARD>secret = '<SECRET>'"
    """
    for _ in range(MAX_PASSES):
        once = _one_pass(text)
        if once is text:
            break
        text = once
    return text


MAX_PASSES = 4


def _one_pass(text: str) -> str:
    """Every finding of one scan replaced; ``text`` itself (the same object) when none."""
    parts: list[str] = []
    pos = 0
    for f in find_secrets(text):
        parts += (text[pos:f.start], _PLACEHOLDER_OF[f.kind])
        pos = f.end
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)
