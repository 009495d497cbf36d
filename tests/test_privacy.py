"""artibot.hookpath.privacy: typed placeholders for secrets and personal data, nothing else touched.

Fake secrets are assembled from pieces at run time (``"gh" + "p_" + ...``) so that secret
scanners do not flag this repository; they are format-valid, not real.
"""

from __future__ import annotations

import ast
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import artibot.hookpath.privacy as privacy
from artibot.hookpath.privacy import PLACEHOLDERS, Finding, anonymize, find_secrets

DATA = Path(__file__).parent / "data" / "privacy"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_rng = random.Random(20240501)


def fake(n: int, alphabet: str = _ALNUM) -> str:
    """``n`` random characters from ``alphabet``, surely holding a digit and a letter."""
    body = "".join(_rng.choice(alphabet) for _ in range(n - 2))
    return body + _rng.choice("0123456789") + _rng.choice([c for c in alphabet if c.isalpha()])


HEX = "0123456789abcdef"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B64 = _ALNUM + "+/"
PEM_BODY = "\n".join(fake(64, B64) for _ in range(4))
AKIA = "AK" + "IA" + fake(16, B32).upper()[:16]
ASIA = "AS" + "IA" + fake(16, B32).upper()[:16]
GHP = "gh" + "p_" + fake(36)
URLSAFE = _ALNUM + "_-"
JWT = "ey" + "J" + fake(20, URLSAFE) + ".ey" + "J" + fake(30, URLSAFE) + "." + fake(43, URLSAFE)

