"""More token rules: keys of further providers, PuTTY private keys, password hashes,
passwords given on a command line, header and cookie tokens, connection-string passwords.

They run after the rules of ``rules._TOKEN_RULES`` and before secret assignments. Every
rule is gated by a literal that must occur in the text, so ordinary prose pays one
substring test per gate and nothing else.
"""

from __future__ import annotations

from artibot.hookpath import regex

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    import re

from .rules import _PLACEHOLDER_RE, _WORD, _Lazy, _looks_random, _Rule

_B = r"(?![A-Za-z0-9_])"


def _key(prefix: str, body: str, gate: str | None = None) -> _Rule:
    """A provider key: a literal prefix (not preceded by a word character) and its body."""
    escaped = regex.escape(prefix)
    return _Rule("api_key", rf"{escaped}(?<![A-Za-z0-9_]{escaped}){body}", gate=(gate or prefix,))


# Each prefix is long or odd enough that ordinary text does not hold it followed by a
# body of the right alphabet and length.
_PROVIDER_RULES: tuple[_Rule, ...] = (
    _key("PMAK-", rf"[0-9a-f]{{24}}-[0-9a-f]{{34}}{_B}"),  # Postman
    _key("dckr_pat_", r"[A-Za-z0-9_\-]{27,}"),  # Docker Hub
    _Rule("api_key", rf"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_B}", gate=("shpat_", "shpca_", "shppa_", "shpss_")),
    _Rule("api_key", rf"do[por]_v1_[a-f0-9]{{64}}{_B}", gate=("_v1_",)),  # DigitalOcean
    _Rule("api_key", r"hv[sb]\.[A-Za-z0-9_\-]{24,300}", gate=("hvs.", "hvb."), accept=lambda t, m, s: _looks_random(m.group())),
    _key("dapi", rf"[a-f0-9]{{32}}(?:-\d)?{_B}"),  # Databricks
    _key("key-", rf"[a-f0-9]{{32}}{_B}"),  # Mailgun
    _Rule("api_key", rf"-us\d{{1,2}}{_B}", gate=("-us",), extend="0123456789abcdef", extend_max=32,  # Mailchimp
          accept=lambda t, m, start: m.start() - start == 32 and (not start or t[start - 1] not in _WORD)),
    _key("GOCSPX-", r"[A-Za-z0-9_\-]{24,40}"),  # Google OAuth client secret
    _key("ya29.", r"[A-Za-z0-9_\-]{30,2000}"),  # Google OAuth access token
    _key("1//0", r"[A-Za-z0-9_\-]{40,500}"),  # Google OAuth refresh token
    _key("whsec_", r"[A-Za-z0-9+/=]{24,100}"),  # Stripe / Svix webhook secret
    _key("AGE-SECRET-KEY-1", r"[0-9A-Z]{58}"),
    _key("NRAK-", r"[A-Z0-9]{27}"),  # New Relic
    _key("lin_api_", r"[A-Za-z0-9]{40}"),  # Linear
    _key("ntn_", rf"[A-Za-z0-9]{{40,50}}{_B}"),  # Notion
    _key("secret_", rf"[A-Za-z0-9]{{43}}{_B}"),  # Notion (old)
    _key("sbp_", rf"[a-f0-9]{{40}}{_B}"),  # Supabase
    _Rule("api_key", r"gl(?:sa|c)_[A-Za-z0-9_=+/]{32,200}", gate=("glsa_", "glc_"),  # Grafana
          accept=lambda t, m, s: _looks_random(m.group()) and (not m.start() or t[m.start() - 1] not in _WORD)),
    _key("ATATT3", r"[A-Za-z0-9_\-=]{100,300}"),  # Atlassian
    _Rule("api_key", rf"EAA[A-Za-z0-9]{{100,400}}{_B}", gate=("EAA",), accept=lambda t, m, s: _looks_random(m.group())),
    _Rule("api_key", r":APA91b[A-Za-z0-9_\-]{100,300}", gate=(":APA91b",), extend=_WORD + "-", extend_max=12),  # FCM
    _key("gsk_", r"[A-Za-z0-9]{48,60}"),  # Groq
    _key("pcsk_", r"[A-Za-z0-9_]{50,100}"),  # Pinecone
    _Rule("api_key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", gate=("lsv2_",)),  # LangSmith
    _key("r8_", rf"[A-Za-z0-9]{{37}}{_B}"),  # Replicate
    _key("tskey-", r"[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),  # Tailscale
    _Rule("api_key", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}", gate=("pscale_",)),  # PlanetScale
    _Rule("api_key", r"sntry[su]_[A-Za-z0-9=_+/]{40,300}", gate=("sntrys_", "sntryu_")),  # Sentry
    _key("xai-", rf"[A-Za-z0-9]{{60,100}}{_B}"),
    _key("pplx-", rf"[A-Za-z0-9]{{40,60}}{_B}"),  # Perplexity
    _key("HRKU-", r"[A-Za-z0-9_\-]{30,64}"),  # Heroku
    _key("figd_", r"[A-Za-z0-9_\-]{40,64}"),  # Figma
    _key("glptt-", r"[A-Za-z0-9_\-]{20,64}"),  # GitLab trigger token
    _key("dp.pt.", r"[A-Za-z0-9]{40,50}"),  # Doppler
    _key("nfp_", r"[A-Za-z0-9]{36,40}"),  # Netlify
)

# --- PuTTY private keys: the private lines and the MAC, not the public half
_B64_LINE = r"[A-Za-z0-9+/=]{4,128}(?=[ \t]*(?:\r?\n|\Z))"
_PUTTY_RULES: tuple[_Rule, ...] = (
    _Rule("private_key", rf"Private-Lines:[ \t]*\d+[ \t]*\r?\n(?P<v>{_B64_LINE}(?:[ \t]*\r?\n{_B64_LINE}){{0,200}}"
          r"(?:[ \t]*\r?\nPrivate-MAC:[ \t]*[0-9a-fA-F]{40,128})?)", "v", gate=("Private-Lines",), left=""),
    _Rule("private_key", r"Private-MAC:[ \t]*(?P<v>[0-9a-fA-F]{40,128})", "v", gate=("Private-MAC",), left=""),
)

# --- password hashes: a stored hash can be cracked offline, so it is a secret too
_C = r"[./A-Za-z0-9]"
_HASH_RULES: tuple[_Rule, ...] = (
    _Rule("password_hash", rf"\$2[abxy]?\$\d\d\${_C}{{53}}", gate=("$2",), left=""),  # bcrypt
    _Rule("password_hash", rf"\$[156]\$(?:rounds=\d+\$)?{_C}{{1,16}}\${_C}{{22,86}}", gate=("$1$", "$5$", "$6$"), left=""),
    _Rule("password_hash", rf"\$apr1\${_C}{{1,8}}\${_C}{{22}}", gate=("$apr1$",), left=""),
    _Rule("password_hash", rf"\$y\${_C}+\${_C}{{1,86}}\${_C}{{43}}", gate=("$y$",), left=""),  # yescrypt
    _Rule("password_hash", r"\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}",
          gate=("$argon2",), left=""),
    _Rule("password_hash", r"pbkdf2_sha(?:1|256|512)\$\d+\$[A-Za-z0-9./]+\$[A-Za-z0-9+/=.]{20,}", gate=("pbkdf2_",)),
    _Rule("password_hash", r"\{(?:SSHA|SSHA256|SSHA512|SHA|SMD5|CRYPT)\}[A-Za-z0-9+/=$./]{16,200}", gate=("{SSHA", "{SHA}",
          "{SMD5}", "{CRYPT}"), left=""),
)


# --- passwords given on a command line. The value may be quoted; the group ``v`` is what
# is inside the quotes. Only the commands where the flag is known to mean a password:
# ``-p`` is a port for ``docker run`` and ``ssh``, so ``docker`` needs ``login``.
_VAL = r"""["']?(?P<v>(?<=')[^'\n]{1,200}(?=')|(?<=")[^"\n]{1,200}(?=")|(?<!['"])[^\s'"|;&<>`]{1,200})"""
_NOT_VALUES = frozenset("password passwd pass secret - * ***** ******** xxx xxxx xxxxxx yourpassword mypassword".split())


def _value_ok(text: str, m: re.Match[str], _start: int) -> bool:
    value = m.group("v")
    if value[0] in "$<%{-" or value.lower() in _NOT_VALUES or _PLACEHOLDER_RE.search(value):
        return False
    return not (value.startswith("[") and value.endswith("]"))  # ``-p [password]`` in a usage line


def _host_before(text: str, end: int) -> bool:
    """A host name (or ``*``) runs from the start of a line or a blank up to ``end``."""
    start = end
    while start > max(0, end - 100) and (text[start - 1] in _WORD or text[start - 1] in ".-*"):
        start -= 1
    return start < end and (start == 0 or text[start - 1] in "\n \t")


_SEP = r"[^\n|;&]{0,200}?[ \t]"
_WITH_PASSWORD = _Lazy(r"(?:with|using)[ \t]+(?:the[ \t]+)?\Z")
_LOGIN_USER = _Lazy(r"(?:login|creds|credentials)\b[^\n/]{0,30}?[ \t][\w.@\-]{2,40}[ \t]+\Z")


def _after(pattern: _Lazy, text: str, end: int) -> bool:
    """``pattern`` (anchored at its end by ``\\Z``) matches the 80 characters before ``end``."""
    return pattern.search(text, max(0, end - 80), end) is not None


_LOGIN_CMD = _Lazy(r"(?:docker|podman|nerdctl|buildah|skopeo|oras|crane|helm|az|cf|oc)[ \t]+(?:[\w\-]+[ \t]+)?\Z")  # other arguments on the same command
_CMD_RULES: tuple[_Rule, ...] = (
    # mysql -pSECRET: attached only (``-p db`` prompts and names the database)
    _Rule("password", rf"(?:mysql|mariadb)[\w\-]*{_SEP}-p{_VAL}", "v", accept=_value_ok, gate=("mysql", "mariadb")),
    _Rule("password", rf"sshpass(?:[ \t]+-[a-zA-Z]+)*?[ \t]+-p[ \t]*{_VAL}", "v", accept=_value_ok, gate=("sshpass",)),
    # led by the literal ``login`` (an alternation of command names first costs several times as
    # much on prose: docs/benchmarks.md, "Costs behind the code")
    _Rule("password", rf"login{_SEP}(?:-p|--password)(?:[ \t]+|=){_VAL}", "v", gate=("login",), left="",
          accept=lambda t, m, s: _LOGIN_CMD.search(t, max(0, m.start() - 40), m.start()) is not None and _value_ok(t, m, s)),
    _Rule("password", rf"mongo[\w\-]*{_SEP}-p[ \t]+{_VAL}", "v", accept=_value_ok, gate=("mongo",)),
    _Rule("password", rf"(?:zip|unzip){_SEP}-P[ \t]+{_VAL}", "v", accept=_value_ok, gate=("zip",)),
    _Rule("password", rf"(?:7z|7za|rar|unrar){_SEP}-p{_VAL}", "v", accept=_value_ok, gate=("7z", "rar")),
    _Rule("password", rf"redis-cli{_SEP}(?:-a|--pass)[ \t]+{_VAL}", "v", accept=_value_ok, gate=("redis-cli",)),
    _Rule("password", rf"-pass(?:in|out)?[ \t]+pass:{_VAL}", "v", accept=_value_ok, gate=("pass:",)),  # openssl
    _Rule("password", rf"-(?:src|dest|new)?(?:store|key)pass[ \t]+{_VAL}", "v", accept=_value_ok,
          gate=("storepass", "keypass")),  # keytool
    _Rule("password", rf"ldap\w+{_SEP}-w[ \t]+{_VAL}", "v", accept=_value_ok, gate=("ldap",)),
    _Rule("password", rf"(?:sqlcmd|bcp|osql|isql){_SEP}-P[ \t]*{_VAL}", "v", accept=_value_ok,
          gate=("sqlcmd", "bcp", "osql", "isql")),
    _Rule("password", rf"htpasswd(?:[ \t]+-[a-zA-Z]+)*?[ \t]+-[a-zA-Z]*b[a-zA-Z]*(?:[ \t]+-[a-zA-Z]+)*[ \t]+[^\s\-]\S*"
          rf"[ \t]+[^\s\-]\S*[ \t]+{_VAL}", "v", accept=_value_ok, gate=("htpasswd",)),
    _Rule("password", rf"-U[ \t]*[\"']?[\w.\\@\-]+%{_VAL}", "v", accept=_value_ok, gate=("-U",), left=_WORD + "-"),  # smbclient
    _Rule("password", rf"(?i:net[ \t]+use){_SEP}/u(?:ser)?:\S+[ \t]+{_VAL}", "v", accept=_value_ok,
          gate=("net use", "NET USE", "Net use")),
    # xfreerdp /u:name /p:secret; not MSBuild's /p:Name=value
    _Rule("password", rf"[ \t]/p:{_VAL}", "v", gate=("/p:",), left="",
          accept=lambda t, m, s: "/u:" in t[t.rfind("\n", 0, m.start()) + 1:m.start()] and "=" not in m.group("v")
          and _value_ok(t, m, s)),
    _Rule("password", rf"rabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+{_VAL}", "v", accept=_value_ok,
          gate=("rabbitmqctl",)),
    # echo 'secret' | docker login --password-stdin, | sudo -S, | chpasswd
    _Rule("password", rf"(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?{_VAL}[\"']?[ \t]*\|[^\n|]{{0,200}}?"
          r"(?:--password-stdin|sudo[ \t]+(?:-\w+[ \t]+)*-S|--stdin|chpasswd)", "v", accept=_value_ok,
          gate=("--password-stdin", "sudo -S", "--stdin", "chpasswd")),
    # ~/.netrc: machine host login user password secret
    _Rule("password", rf"machine[ \t]+\S+(?:\s+(?:login|account)[ \t]+\S+)*\s+password[ \t]+{_VAL}", "v",
          accept=_value_ok, gate=("machine",)),
    # ADO.NET / ODBC connection strings: ...;Password=secret;...
    _Rule("password", r"(?i:password|pwd)[ \t]*=[ \t]*(?P<v>[^;\s'\"]{1,200})(?=;|[ \t]*$|[ \t]*[\"'])", "v",
          accept=lambda t, m, s: t[max(0, m.start() - 8):m.start()].rstrip(" \t").endswith(";") and _value_ok(t, m, s),
          gate=("assword=", "ASSWORD=", "wd=", "WD="), flags=regex.MULTILINE),
    # ~/.pgpass: host:port:database:user:password
    _Rule("password", r":(?:\d{2,5}|\*):[\w.\-*]+:[\w.\-*@]+:(?P<v>[^\s:]{1,200})(?=\s|$)", "v",
          accept=lambda t, m, s: _value_ok(t, m, s) and _host_before(t, m.start()), gate=("5432:", ":*:"), left=""),
    # "pw: secret", "login with password secret", "admin / secret" after login/creds
    _Rule("password", rf"(?:pw|pass)[ \t]*:[ \t]*{_VAL}", "v", accept=lambda t, m, s: _value_ok(t, m, s)
          and _looks_random(m.group("v")), gate=("pw:", "pass:", "PW:")),
    # led by a literal, with the words before it checked in ``accept``: an alternation first
    # (``(?:with|using)``) makes ``re`` try every position (docs/benchmarks.md)
    _Rule("password", rf"password[ \t]+{_VAL}", "v", gate=("password ",), left="",
          accept=lambda t, m, s: _after(_WITH_PASSWORD, t, m.start()) and _value_ok(t, m, s) and _looks_random(m.group("v"))),
    _Rule("password", rf"/[ \t]+{_VAL}", "v", gate=("login ", "creds", "credentials"), left="",
          accept=lambda t, m, s: _after(_LOGIN_USER, t, m.start()) and _value_ok(t, m, s) and _looks_random(m.group("v"))),
)

# --- header and cookie tokens, wherever the header stands in the line
_NOT_SECRET_HEADERS = ("idempotency", "cache", "request", "correlation", "trace", "partition", "sort", "primary",
                       "foreign", "routing", "dedup", "public", "object", "message", "page", "cursor", "continuation")
"""Header names ending in ``-Key``/``-Token`` whose value identifies a request, not a client."""


def _header_ok(text: str, m: re.Match[str]) -> bool:
    start = m.start()
    while start > max(0, m.start() - 60) and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    name = text[start:m.start()].lower()
    return not any(word in name for word in _NOT_SECRET_HEADERS) and _looks_random(m.group("v"))


_HEADER_RULES: tuple[_Rule, ...] = (
    _Rule("auth_header", r"-(?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET)[\"']?[ \t]*:[ \t]*[\"']?"
          r"(?P<v>[A-Za-z0-9\-._~+/]{12,1000}=*)", "v", accept=lambda t, m, s: _header_ok(t, m),
          gate=("-Key", "-key", "-KEY", "-Token", "-token", "-TOKEN", "-Secret", "-secret", "-SECRET"), left=""),
    _Rule("auth_header", r"(?i:cookie)[\"']?[ \t]*:[^\n]{0,500}?(?i:[\w.\-]*(?:sess|sid|token|auth|jwt|remember)[\w.\-]*)="
          r"(?P<v>[^;\s'\"]{16,1000})", "v", accept=lambda t, m, s: _looks_random(m.group("v")),
          gate=("ookie:", "OOKIE:", "ookie\":", "ookie':")),
    # Twilio's auth token is 32 hex characters with no prefix: found next to the account SID
    _Rule("api_key", r"AC[0-9a-f]{32}[\"']?[ \t]*[,:][ \t]*[\"']?(?P<v>[0-9a-f]{32})" + _B, "v", gate=("AC",)),
)



def _family(rules: tuple[_Rule, ...], *families: str) -> tuple[_Rule, ...]:
    """Give each rule the first of ``families`` that every match of its pattern contains
    (checked on the pattern's source: a literal in it that no alternative can skip)."""
    for rule in rules:
        rule.family = next((f for f in families if all(f in g for g in rule.gate)), rule.family)
    return rules


def _set(rule: _Rule, family: str) -> _Rule:
    rule.family = family
    return rule


_family(_PROVIDER_RULES, "_", "-", ".", "//", ":")  # the gate is the prefix, which the match holds
_family(_PUTTY_RULES, "Private-")
for _rule in _HASH_RULES:
    _set(_rule, "}" if "SSHA" in _rule.regex.source else "$")
for _rule in _HEADER_RULES[:2]:
    _set(_rule, ":")
# what each command-line match must hold, beyond its gate (``mysql`` ... ``-p``)
for _rule, _fam in zip(_CMD_RULES, ("-p", "-p", "-p", "-p", "-P", "-p", "-", ":", "pass", "-w", "-P", "-", "-U", "/",
                                    "/p:", "_", "|", "pass", "=", ":", ":", "pass", "/")):
    _set(_rule, _fam)

MORE_TOKEN_RULES: tuple[_Rule, ...] = _PROVIDER_RULES + _PUTTY_RULES + _HASH_RULES + _CMD_RULES + _HEADER_RULES
