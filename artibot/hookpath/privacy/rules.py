"""The rule catalogue: typed placeholders, ``Finding``, and the patterns for provider
tokens and personal data with the checks that decide whether a match is trusted.

Secret assignments (``key = value``) are not patterns of this kind; ``engine`` finds them
between the token rules and the personal-data rules.
"""

from __future__ import annotations

from artibot.hookpath import regex
from artibot.hookpath.frozen import frozen

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any

    _Accept = Callable[[str, re.Match[str], int], bool]


class _Lazy:
    """A pattern compiled on first use: compiling all of them at import costs twice the import
    budget of a hook (docs/benchmarks.md, "Costs behind the code"), and most texts never need
    most of them."""

    made: list[_Lazy] = []
    """Every lazy pattern, for :func:`compile_all`."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source, self.flags = source, flags
        self._regex: re.Pattern[str] | None = None
        _Lazy.made.append(self)

    def __getattr__(self, name: str) -> Any:  # search, match, fullmatch, finditer; then cached
        if self._regex is None:
            self._regex = regex.compile(self.source, regex.ASCII | self.flags)
        method = getattr(self._regex, name)
        setattr(self, name, method)
        return method


def compile_all() -> int:
    """Compile every pattern of the anonymizer now; returns how many there are.

    For a caller that keeps the compiled programs (:mod:`artibot.hookpath.regex`): a later process
    then compiles none, whatever its text holds.
    """
    from . import engine  # noqa: F401 - the modules that make the rest of the patterns

    for lazy in _Lazy.made:
        lazy.search  # noqa: B018 - the first attribute compiles the pattern
    return len(_Lazy.made)


PLACEHOLDERS: tuple[str, ...] = (
    "<PRIVATE_KEY>", "<JWT>", "<API_KEY>", "<TOKEN>", "<CREDENTIALS>", "<PASSWORD>",
    "<SECRET>", "<EMAIL>", "<IP>", "<CARD>", "<PHONE>", "<HOME>", "<NATIONAL_ID>", "<IBAN>",
)
_API_KEY_KINDS = (
    "aws_access_key_id google_api_key github_token gitlab_token slack_token discord_token "
    "telegram_token anthropic_key openai_key huggingface_token stripe_key twilio_key "
    "sendgrid_key npm_token pypi_token azure_client_secret api_key"
).split()
_PLACEHOLDER_OF: dict[str, str] = {
    **dict.fromkeys(_API_KEY_KINDS, "<API_KEY>"),
    **dict.fromkeys(("slack_webhook", "discord_webhook", "auth_header"), "<TOKEN>"),
    "private_key": "<PRIVATE_KEY>", "jwt": "<JWT>", "url_credentials": "<CREDENTIALS>",
    "password": "<PASSWORD>", "secret": "<SECRET>", "email": "<EMAIL>", "ip": "<IP>",
    "card": "<CARD>", "phone": "<PHONE>", "home": "<HOME>", "national_id": "<NATIONAL_ID>", "iban": "<IBAN>",
    "password_hash": "<SECRET>",
}
_PLACEHOLDER_RE = _Lazy(r"<(?:PRIVATE_KEY|JWT|API_KEY|TOKEN|CREDENTIALS|PASSWORD|SECRET"
                             r"|EMAIL|IP|CARD|PHONE|HOME|NATIONAL_ID|IBAN)>")
_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_KEY_CHARS = frozenset(_WORD + ".-")  # a key name such as ``azure.client-secret``


@frozen  # not @dataclass: dataclasses loads inspect, which every prompt hook would pay for
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




class _Rule:
    """One pattern: its kind, the group holding the secret, and when to trust a match.

    ``left``: characters that may not precede the match. ``extend``/``extend_max``: the
    match may grow leftwards over these characters (the pattern then starts at a rarer
    character, which ``re`` finds faster). ``accept(text, match, start)`` has the last word.
    ``family``: a string every match of the rule contains (``$`` for ``$2b$...``); the
    rule's gates are only looked up in texts that hold it.
    """

    __slots__ = ("kind", "regex", "group", "accept", "gate", "left", "extend", "extend_max", "family")

    def __init__(self, kind: str, source: str, group: int | str = 0, *, accept: _Accept | None = None,
                 gate: tuple[str, ...] = (), left: str = _WORD, extend: str = "", extend_max: int = 0,
                 flags: int = 0, family: str = "") -> None:
        self.kind, self.regex, self.group, self.accept = kind, _Lazy(source, flags), group, accept
        self.gate, self.left, self.extend, self.extend_max = gate, left, extend, extend_max
        self.family = family


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
    escaped = regex.escape(prefix)
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
    # the prefix alone says what it is: a short or truncated key is a key too
    _Rule("anthropic_key", _at("sk-ant-") + r"[A-Za-z0-9_\-]{6,300}", gate=("sk-ant-",)),
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
    _Rule("azure_client_secret", r"Q~(?<=[A-Za-z0-9_~.]{3}\dQ~)[A-Za-z0-9_~.\-]{31,34}", gate=("Q~",),
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
    # "my password is hunter2", "the password for the db is P@ssw0rd!2024"
    _Rule("password", r"(?:pass(?:word|wd|phrase)|pwd)(?:[ \t]+(?:for|of|to|on)[ \t]+(?:(?:the|my|our|your)[ \t]+)?"
          r"[\w.@:/\-]{1,60}(?:[ \t]+[a-z]{2,12})?)?(?:[ \t]+(?:is|was)|[ \t]*:)(?:[ \t]+(?:now|still|just))?[ \t]*:?[ \t]*"
          r"[\"'`]?(?P<v>[^\s\"'`]{3,128})", "v", accept=lambda text, m, start: _prose_password_ok(m.group("v")),
          gate=("assword", "ASSWORD", "asswd", "ASSWD", "assphrase", "pwd", "PWD"), flags=regex.IGNORECASE),
    # "비밀번호는 hunter2", "비밀번호: qwer1234" (the value: the ASCII run after the particle)
    _Rule("password", r"(?:비밀번호|패스워드|암호)(?:는|은|가|를|:|=)?[ \t]*[:=]?[ \t]*[\"'`]?(?P<v>[!-~]{4,128})", "v",
          accept=lambda text, m, start: _prose_password_ok(m.group("v"), korean=True),
          gate=("비밀번호", "패스워드", "암호"), left=""),
    # "비밀번호=한글비번123": a value given with = or : may start with Hangul; it is a password
    # when it holds a digit or an ASCII letter beside the Hangul ("비밀번호: 필수" is prose)
    _Rule("password", r"(?:비밀번호|패스워드|암호)[ \t]*[:=][ \t]*[\"'`]?(?P<v>[\uac00-\ud7a3][^\s\"'`]{3,127})", "v",
          accept=lambda text, m, start: _hangul_password_ok(m.group("v")),
          gate=("비밀번호", "패스워드", "암호"), left=""),
    # an AWS secret access key alone in quotes: 40 base64 characters, mixed case and digits
    _Rule("secret", r"[\"'](?P<v>[A-Za-z0-9/+]{40})[\"']", "v", accept=lambda text, m, start: _aws_secret_ok(m.group("v")),
          gate=('"', "'"), left=""),
)


# Gate families (see ``gates._Gates``): a string that every match of the rule holds, so that
# its gates are not looked up in texts without it (prose has no ``_``, base64 no ``-``).
for _rule in _TOKEN_RULES:
    _rule.family = {"private_key": "-", "jwt": ".", "github_token": "_", "slack_token": "-"}.get(_rule.kind) or next(
        (f for f in ("_", "-", ".", ":", "~", "/") if all(f in g for g in _rule.gate)), "")


_NOT_PASSWORDS = frozenset(
    "the a an not too incorrect wrong required empty missing invalid correct expired set stored hashed "
    "hidden changed reset saved weak strong long short same different case sensitive optional mandatory "
    "null none blank unknown generated encrypted encoded protected needed valid being also still now "
    "only just never always in on at of for with from by to and or but it this that there here what "
    "which who your my our their its his her".split()
)


def _prose_password_ok(value: str, korean: bool = False) -> bool:
    """A word after "password is" that is a password, not prose ("the password is required")."""
    value = value.rstrip(".,;:)]}")
    if len(value) < (4 if korean else 3) or value.lower() in _NOT_PASSWORDS or value.startswith(("<", "$", "{", "%")):
        return False
    if _PLACEHOLDER_RE.search(value):
        return False
    return not value.isalpha() or not value.islower() or len(value) >= 6


def _hangul_password_ok(value: str) -> bool:
    value = value.rstrip(".,;:)]}")
    return len(value) >= 4 and any(c.isdigit() or c.isascii() and c.isalpha() for c in value)


def _aws_secret_ok(value: str) -> bool:
    return (any(c.isupper() for c in value) and any(c.islower() for c in value)
            and any(c.isdigit() for c in value) and _INNER_UPPERS.match(value) is not None)


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
    if kind == "iban":
        return start == m.start() - 2 and _iban_ok(text[start:m.end()])
    if start != m.start():
        return False  # grown over capitals for an IBAN: other kinds keep their left edge
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


# IBAN lengths by country (ISO 13616 registry, the countries that issue most of them)
_IBAN_LENGTHS = dict(
    (c[:2], int(c[2:])) for c in "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 "
    "EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 "
    "LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 "
    "SA24 SC31 SE24 SI19 SK24 SM27 TN24 TR26 UA29 VG24 XK20".split()
)


def _iban_ok(raw: str) -> bool:
    """The country's length and the mod-97 check: a random string passes 1 time in 97."""
    iban = raw.replace(" ", "")
    if _IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban[2:4].isdigit():
        return False
    return int("".join(str(int(c, 36)) for c in iban[4:] + iban[:4])) % 97 == 1


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