# (placeholder, text, secret that must disappear)
POSITIVE: list[tuple[str, str, str]] = [
    # AWS
    ("<API_KEY>", f"aws_access_key_id = {AKIA}", AKIA),
    ("<API_KEY>", f"export AWS_ACCESS_KEY_ID={ASIA}", ASIA),
    ("<API_KEY>", f"the key {AKIA} leaked in CI logs", AKIA),
    ("<SECRET>", "aws_secret_access_key = " + (s := fake(40, B64)), s),
    ("<SECRET>", "AWS_SECRET_ACCESS_KEY=" + (s := fake(40, B64)), s),
    # Google / GCP
    ("<API_KEY>", "const key = 'AI" + "za" + (s := fake(35, _ALNUM + "_-")) + "';", s),
    ("<API_KEY>", "https://maps.googleapis.com/maps/api/js?key=AI" + "za" + (s := fake(35)), s),
    ("<PRIVATE_KEY>", '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
     + PEM_BODY.replace("\n", "\\n") + '\\n-----END PRIVATE KEY-----\\n"}', PEM_BODY.split("\n")[1]),
    ("<SECRET>", '{"private_key_id": "' + (s := fake(40, HEX)) + '", "type": "service_account"}', s),
    # Azure
    ("<SECRET>", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + (s := fake(86, B64) + "==")
     + ";EndpointSuffix=core.windows.net", s),
    ("<SECRET>", "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey="
     + (s := fake(43, B64) + "="), s),
    ("<SECRET>", "https://acme.blob.core.windows.net/b.txt?sv=2022-11-02&sig=" + (s := fake(30) + "%3D"), s),
    ("<API_KEY>", "client_secret: " + (s := "bP8" + "8Q~" + fake(34, _ALNUM + "_.")), s[5:]),
    # GitHub
    ("<API_KEY>", f"git remote set-url origin https://{GHP}@github.com/acme/app.git", GHP),
    ("<API_KEY>", "GITHUB_TOKEN=" + (s := "gh" + "o_" + fake(36)), s),
    ("<API_KEY>", "token: " + (s := "gh" + "s_" + fake(36)), s),
    ("<API_KEY>", "refresh with " + (s := "gh" + "r_" + fake(36)), s),
    ("<API_KEY>", "user token " + (s := "gh" + "u_" + fake(36)), s),
    ("<API_KEY>", "pat = '" + (s := "github" + "_pat_" + fake(22) + "_" + fake(59)) + "'", s),
    # GitLab
    ("<API_KEY>", "CI_TOKEN=" + (s := "gl" + "pat-" + fake(20, _ALNUM + "_-")), s),
    ("<API_KEY>", "use " + (s := "gl" + "pat-" + fake(20)) + " for the API", s),
    # Slack
    ("<API_KEY>", "SLACK_BOT_TOKEN=" + (s := "xo" + "xb-" + "1234567890123-1234567890123-" + fake(24)), s),
    ("<API_KEY>", "token " + (s := "xo" + "xp-" + "1234567890-1234567890-1234567890-" + fake(32)), s),
    ("<API_KEY>", "app token " + (s := "xa" + "pp-1-A0123456789-1234567890123-" + fake(64, HEX)), s),
    ("<TOKEN>", "curl -X POST https://hooks.slack.com/services/" + (s := "T0" + fake(8).upper() + "/B0"
     + fake(8).upper() + "/" + fake(24)), s),
    # Discord
    ("<API_KEY>", "DISCORD_TOKEN=" + (s := "MT" + fake(24) + "." + fake(6) + "." + fake(38, URLSAFE)), s),
    ("<API_KEY>", "bot.run('" + (s := "OD" + fake(24) + "." + fake(6) + "." + fake(27)) + "')", s),
    ("<TOKEN>", "https://discord.com/api/webhooks/123456789012345678/" + (s := fake(68, _ALNUM + "_-")), s),
    # Telegram
    ("<API_KEY>", "bot = Bot('" + (s := "123456789:AA" + fake(33, _ALNUM + "_-")) + "')", s),
    ("<API_KEY>", "TELEGRAM=" + (s := "5555555555:AA" + fake(33)), s),
    # OpenAI / Anthropic / Hugging Face
    ("<API_KEY>", "OPENAI_API_KEY=" + (s := "sk-" + fake(48)), s),
    ("<API_KEY>", "client = OpenAI(api_key='" + (s := "sk-" + "proj-" + fake(120, _ALNUM + "_-")) + "')", s),
    ("<API_KEY>", "here is my key " + (s := "sk-" + fake(48)) + " please test", s),
    ("<API_KEY>", "ANTHROPIC_API_KEY=" + (s := "sk-" + "ant-api03-" + fake(93, _ALNUM + "_-") + "AA"), s),
    ("<API_KEY>", "Anthropic(api_key=\"" + (s := "sk-" + "ant-" + fake(40)) + "\")", s),
    ("<API_KEY>", "huggingface-cli login --token " + (s := "hf" + "_" + fake(34)), s),
    ("<API_KEY>", "HF_TOKEN=" + (s := "hf" + "_" + fake(34)), s),
    # Stripe
    ("<API_KEY>", "stripe.api_key = '" + (s := "sk" + "_live_" + fake(24)) + "'", s),
    ("<API_KEY>", "restricted " + (s := "rk" + "_live_" + fake(24)), s),
    ("<API_KEY>", "publishable " + (s := "pk" + "_live_" + fake(24)), s),
    ("<API_KEY>", "STRIPE_SECRET=" + (s := "sk" + "_test_" + fake(24)), s),
    # Twilio / SendGrid / npm / PyPI
    ("<API_KEY>", "account_sid = '" + (s := "A" + "C" + fake(32, HEX)) + "'", s),
    ("<API_KEY>", "api key sid " + (s := "S" + "K" + fake(32, HEX)), s),
    ("<API_KEY>", "SENDGRID_API_KEY=" + (s := "S" + "G." + fake(22, _ALNUM + "_-") + "." + fake(43)), s),
    ("<API_KEY>", "sg = SendGridAPIClient('" + (s := "S" + "G." + fake(22) + "." + fake(43)) + "')", s),
    ("<API_KEY>", "//registry.npmjs.org/:_authToken=" + (s := "np" + "m_" + fake(36)), s),
    ("<API_KEY>", "NPM_TOKEN=" + (s := "np" + "m_" + fake(36)), s),
    ("<API_KEY>", "password = " + (s := "py" + "pi-AgEIcHlwaS5vcmc" + fake(70, _ALNUM + "_-")), s),
    ("<API_KEY>", "twine upload -p " + (s := "py" + "pi-AgEIcHlwaS5vcmc" + fake(60)), s),
    # JWT, Bearer, Basic
    ("<JWT>", f"Authorization: Bearer {JWT}", JWT),
    ("<JWT>", f"the id_token was {JWT}.", JWT),
    ("<JWT>", f"document.cookie = 'session={JWT}'", JWT),
    ("<TOKEN>", "curl -H 'Authorization: Bearer " + (s := fake(40, _ALNUM + "-._~")) + "' https://x.io", s),
    ("<TOKEN>", "headers = {'Authorization': 'Basic " + (s := "dXNlcjpw" + fake(16, B64) + "==") + "'}", s),
    ("<TOKEN>", "Authorization: token " + (s := fake(40, HEX)), s),
    ("<TOKEN>", "send Bearer " + (s := fake(32)) + " with each call", s),
    # PEM private keys
    ("<PRIVATE_KEY>", "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----",
     PEM_BODY.split("\n")[0]),
    ("<PRIVATE_KEY>", "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + PEM_BODY
     + "\n-----END OPENSSH PRIVATE KEY-----\nthanks", PEM_BODY.split("\n")[2]),
    ("<PRIVATE_KEY>", "-----BEGIN EC PRIVATE KEY-----\n" + PEM_BODY + "\n(truncated)",
     PEM_BODY.split("\n")[3]),
    # URL credentials, curl -u
    ("<CREDENTIALS>", "DATABASE_URL=postgres://app:" + (s := fake(16)) + "@db.internal:5432/prod", s),
    ("<CREDENTIALS>", "redis://:" + (s := fake(20)) + "@cache.example.com:6379/0", s),
    ("<CREDENTIALS>", "pip install -i https://deploy:" + (s := fake(12)) + "@pypi.acme.io/simple x", s),
    ("<CREDENTIALS>", "curl -u alice:" + (s := fake(12)) + " https://api.example.com", s),
    # assignments: the value goes, the key stays
    ("<PASSWORD>", 'password = "' + (s := "correct-Horse-7") + '"', s),
    ("<PASSWORD>", "DB_PASSWORD=" + (s := "s3cr3t!Pa55") + "\nDB_HOST=db", s),
    ("<PASSWORD>", "passwd: " + (s := "hunter22") + "\n", s),
    ("<PASSWORD>", "mysql -u root --password=" + (s := "r00tPw!") + " app", s),
    ("<PASSWORD>", "psql --password " + (s := "Pg-pass-9") + " -h db", s),
    ("<PASSWORD>", "  password: " + (s := "changeme") + "\n  user: admin", s),
    ("<PASSWORD>", '{"username": "bob", "password": "' + (s := "Tr0ub4dor&3") + '"}', s),
    ("<PASSWORD>", "**Password**: " + (s := "Winter2024!"), s),
    ("<PASSWORD>", "비밀번호: " + (s := "qwer1234!") + " 입니다", s),
    ("<PASSWORD>", "const dbPassword = '" + (s := "p@ssW0rd") + "';", s),
    ("<SECRET>", "secret = '" + (s := fake(32, HEX)) + "'", s),
    ("<SECRET>", "SECRET_KEY = \"" + (s := "django-insecure-" + fake(40)) + "\"", s),
    ("<SECRET>", "api_key: \"" + (s := fake(32)) + "\"", s),
    ("<SECRET>", "callback?token=" + (s := fake(24)) + "&state=ok", s),
    ("<SECRET>", "export API_TOKEN=" + (s := "abcDEF" + fake(10)), s),
    ("<SECRET>", "client_secret = " + (s := fake(30)), s),
    ("<SECRET>", "  token: " + (s := "a3f9c2e1b7d4") + "\n", s),
    # emails
    ("<EMAIL>", "contact alice.smith+work@example.co.kr for access", "alice.smith+work@example.co.kr"),
    ("<EMAIL>", "Co-authored-by: Bob <bob_92@mail.example.com>", "bob_92@mail.example.com"),
    ("<EMAIL>", '"client_email": "svc@acme.iam.gserviceaccount.com"', "svc@acme.iam.gserviceaccount.com"),
    # phones
    ("<PHONE>", "call +1 (415) 555-0132 tomorrow", "415) 555-0132"),
    ("<PHONE>", "US office: (212) 555-0187", "555-0187"),
    ("<PHONE>", "fax 415-555-0199.", "415-555-0199"),
    ("<PHONE>", "phone +44 20 7946 0958", "7946 0958"),
    ("<PHONE>", "내 번호는 010-1234-5678 이에요", "010-1234-5678"),
    ("<PHONE>", "연락처 01098765432", "01098765432"),
    ("<PHONE>", "mobile +82 10-1234-5678", "10-1234-5678"),
    ("<PHONE>", "사무실 02-123-4567, 지사 031-987-6543", "02-123-4567"),
    ("<PHONE>", "사무실 02-123-4567, 지사 031-987-6543", "031-987-6543"),
    ("<PHONE>", "tel +82-2-3456-7890", "3456-7890"),
    # IPs
    ("<IP>", "ssh ubuntu@203.0.113.45 -p 22", "203.0.113.45"),
    ("<IP>", "the DB is at 10.12.0.7:5432", "10.12.0.7"),
    ("<IP>", "allow 192.168.1.20/32", "192.168.1.20"),
    ("<IP>", "server 2001:db8:85a3::8a2e:370:7334 answered", "2001:db8:85a3::8a2e:370:7334"),
    ("<IP>", "link-local fe80::1ff:fe23:4567:890a%eth0", "fe80::1ff:fe23:4567:890a"),
    ("<IP>", "full 2001:0db8:0000:0000:0000:ff00:0042:8329 form", "2001:0db8:0000:0000:0000:ff00:0042:8329"),
    ("<IP>", "mapped ::ffff:198.51.100.7 address", "198.51.100.7"),
    # home paths
    ("<HOME>", "File \"/home/alice/projects/app/main.py\", line 3", "alice"),
    ("<HOME>", "open /Users/bob.smith/Desktop/notes.txt", "bob.smith"),
    ("<HOME>", r"C:\Users\carol\AppData\Local\Temp", "carol"),
    ("<HOME>", r'"C:\\Users\\dave\\Documents\\x.json"', "dave"),
    ("<HOME>", r"C:\Users\Erin Fox\Desktop\a.txt", "Erin Fox"),
    ("<HOME>", "cd /mnt/c/Users/frank/code", "frank"),
    ("<HOME>", "ls ~grace/projects", "grace"),
    # cards
    ("<CARD>", "card 4111 1111 1111 1111 exp 12/26", "4111 1111 1111 1111"),
    ("<CARD>", "charged 5555-5555-5555-4444", "5555-5555-5555-4444"),
    ("<CARD>", "amex 378282246310005", "378282246310005"),
]


