"""Anonymization of request text: secrets and personal data become typed placeholders.

``anonymize`` runs inside Claude Code hooks on every prompt, so it is pure stdlib ``re``.
Each rule has cheap substring triggers; its pattern is compiled once per process, the
first time a text contains a trigger (compiling all of them up front costs ~10 ms, twice
the import budget). Patterns start with a literal or a character class so that ``re``
can skip ahead; left-edge checks run in Python instead of leading look-behinds, which
would disable that skip.

Rules run in priority order (private keys, JWTs, provider tokens, URL credentials, auth
headers, secret assignments, emails, IPs, cards, phones, home paths); a later rule never
claims text an earlier one claimed.

Decisions worth knowing:

- Provider credentials (AWS, Google, GitHub, GitLab, Slack, Discord, Telegram, OpenAI,
  Anthropic, Hugging Face, Stripe, Twilio, SendGrid, npm, PyPI, Azure AD) become
  ``<API_KEY>``; ``Bearer``/``Basic``/``Authorization`` values and webhook path secrets
  ``<TOKEN>``; ``user:pass@`` in URLs and ``curl -u`` ``<CREDENTIALS>``.
- In ``key = value`` assignments only the value is replaced and the key name is kept:
  ``<PASSWORD>`` for password-like keys, ``<SECRET>`` for the rest (``token``,
  ``api_key``, ``AccountKey``, ``sig``...). A right-hand side that is an identifier, call,
  attribute or index expression (``getpass()``, ``request.headers.get(...)``,
  ``self.token``) is code and is left alone, except where a bare word is the literal
  value: env-style ``UPPER_KEY=value``, ``--flag=value``/``--flag value``, URL queries
  and YAML-style ``key: value`` lines. Prose-like quoted strings ("Enter your password"),
  templates and file paths are not secrets.
- Loopback and unspecified addresses (``127.x.x.x``, ``0.0.0.0``, ``::1``, ``::``) and
  netmasks (``255.x.x.x``) are kept: they identify nobody and carry meaning in dev
  instructions. Private ranges (``10.x``, ``192.168.x``) are replaced: they map a network.
- Home paths keep what follows the user name (``/home/alice/src`` -> ``<HOME>/src``);
  the shared folders ``Shared``, ``Public``, ``Default`` are kept. ``~alice`` is replaced
  only when a path follows (``~alice/``): a bare ``~name`` is usually a bitwise NOT.
- ``git@host`` is not an email. Version strings (``3.11.7``, ``==1.2.3.4``), dates,
  times, UUIDs and git SHAs are kept unless they are the value of a secret assignment.

The result is idempotent: placeholders are never matched, and a value that already
contains a placeholder is not claimed again.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["PLACEHOLDERS", "Finding", "anonymize", "find_secrets"]


class _Lazy:
    """A pattern compiled on first use: compiling all of them at import costs ~10 ms, twice
    the import budget of a hook, and most texts never need most of them."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source, self.flags = source, flags
        self._regex: re.Pattern[str] | None = None

    def __getattr__(self, name: str):  # search, match, fullmatch, finditer; then cached
        if self._regex is None:
            self._regex = re.compile(self.source, re.ASCII | self.flags)
        method = getattr(self._regex, name)
        setattr(self, name, method)
        return method


PLACEHOLDERS: tuple[str, ...] = (
    "<PRIVATE_KEY>", "<JWT>", "<API_KEY>", "<TOKEN>", "<CREDENTIALS>", "<PASSWORD>",
    "<SECRET>", "<EMAIL>", "<IP>", "<CARD>", "<PHONE>", "<HOME>",
)
_API_KEY_KINDS = (
    "aws_access_key_id google_api_key github_token gitlab_token slack_token discord_token "
    "telegram_token anthropic_key openai_key huggingface_token stripe_key twilio_key "
    "sendgrid_key npm_token pypi_token azure_client_secret"
).split()
_PLACEHOLDER_OF: dict[str, str] = {
    **dict.fromkeys(_API_KEY_KINDS, "<API_KEY>"),
    **dict.fromkeys(("slack_webhook", "discord_webhook", "auth_header"), "<TOKEN>"),
    "private_key": "<PRIVATE_KEY>", "jwt": "<JWT>", "url_credentials": "<CREDENTIALS>",
    "password": "<PASSWORD>", "secret": "<SECRET>", "email": "<EMAIL>", "ip": "<IP>",
    "card": "<CARD>", "phone": "<PHONE>", "home": "<HOME>",
}
_PLACEHOLDER_RE = _Lazy(r"<(?:PRIVATE_KEY|JWT|API_KEY|TOKEN|CREDENTIALS|PASSWORD|SECRET"
                             r"|EMAIL|IP|CARD|PHONE|HOME)>")
