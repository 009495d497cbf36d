from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.hookpath.router import pattern_key

SAME_TASK = [
    ("fix the typo in README.md", "Fix typo in docs/intro.md", "Please correct the typos in the README",
     "README.md의 오타를 고쳐줘", "README 오타 수정해줘"),
    ("add tests for the login API", "Add a test for the login api", "로그인 API에 테스트를 추가해줘"),
    ("rename getUser to fetchUser", "Rename foo_bar to baz_qux", "rename `a` to `b`"),
    ("change the name of the variable", "rename the variable", "변수 이름을 변경해줘", "변수 이름 바꿔줘"),
    ("change the color of the Button.tsx component", "Button.tsx 컴포넌트의 색상을 바꿔줘",
     "modify the colour of Card.tsx component"),
    ("fix the failing test in tests/test_auth.py", "Fix failing tests in test_user.py"),
    ("bump the version in pyproject.toml to 2.0.1", "Bump version in setup.cfg to 3.1"),
    ("delete the unused imports", "remove unused imports", "Remove the unused import"),
    ("fix issue 123", "fix issue #4567"),
    ('replace "foo" with "bar"', "replace 'x' with 'y'", "replace “a” with “b”"),
]

DIFFERENT_TASKS = [
    "fix the typo in README.md",
    "add a typo checker to the CI",
    "fix the typo in main.py",
    "add tests for the login API",
    "remove tests for the login API",
    "rename the variable",
    "explain the variable",
    "update the changelog",
    "update package.json",
    "delete the unused imports",
    "migrate the database to postgres",
    "write a tutorial",
]


@pytest.mark.parametrize("phrasings", SAME_TASK, ids=lambda p: p[0])
def test_phrasings_of_one_task_share_a_key(phrasings):
    keys = {pattern_key(text, "general") for text in phrasings}
    assert len(keys) == 1, keys
    assert None not in keys


def test_different_tasks_have_different_keys():
    keys = [pattern_key(text, "general") for text in DIFFERENT_TASKS]
    assert len(set(keys)) == len(keys), keys


def test_the_documented_examples():
    assert pattern_key("fix the typo in README.md", "docs") == "docs:fix:doc+typo"
    assert pattern_key("Fix typo in docs/intro.md", "docs") == "docs:fix:doc+typo"
    assert pattern_key("삭제해줘", "general") == "general:remove"
    assert pattern_key("typo", "docs") == "docs:do:typo"


def test_the_domain_is_part_of_the_key():
    assert pattern_key("fix the typo", "docs") != pattern_key("fix the typo", "frontend")
    assert pattern_key("fix the typo", "frontend").startswith("frontend:fix")


@pytest.mark.parametrize("a, b", [
    ("email <EMAIL> about the bug", "email bob@example.com about the bug"),
    ("rotate the <TOKEN> in the config", "rotate the <API_KEY> in the config"),
    ("open <HOME>/src/app.py", "open <HOME>/lib/other.py"),
    ("call <PHONE> about the outage", "call <PHONE> about the outage at <IP>"),
    ("see https://example.com/a for the fix", "see http://x.org/b?c=1 for the fix"),
])
def test_anonymized_details_do_not_change_the_key(a, b):
    assert pattern_key(a, "general") == pattern_key(b, "general")


def test_apostrophes_are_not_quotes():
    # a quote regex that took "'t remove the comment, it'" for a quoted string would drop it
    assert pattern_key("don't remove the comment, it's needed", "general") == "general:remove:comment"


@pytest.mark.parametrize("text", ["", "   ", "123 456", "<EMAIL>", "thanks!", "please", "좀 해줘", "`x = 1`"])
def test_no_key_without_content_words(text):
    assert pattern_key(text, "general") is None


def test_long_requests_get_a_short_hashed_key():
    text = ("Migrate the user database schema to the new architecture, then update the API and the React "
            "frontend, and deploy to production with a rollback plan.")
    key = pattern_key(text, "data")
    assert re.fullmatch(r"data:migrate:[a-z]+(\+[a-z]+){3}\+~[0-9a-f]{6}", key)
    assert pattern_key(text.upper(), "data") == key
    assert pattern_key(text.replace("rollback", "recovery"), "data") != key


KEY = re.compile(r"[^\s:]+:[^\s:]+(:[^\s:]+)?")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=2000))
def test_pattern_key_never_raises_and_is_well_formed(text):
    key = pattern_key(text, "general")
    assert key is None or (KEY.fullmatch(key) and len(key) < 120)
    assert pattern_key(text, "general") == key