def test_positive_corpus_has_no_miss() -> None:
    misses = []
    for placeholder, text, secret in POSITIVE:
        out = anonymize(text)
        if secret in out or placeholder not in out:
            misses.append((placeholder, out))
    assert misses == [], f"{len(misses)} of {len(POSITIVE)} missed"


def _review_corpus() -> list[tuple[str, str, str]]:
    """``secrets.tsv``: the kinds the data-safety review found stored, as (placeholder, text, secret)."""
    out = []
    for line in (DATA / "secrets.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            placeholder, secret, text = line.split("\t")
            out.append((placeholder, text, secret))
    return out


REVIEW = _review_corpus()


def test_review_corpus_has_no_miss() -> None:
    misses = [(text, anonymize(text)) for placeholder, text, secret in REVIEW
              if secret in anonymize(text) or placeholder not in anonymize(text)]
    assert misses == [], f"{len(misses)} of {len(REVIEW)} missed"


def test_review_corpus_has_every_kind_the_review_named() -> None:
    texts = " ".join(text for _, text, _ in REVIEW)
    for kind in ("my password is", "password for the db is", "PGPASSWORD=", "MYSQL_PWD=", "비밀번호:", "비밀번호는",
                 '"wJalr', "SSN", "주민등록번호"):
        assert kind in texts, kind
    assert sum(p == "<NATIONAL_ID>" for p, _, _ in REVIEW) >= 6


def test_positive_corpus_covers_every_placeholder() -> None:
    corpus = POSITIVE + REVIEW
    covered = {p for p, _, _ in corpus}
    assert covered == set(PLACEHOLDERS)
    for placeholder in PLACEHOLDERS:
        assert sum(p == placeholder for p, _, _ in corpus) >= 3, placeholder


@pytest.mark.parametrize("text", [
    "SSN 000-12-3456", "SSN 666-12-3456", "SSN 900-12-3456", "SSN 123-00-4567", "SSN 123-45-0000",
    "rrn 900101-1234567",  # wrong check digit, no 주민 nearby
    "rrn 901301-1234568",  # month 13
    "id 1900101-1234568",  # seven digits before the dash
])
def test_national_ids_keep_their_check_rules(text: str) -> None:
    assert anonymize(text) == text


def test_corpus_figures(capsys) -> None:
    """Secrets caught and false positives per 10 KB, the figures the README quotes (-s shows them)."""
    caught = sum(secret not in anonymize(text) for _, text, secret in POSITIVE + REVIEW)
    negative = "\n".join(NEGATIVE)
    false = len(find_secrets(negative))
    with capsys.disabled():
        print(f"\nsecrets caught: {caught} of {len(POSITIVE) + len(REVIEW)}; false positives: {false} in "
              f"{len(negative.encode()) / 1024:.1f} KB of ordinary code and prose "
              f"({false / len(negative.encode()) * 10240:.2f} per 10 KB)")
    assert caught == len(POSITIVE) + len(REVIEW) and false == 0


@pytest.mark.parametrize(("text", "expected"), [
    ('password = "hunter22"', 'password = "<PASSWORD>"'),
    ("DB_PASSWORD=hunter22 ./run.sh", "DB_PASSWORD=<PASSWORD> ./run.sh"),
    ("postgres://app:pw1234@db:5432/x", "postgres://<CREDENTIALS>@db:5432/x"),
    ("/home/alice/src/app.py:12", "<HOME>/src/app.py:12"),
    (r"C:\Users\carol\Documents", r"<HOME>\Documents"),
    ("mail me: a.b@example.com.", "mail me: <EMAIL>."),
    ("api_key: 'k-" + "9f8e7d6c5b4a'", "api_key: '<SECRET>'"),
    ("Bearer " + "abcDEF123456ghiJKL", "Bearer <TOKEN>"),
    ("ssh git@github.com:org/repo.git", "ssh git@github.com:org/repo.git"),
])
def test_exact_output_keeps_context(text: str, expected: str) -> None:
    assert anonymize(text) == expected


def _negative_lines() -> list[str]:
    lines = (DATA / "negative.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("# ")]


NEGATIVE = _negative_lines()


def test_negative_corpus_is_large_enough() -> None:
    assert len(NEGATIVE) >= 60


def test_negative_corpus_has_no_false_positive() -> None:
    changed = [(line, anonymize(line)) for line in NEGATIVE if anonymize(line) != line]
    assert changed == [], f"{len(changed)} false positives in {len(NEGATIVE)} lines"


def test_negative_corpus_as_one_text_has_no_false_positive() -> None:
    text = "\n".join(NEGATIVE)
    false_positives = [text[f.start:f.end] for f in find_secrets(text)]
    assert false_positives == []


@pytest.mark.parametrize("text", [
    " ".join(PLACEHOLDERS),
    'password = "<PASSWORD>" and token: <SECRET>',
    "DB_PASSWORD=<PASSWORD>\nexport API_TOKEN=<SECRET>",
    "https://<CREDENTIALS>@db.example.com/x and Bearer <TOKEN>",
    "<HOME>/src and <HOME>\\Documents and <EMAIL> and <IP>:22",
    '"private_key": "<PRIVATE_KEY>\\n"',
])
def test_placeholders_are_never_matched(text: str) -> None:
    assert find_secrets(text) == []


def test_find_secrets_describes_what_anonymize_replaces() -> None:
    text = "\n".join(t for _, t, _ in POSITIVE)
    findings = find_secrets(text)
    assert findings == sorted(findings, key=lambda f: f.start)
    assert all(a.end <= b.start for a, b in zip(findings, findings[1:]))
    rebuilt, pos = [], 0
    for f in findings:
        assert f.placeholder in PLACEHOLDERS
        rebuilt += [text[pos:f.start], f.placeholder]
        pos = f.end
    assert "".join(rebuilt) + text[pos:] == anonymize(text)


def test_finding_is_a_frozen_record() -> None:
    finding = Finding("email", 0, 5)
    assert list(Finding.__match_args__) == ["kind", "start", "end"]
    assert finding == Finding("email", 0, 5) and hash(finding) == hash(Finding("email", 0, 5))
    with pytest.raises(AttributeError):
        finding.start = 1  # type: ignore[misc]


def test_every_kind_has_a_placeholder_in_the_public_tuple() -> None:
    assert set(privacy._PLACEHOLDER_OF.values()) == set(PLACEHOLDERS)
    kinds = {r.kind for r in privacy._TOKEN_RULES + privacy._PII_RULES if r.kind} | {"password", "secret"}
    kinds |= {"ip", "card", "phone"}  # the shared digit scan names its kind by group
    assert kinds <= set(privacy._PLACEHOLDER_OF)


def test_module_uses_the_standard_library_only() -> None:
    tree = ast.parse(Path(privacy.__file__).read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= {"__future__", "re", "bisect", "collections", "dataclasses"}


def test_a_2kb_prompt_takes_well_under_the_budget() -> None:
    text = ("\n".join(NEGATIVE) + "\n" + "\n".join(t for _, t, _ in POSITIVE))[:2048]
    anonymize(text)  # patterns compile on first use
    best = min(_timed(anonymize, text) for _ in range(5))
    assert best < 0.005  # the target is 1 ms; 5x slack for loaded CI machines


def _timed(fn, arg) -> float:
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


_PATHOLOGICAL = {
    "assignments": "password=" * 1500, "open quotes": 'password="' * 1500, "jwt prefixes": "eyJ" * 5000,
    "pem headers": "-----BEGIN RSA PRIVATE KEY-----\n" * 400, "digits": "1" * 15000, "colons": ":" * 15000,
    "at signs": "a@" * 7000, "windows homes": "C:\\Users\\" * 1500, "flag words": "token " * 2500,
    "sk prefixes": "sk-" * 5000,
}


@pytest.mark.parametrize("text", _PATHOLOGICAL.values(), ids=_PATHOLOGICAL.keys())
def test_pathological_inputs_stay_linear(text: str) -> None:
    assert _timed(anonymize, text) < 1.0  # ~15 KB each; quadratic scans took seconds


# --- properties

_SECRET_TEXTS = [t for _, t, _ in POSITIVE]
_fragments = st.one_of(
    st.sampled_from(_SECRET_TEXTS),
    st.sampled_from(NEGATIVE),
    st.text(max_size=30),
    st.text(alphabet="abcAZ019 :=@./-_\"'\n<>~\\+()", max_size=30),
    st.sampled_from(PLACEHOLDERS),
)
_glued = st.lists(_fragments, max_size=6).map("".join)
_lines = st.lists(_fragments, max_size=6).map("\n".join)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_glued)
def test_anonymize_is_idempotent(text: str) -> None:
    once = anonymize(text)
    assert anonymize(once) == once


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_anonymize_never_raises_and_is_idempotent_on_any_text(text: str) -> None:
    once = anonymize(text)
    assert isinstance(once, str)
    assert anonymize(once) == once


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lines)
def test_detected_secrets_do_not_survive(text: str) -> None:
    out = anonymize(text)
    for f in find_secrets(text):
        original = text[f.start:f.end]
        if len(original) >= 12:  # shorter values may occur elsewhere in the text by chance
            assert original not in out


_PLAIN_CHARS = list("abcdefghijklmnopqrstuvwxyz .,!?'\"()\n") + list("가나다라비밀번호토큰")
_PLAIN = st.text(alphabet=st.sampled_from(_PLAIN_CHARS), max_size=200)


@settings(max_examples=100, deadline=None)
@given(_PLAIN)
def test_text_without_digits_symbols_or_capitals_is_unchanged(text: str) -> None:
    # every rule needs a digit, a capital, or one of = : @ / \ ~ - _ to fire
    assert anonymize(text) == text


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200), st.sampled_from(_SECRET_TEXTS))
def test_surrounding_text_does_not_change_a_secret_line(noise: str, line: str) -> None:
    assert anonymize(line) in anonymize(f"{noise}\n{line}\n{noise}")