_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


@dataclass(frozen=True, slots=True)
class Finding:
    """A span of the input that ``anonymize`` replaces, and what it was taken for."""

    kind: str
    start: int
    end: int

    @property
    def placeholder(self) -> str:
        return _PLACEHOLDER_OF[self.kind]


_DIGIT = _Lazy(r"[0-9]")
_LETTER = _Lazy(r"[A-Za-z]")
_INNER_UPPERS = _Lazy(r"[A-Za-z0-9_\-][^A-Z]*[A-Z][^A-Z]*[A-Z]")


def _looks_random(s: str) -> bool:
    """Letters mixed with digits, or inner capitals: a token, not a word."""
    if _LETTER.search(s) is None:
        return False
    return _DIGIT.search(s) is not None or (_INNER_UPPERS.match(s) is not None and not s.isupper())


_Accept = Callable[[str, "re.Match[str]", int], bool]


class _Rule:
    """One pattern: its kind, the group holding the secret, and when to trust a match.

    ``left``: characters that may not precede the match. ``extend``/``extend_max``: the
    match may grow leftwards over these characters (the pattern then starts at a rarer
    character, which ``re`` finds faster). ``accept(text, match, start)`` has the last word.
    """

    __slots__ = ("kind", "regex", "group", "accept", "gate", "left", "extend", "extend_max")

    def __init__(self, kind: str, source: str, group: int | str = 0, *, accept: _Accept | None = None,
                 gate: tuple[str, ...] = (), left: str = _WORD, extend: str = "", extend_max: int = 0,
                 flags: int = 0) -> None:
        self.kind, self.regex, self.group, self.accept = kind, _Lazy(source, flags), group, accept
        self.gate, self.left, self.extend, self.extend_max = gate, left, extend, extend_max


def _random(group: int | str = 0) -> _Accept:
    return lambda _text, m, _start: _looks_random(m.group(group))


_TOKEN_CHARS = _WORD + "-"


def _discord_ok(text: str, m: re.Match[str], start: int) -> bool:
    return 24 <= m.start() - start <= 26 and text[start] in "MNO" and _looks_random(text[start:m.end()])


_B = r"(?![A-Za-z0-9_])"  # right edge of a token


def _at(prefix: str) -> str:
    """``prefix`` not preceded by a word character. The look-behind sits after the literal
    so that ``re`` still searches for the literal, and a run like ``eyJeyJeyJ...`` fails
    at once instead of rescanning the rest of the text from every position."""
    escaped = re.escape(prefix)
    return rf"{escaped}(?<![A-Za-z0-9_]{escaped})"


_PEM = r"-----BEGIN[ A-Z0-9]{0,20}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = _PEM.replace("BEGIN", "END")
_PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,]|-(?!----)|\\[nr])"  # stops at the next ``-----``
_PEM_LINES = r"(?:(?:\s|\\[nr])+(?:[A-Za-z0-9+/=]{16,}|[A-Za-z\-]+:[^\n\\]{0,200}))*"  # a truncated key