def _national_id_ok(text: str, m: re.Match[str], start: int) -> bool:
    """A US SSN (area, group, serial rules) or a Korean RRN (a real birth date, and the check
    digit, or the word 주민 just before: numbers issued since 2020 carry no check digit)."""
    head = text[start:m.start()]
    if m.group("ssn") is not None:
        area, group, serial = int(head), int(m.group("ssn")[:2]), int(m.group("ssn")[3:])
        return len(head) == 3 and area not in (0, 666) and area < 900 and group > 0 and serial > 0
    if len(head) != 6:
        return False
    month, day = int(head[2:4]), int(head[4:6])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return False
    digits = [int(c) for c in head + m.group("rrn")]
    check = (11 - sum(d * w for d, w in zip(digits, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5))) % 11) % 10
    return check == digits[12] or "주민" in text[max(0, start - 30):start]


_PII_RULES: tuple[_Rule, ...] = (
    _Rule("national_id", r"-(?:(?P<ssn>\d{2}-\d{4})|(?P<rrn>[1-8]\d{6}))(?![0-9]|-\d)", accept=_national_id_ok,
          gate=("-",), extend="0123456789", extend_max=6),
    _Rule("email", r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}" + _B,
          accept=_email_ok, gate=("@",), left=_WORD + ".%+-", extend=_WORD + ".%+-", extend_max=64),
    _Rule("ip", r":[0-9A-Fa-f]{0,4}:(?:[0-9A-Fa-f]{0,4}:){0,5}"
          r"(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?(?![A-Za-z0-9_:])",
          accept=_ipv6_ok, gate=(":",), left=_WORD + ":.", extend="0123456789abcdefABCDEF", extend_max=4),
    # IPv4, cards and digit-led phones share one scan: each scan led by a character class
    # costs its own pass over the text (docs/benchmarks.md), so the kind comes from the empty
    # marker group that matched.
    # IBANs too (``DE89 3704 ...``, ``GB29NWBK...``): the match starts at the check digits and
    # grows over the two capitals of the country code.
    _Rule("", r"\d(?:(?<=[A-Z]{2}\d)\d(?:\ ?[A-Z0-9]{4}){2,7}(?:\ ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])(?P<iban>)"
          r"|\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![A-Za-z0-9_]|\.[A-Za-z0-9_])(?P<ip>)"
          r"|(?<=0)1[016789](?:-\d{3,4}-|\.\d{3,4}\.|\ \d{3,4}\ |\d{3,4})\d{4}" + _PHONE_END + "(?P<phone1>)"
          rf"|(?<=0)(?:{_KR_AREA}|50\d)-\d{{3,4}}-\d{{4}}{_PHONE_END}(?P<phone2>)"
          r"|\d{3}(?:\ \d{4}\ \d{4}\ \d{1,4}(?:\ \d{3})?|-\d{4}-\d{4}-\d{1,4}(?:-\d{3})?|[ \-]\d{6}[ \-]\d{5}"
          r"|\d{9,15})(?![0-9])(?P<card>)"
          rf"|\d\d(?:-\d{{3}}-|\.\d{{3}}\.)\d{{4}}{_PHONE_END}(?P<phone3>))",
          accept=_digits_ok, left=_WORD + ".-+", extend="ABCDEFGHIJKLMNOPQRSTUVWXYZ", extend_max=2),  # not "/"
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