def test_docstring_examples_run() -> None:
    import doctest

    assert doctest.testmod(privacy).failed == 0


def test_anonymize_many_equals_one_by_one_on_the_corpora() -> None:
    texts = [text for _, text, _ in POSITIVE + REVIEW] + NEGATIVE
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(texts)
        assert privacy.anonymize_many(texts) == [anonymize(t) for t in texts]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(alphabet=st.sampled_from("ab1@.-: =\n\x00/ek밀비번호PASSWORDpass"), max_size=40), max_size=12))
def test_anonymize_many_equals_one_by_one_on_any_texts(texts: list[str]) -> None:
    assert privacy.anonymize_many(texts) == [anonymize(t) for t in texts]


# --- the secrets table: dev.tsv (the rules were tuned on it) and heldout.tsv (written
# before those rules, in its own commit, and not used to tune them)

def _bench():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_privacy", Path(__file__).parents[1] / "scripts" / "bench_privacy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
DEV = BENCH.load_cases(DATA / "dev.tsv")
HELDOUT = BENCH.load_cases(DATA / "heldout.tsv")
HELDOUT_FLOOR = 0.95
"""Held-out recall may not fall below this (99 of 100 when the rules were written)."""


def test_dev_corpus_has_no_miss() -> None:
    misses = [(kind, anonymize(text)) for kind, parts, text in DEV if not BENCH.caught(parts, text)]
    assert misses == [], f"{len(misses)} of {len(DEV)} missed"