_TOKEN_RULES: tuple[_Rule, ...] = (
    _Rule("private_key", rf"{_PEM}(?:{_PEM_BODY}{{0,12000}}?{_PEM_END}|{_PEM_LINES})", gate=("PRIVATE KEY",),
          left=""),
    _Rule("jwt", _at("eyJ") + r"[A-Za-z0-9_\-]{10,4000}\.eyJ[A-Za-z0-9_\-]{10,4000}\.[A-Za-z0-9_\-]{0,1000}",
          gate=("eyJ",)),
    _Rule("slack_webhook",
          r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9_/\-]{20,200})",
          "v", gate=("hooks.slack",), left=""),
    _Rule("discord_webhook", r"discord(?:app)?\.com/api/webhooks/(?P<v>\d{1,30}/[A-Za-z0-9_\-]{1,200})",
          "v", gate=("/webhooks/",), left=""),
    _Rule("aws_access_key_id", _at("A") + rf"(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{{16}}{_B}",
          gate=("AKIA", "ASIA", "ABIA", "ACCA", "A3T")),
    _Rule("google_api_key", _at("AIza") + rf"[A-Za-z0-9_\-]{{35}}{_B}", gate=("AIza",)),
    _Rule("github_token",
          _at("g") + rf"(?:h[pousr]_[A-Za-z0-9]{{30,255}}|ithub_pat_[A-Za-z0-9_]{{22,255}}){_B}",
          gate=("gh", "github_pat_")),
    _Rule("gitlab_token", _at("glpat-") + r"[A-Za-z0-9_\-]{20,200}", gate=("glpat-",)),
    _Rule("slack_token", _at("x") + r"(?:ox[abposre]-[A-Za-z0-9\-]{10,250}|app-\d-[A-Za-z0-9\-]{10,250})",
          gate=("xox", "xapp-")),
    _Rule("discord_token", rf"\.[A-Za-z0-9_\-]{{6}}\.[A-Za-z0-9_\-]{{27,38}}{_B}", accept=_discord_ok,
          gate=(".",), extend=_TOKEN_CHARS, extend_max=26),
    _Rule("telegram_token", rf":A(?<=\d:A)[A-Za-z0-9_\-]{{34}}{_B}", gate=(":A",), extend="0123456789",
          extend_max=16, accept=lambda _t, m, start: m.start() - start >= 5),
    _Rule("anthropic_key", _at("sk-ant-") + r"[A-Za-z0-9_\-]{20,300}", gate=("sk-ant-",)),
    _Rule("openai_key", _at("sk-") + r"(?:proj-|svcacct-|admin-)?(?P<v>[A-Za-z0-9_\-]{20,300})",
          accept=_random("v"), gate=("sk-",)),
    _Rule("huggingface_token", _at("hf_") + rf"[A-Za-z0-9]{{30,100}}{_B}", gate=("hf_",)),
    _Rule("stripe_key", rf"k_(?<=[spr]k_)(?:live|test|prod)_[A-Za-z0-9]{{10,250}}{_B}",
          gate=("k_live_", "k_test_", "k_prod_"), extend="spr", extend_max=1),
    _Rule("twilio_key", _at("AC") + rf"[0-9a-fA-F]{{32}}{_B}", accept=_random(), gate=("AC",)),
    _Rule("twilio_key", _at("SK") + rf"[0-9a-fA-F]{{32}}{_B}", accept=_random(), gate=("SK",)),
    _Rule("sendgrid_key", _at("SG.") + r"[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", gate=("SG.",)),
    _Rule("npm_token", _at("npm_") + rf"[A-Za-z0-9]{{36}}{_B}", gate=("npm_",)),
    _Rule("pypi_token", _at("pypi-AgE") + r"[A-Za-z0-9_\-]{50,1000}", gate=("pypi-AgE",)),
    _Rule("azure_client_secret", rf"Q~(?<=[A-Za-z0-9_~.]{{3}}\dQ~)[A-Za-z0-9_~.\-]{{31,34}}", gate=("Q~",),
          extend=_WORD + "~.", extend_max=4),
    _Rule("url_credentials", r"://(?P<v>[^\s:/@<>'\"]{0,200}:[^\s/@<>'\"]{1,200})@(?=[A-Za-z0-9\[])", "v",
          gate=("://",), left=""),
    _Rule("url_credentials", _at("-") + r"(?:u|-user)[ \t]+(?P<v>[A-Za-z0-9._\-]{1,100}:[^\s$<>'\"]{1,200})",
          "v", gate=("-u",), left=_WORD + "-"),
    _Rule("auth_header", r"uthorization(?<=[Aa]uthorization)(?<![A-Za-z0-9_]\wuthorization)"
          r"[\"']?[ \t]*[:=][ \t]*[\"']?"
          r"(?:(?i:bearer|basic|token|bot|digest)[ \t]+)?(?P<v>[A-Za-z0-9\-._~+/]{8,1000}=*)",
          "v", accept=_random("v"), gate=("uthorization",), left=""),
    _Rule("auth_header", _at("B") + r"(?:earer|asic)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{12,1000}=*)", "v",
          accept=_random("v"), gate=("Bearer", "Basic")),
)


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
      |(?P<bv>[!#$%()*+\-./0-9:<=>?@A-Z\[\\\]^_a-z{|}~]{1,200}))""", re.VERBOSE)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_KEY_CHARS = frozenset(_WORD + ".-")
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
        if prev.isalnum() and not (text[start].isupper() and (prev.islower() or prev.isdigit())):
            continue  # ``getpass``, ``bypass``: the word only ends in a secret word
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
        if not yaml or "." in value or value[0] in "!$":
            return False
        return any(c.isdigit() for c in value) or value.islower()
    return yaml or (len(value) >= 6 and _looks_random(value))


# --- personal data

def _email_ok(text: str, m: re.Match[str], start: int) -> bool:
    return start < m.start() and text[start:m.start()] != "git"  # ``git@github.com:org/repo``


_KEPT_V4 = ("127.", "0.0.0.0", "255.")
_VERSION_OPS = ("==", ">=", "<=", "~=", "!=", "^", "~", "v", "V")


def _ipv4_ok(text: str, m: re.Match[str], _start: int) -> bool:
    ip = m.group()
    if any(len(o) > 1 and o[0] == "0" or int(o) > 255 for o in ip.split(".")):
        return False
    if ip.endswith(".0") and text.startswith("/", m.end()):
        return False  # a CIDR block such as ``10.0.0.0/16`` names a network, not a host
    return not ip.startswith(_KEPT_V4) and not text[max(0, m.start() - 2):m.start()].endswith(_VERSION_OPS)


_HEX = frozenset("0123456789abcdefABCDEF")


def _ipv6_ok(text: str, m: re.Match[str], start: int) -> bool:
    ip = text[start:m.end()]
    if ip.count("::") > 1 or ip in ("::", "::1") or not any(c.isdigit() for c in ip):
        return False
    groups = [g for g in ip.split(":") if g and "." not in g]
    if any(len(g) > 4 or not set(g) <= _HEX for g in groups):
        return False
    if "::" not in ip:
        return len(groups) == 8 or (len(groups) == 6 and "." in ip)
    return len(groups) >= 3 or any(len(g) == 4 for g in groups)


def _phone_ok(_text: str, m: re.Match[str], _start: int) -> bool:
    return 8 <= sum(c.isdigit() for c in m.group()) <= 15


def _digits_ok(text: str, m: re.Match[str], start: int) -> bool:
    kind = m.lastgroup
    return _ipv4_ok(text, m, start) if kind == "ip" else _card_ok(m.group()) if kind == "card" else True


def _card_ok(raw: str) -> bool:
    digits = [int(c) for c in raw if c.isdigit()]
    if len({c for c in raw if not c.isdigit()}) > 1 or not 13 <= len(digits) <= 19:
        return False
    head = "".join(map(str, digits[:4]))
    if not (head[0] == "4" or "51" <= head[:2] <= "55" or "2221" <= head <= "2720"
            or head[:2] in ("34", "35", "36", "37") or head.startswith(("6011", "65"))):
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):  # Luhn
        total += (d * 2 - 9 if d > 4 else d * 2) if i % 2 else d
    return total % 10 == 0


_SHARED_HOMES = frozenset({"Shared", "Public", "Default", "Default User", "All Users"})


def _home_ok(text: str, m: re.Match[str], _start: int) -> bool:
    if m.group("u") in _SHARED_HOMES:
        return False
    start = m.start()
    lo = max(0, start - 300)
    token_start = max(lo - 1, *(text.rfind(c, lo, start) for c in " \t\n\"'(")) + 1
    return "://" not in text[token_start:start]  # ``https://site/home/x`` is a URL path


_DRIVE_MOUNT = _Lazy(r"(?:^|[^\w.\-])(?:/mnt)?/[A-Za-z]\Z")


def _mac_home_ok(text: str, m: re.Match[str], start: int) -> bool:
    """``/Users/x`` at a path start, or under a mounted Windows drive (``/mnt/c/Users/x``)."""
    s = m.start()
    if s and text[s - 1] in _KEY_CHARS and not _DRIVE_MOUNT.search(text, max(0, s - 7), s):
        return False
    return _home_ok(text, m, start)


_USER = r"(?P<u>[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*)(?![A-Za-z0-9_\-])"  # ``/home/bob.`` ends a sentence
_PHONE_LEFT = _WORD + ".-/+"
_PHONE_END = r"(?![A-Za-z0-9_\-/]|\.\d)"
_WIN_NAME = r"[^\\/:*?\"'`<>|,;()\s]+"
_KR_AREA = r"(?:2|[3-6][1-5]|70)"

_PII_RULES: tuple[_Rule, ...] = (
    _Rule("email", r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}" + _B,
          accept=_email_ok, gate=("@",), left=_WORD + ".%+-", extend=_WORD + ".%+-", extend_max=64),
    _Rule("ip", r":[0-9A-Fa-f]{0,4}:(?:[0-9A-Fa-f]{0,4}:){0,5}"
          r"(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?(?![A-Za-z0-9_:])",
          accept=_ipv6_ok, gate=(":",), left=_WORD + ":.", extend="0123456789abcdefABCDEF", extend_max=4),
    # IPv4, cards and digit-led phones share one scan: each scan led by a character class
    # costs ~20 us/KB, so the kind comes from the empty marker group that matched.
    _Rule("", r"\d(?:\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![A-Za-z0-9_]|\.[A-Za-z0-9_])(?P<ip>)"
          r"|(?<=0)1[016789](?:-\d{3,4}-|\.\d{3,4}\.|\ \d{3,4}\ |\d{3,4})\d{4}" + _PHONE_END + "(?P<phone1>)"
          rf"|(?<=0)(?:{_KR_AREA}|50\d)-\d{{3,4}}-\d{{4}}{_PHONE_END}(?P<phone2>)"
          r"|\d{3}(?:\ \d{4}\ \d{4}\ \d{1,4}(?:\ \d{3})?|-\d{4}-\d{4}-\d{1,4}(?:-\d{3})?|[ \-]\d{6}[ \-]\d{5}"
          r"|\d{9,15})(?![0-9])(?P<card>)"
          rf"|\d\d(?:-\d{{3}}-|\.\d{{3}}\.)\d{{4}}{_PHONE_END}(?P<phone3>))",
          accept=_digits_ok, left=_WORD + ".-+"),  # not "/": ``http://10.0.0.7/``
    _Rule("phone", r"\+[1-9]\d{0,2}(?:[ .\-]?\(\d{1,4}\))?[ .\-]?\d{1,4}(?:[ .\-]?\d{2,5}){1,4}" + _PHONE_END,
          accept=_phone_ok, gate=("+",), left=_PHONE_LEFT),
    _Rule("phone", rf"\((?:0{_KR_AREA}|\d{{3}})\)[ ]?\d{{3,4}}[\-.]\d{{4}}{_PHONE_END}", gate=(")",),
          left=_PHONE_LEFT),
    _Rule("home", rf"/home/{_USER}", accept=_home_ok, gate=("/home/",), left=_WORD + ".-"),
    _Rule("home", rf"/Users/{_USER}", accept=_mac_home_ok, gate=("/Users/",), left=""),
    _Rule("home", rf":(?<=[A-Za-z]:)(?:\\\\|\\|/)(?:Users|Documents and Settings)(?:\\\\|\\|/)"
          rf"(?P<u>{_WIN_NAME}(?: {_WIN_NAME})*(?=\\|/)|{_WIN_NAME})", accept=_home_ok,
          gate=("Users", "Documents and"), extend=_WORD, extend_max=1),
    _Rule("home", r"~(?P<u>[a-z_][a-z0-9_.\-]*)(?=/[A-Za-z._\-])", accept=_home_ok, gate=("~",),
          left=_WORD + "~/."),  # ``~alice/src``; ``~mask/2`` is arithmetic
)
_EMAIL_LOCAL = frozenset(_WORD + ".%+-")


