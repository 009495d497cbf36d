"""Anonymization of request text: secrets and personal data become typed placeholders.

``anonymize`` runs inside Claude Code hooks on every prompt, so it is pure stdlib ``re``
patterns (built through :mod:`artibot.hookpath.regex`, which the prompt hook gives the compiled
programs, so that it loads neither ``re`` nor compiles). Each rule has cheap substring
triggers; its pattern is compiled once per process, the first time a text contains a
trigger (compiling all of them up front would cost a hook twice its import budget: docs/benchmarks.md,
"Costs behind the code"). Patterns start with a literal or a character class so that ``re``
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

- Postman and ~30 other providers' keys, PuTTY private lines, password hashes
  (``<SECRET>``), passwords given on a command line (``mysql -pX``, ``sshpass -p``,
  ``docker login -p``...), header tokens anywhere in a line, and IBANs (``<IBAN>``, checked
  by length and mod 97). Secrets wrapped across lines, split into concatenated literals or
  base64-encoded are judged once joined back or decoded (see ``docs/privacy.md``).

Layout: ``rules`` holds the placeholders, ``Finding`` and the token and personal-data
patterns; ``more_rules`` the later token rules; ``disguise`` the wrapped, split and encoded
secrets; ``engine`` runs them, finds secret assignments and resolves overlaps.
"""

from __future__ import annotations

from . import engine, rules

__all__ = ["PLACEHOLDERS", "Finding", "anonymize", "anonymize_many", "anonymize_prefix", "find_secrets"]

PLACEHOLDERS = rules.PLACEHOLDERS
Finding = rules.Finding
anonymize = engine.anonymize
anonymize_prefix = engine.anonymize_prefix
anonymize_many = engine.anonymize_many
find_secrets = engine.find_secrets

# The tables behind the public names, still importable from here as before the split.
_PLACEHOLDER_OF, _TOKEN_RULES, _PII_RULES = rules._PLACEHOLDER_OF, rules._TOKEN_RULES, rules._PII_RULES

# ``doctest.testmod(artibot.hookpath.privacy)`` only collects functions defined in this module;
# this keeps the examples of the re-exported ones running.
__test__ = {"find_secrets": find_secrets, "anonymize": anonymize, "anonymize_prefix": anonymize_prefix,
            "anonymize_many": anonymize_many}