def test_heldout_recall_stays_above_its_floor() -> None:
    table = BENCH.recall_by_kind(HELDOUT)
    caught = sum(hit for hit, _ in table.values())
    assert caught / len(HELDOUT) >= HELDOUT_FLOOR, table
    assert all(hit / total >= 0.8 for hit, total in table.values()), table


def test_corpora_cover_the_kinds_named() -> None:
    kinds = {"twilio", "postman", "putty", "cmdline_password", "wrapped", "concatenated", "base64", "password_hash",
             "iban", "header_token"}
    for cases in (DEV, HELDOUT):
        present = {kind for kind, _, _ in cases}
        assert kinds <= present, kinds - present
    assert len(HELDOUT) >= 60


def test_harmless_text_gets_no_placeholder() -> None:
    for name, text in BENCH.harmless_texts().items():
        found = [text[f.start:f.end] for f in find_secrets(text)]
        assert found == [], name


@pytest.mark.parametrize(("text", "expected"), [
    ("mysql -u root -pKx7!pLq2Zr shop", "mysql -u root -p<PASSWORD> shop"),
    ("mysql -u root -p shop", "mysql -u root -p shop"),  # -p alone prompts; ``shop`` is the database
    ("docker run -p 8080:80 nginx", "docker run -p 8080:80 nginx"),
    ("sshpass -p 'Tz9vWq4Lm' ssh web1", "sshpass -p '<PASSWORD>' ssh web1"),
    ("Use $2b$ hashes, cost 12.", "Use $2b$ hashes, cost 12."),
    ("IBAN DE44 5001 0517 5407 3249 31.", "IBAN <IBAN>."),
    ("IBAN DE45 5001 0517 5407 3249 31", "IBAN DE45 5001 0517 5407 3249 31"),  # the check digits fail
    ("please help with this: X-Api-Key: 9f8e7d6c5b4a39281706f5e4", "please help with this: X-Api-Key: <TOKEN>"),
    ('key = "sk-proj-' + 'Ab3dE" + "fGh1jKlMn0pQrStUvWx"', 'key = "<API_KEY>"'),
    ('{"auths": {"r.io": {"auth": "Ym90OnMzY3JldFBhc3M="}}}', '{"auths": {"r.io": {"auth": "<CREDENTIALS>"}}}'),
    ("ls\nAPI_KEY=aB3dE5fG7hJ9kL1mN3pQ\nR5sT7uV9wX\nDEBUG=1", "ls\nAPI_KEY=<SECRET>\nDEBUG=1"),
])
def test_disguised_and_command_line_secrets(text: str, expected: str) -> None:
    assert anonymize(text) == expected