class _Claims:
    """Non-overlapping findings, kept sorted by start."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.findings: list[Finding] = []

    def covers(self, pos: int) -> bool:
        i = bisect_left(self.starts, pos + 1)
        return bool(i) and self.findings[i - 1].end > pos

    def add(self, f: Finding) -> None:
        i = bisect_left(self.starts, f.start)
        if f.end <= f.start or (i and self.findings[i - 1].end > f.start):
            return
        if i < len(self.starts) and self.starts[i] < f.end:
            return
        self.starts.insert(i, f.start)
        self.findings.insert(i, f)


def _apply(rules: tuple[_Rule, ...], text: str, claims: _Claims) -> None:
    for rule in rules:
        if rule.gate and not any(map(text.__contains__, rule.gate)):
            continue
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


def find_secrets(text: str) -> list[Finding]:
    """The spans ``anonymize`` replaces, sorted by position and never overlapping.

    >>> find_secrets("mail alice@example.com")
    [Finding(kind='email', start=5, end=22)]
    """
    claims = _Claims()
    _apply(_TOKEN_RULES, text, claims)
    _assignments(text, claims)
    _apply(_PII_RULES, text, claims)
    return claims.findings


def anonymize(text: str) -> str:
    """Replace secrets and personal data by typed placeholders; idempotent.

    >>> anonymize("DB_PASSWORD=hunter2 psql -h 10.0.0.7 -U alice")
    'DB_PASSWORD=<PASSWORD> psql -h <IP> -U alice'
    """
    parts: list[str] = []
    pos = 0
    for f in find_secrets(text):
        parts += (text[pos:f.start], _PLACEHOLDER_OF[f.kind])
        pos = f.end
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)