def test_base64_prefixes_are_what_the_plain_prefixes_encode_to() -> None:
    import base64

    from artibot.hookpath.privacy import disguise

    assert len(disguise._B64_PREFIXES) == len(disguise.B64_PLAIN_PREFIXES)
    for plain, encoded in zip(disguise.B64_PLAIN_PREFIXES, disguise._B64_PREFIXES):
        assert base64.b64encode(plain.encode()).decode().startswith(encoded), plain


def test_every_match_of_a_rule_holds_its_family() -> None:
    """A rule's gates are skipped when its family string is absent: that must never hide a match."""
    from artibot.hookpath.privacy import engine

    texts = [t for _, t, _ in POSITIVE + REVIEW] + [t for _, _, t in DEV + HELDOUT]
    for rule in engine._TOKEN_GATES.rank:
        if rule.family:
            for text in texts:
                for m in rule.regex.finditer(text):
                    assert rule.family in m.group(), (rule.family, m.group())


@pytest.mark.parametrize("text", [t for _, _, t in DEV + HELDOUT])
def test_anonymize_is_idempotent_on_disguised_secrets(text: str) -> None:
    once = anonymize(text)
    assert anonymize(once) == once


def test_a_placeholder_that_opens_a_word_boundary_is_scanned_again() -> None:
    # found by the idempotence property: the card number glued to ``secret = '…'`` hid the
    # assignment until the card became a placeholder
    text = "charged 5555-5555-5555-4444secret = 'hunter2hunter2'"
    once = anonymize(text)
    assert "hunter2" not in once
    assert anonymize(once) == once


@given(st.lists(st.integers(-50, 50)), st.integers(-60, 60))
def test_the_claims_bisection_is_the_standard_librarys(values: list[int], x: int) -> None:
    import bisect

    from artibot.hookpath.privacy.gates import bisect_left

    values.sort()
    assert bisect_left(values, x) == bisect.bisect_left(values, x)
