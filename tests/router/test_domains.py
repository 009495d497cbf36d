from __future__ import annotations

import pytest

from artibot.errors import InvalidInput
from artibot.hookpath.router import DOMAIN_NAMES, DomainTable
from artibot.hookpath.router.domains import inflections, is_hangul

from . import shipped_document, shipped_table


def test_shipped_table_has_every_default_domain_in_both_languages():
    doc = shipped_document()
    assert doc["schema_version"] == 1
    assert set(doc["domains"]) == set(DOMAIN_NAMES)
    assert doc["domains"]["general"] == []
    for name in DOMAIN_NAMES:
        if name == "general":
            continue
        words = doc["domains"][name]
        assert 20 <= len(words) <= 60, name
        assert len(set(words)) == len(words), name
        assert any(is_hangul(w) for w in words), name
        assert any(w.isascii() for w in words), name
    assert shipped_table().names == tuple(doc["domains"])


@pytest.mark.parametrize("text, domain", [
    ("fix the typo in README.md", "docs"),
    ("center the button in the React component with CSS", "frontend"),
    ("add pagination to the users API endpoint", "backend"),
    ("patch the XSS vulnerability in the login form sanitizer", "security"),
    ("speed up the slow SQL query on the orders table", "data"),
    ("the Docker image fails in the CI pipeline", "devops"),
    ("the tests are flaky, add a pytest fixture", "testing"),
    ("보안 취약점을 점검해줘", "security"),
    ("리액트 컴포넌트에 버튼을 추가해줘", "frontend"),
    ("React를 최신 버전으로", "frontend"),
    ("도커 이미지를 빌드하고 쿠버네티스에 배포해줘", "devops"),
    ("데이터베이스의 쿼리가 느려", "data"),
    ("단위 테스트를 작성해줘", "testing"),
    ("리드미 문서를 정리해줘", "docs"),
    ("hello there", "general"),
    ("", "general"),
])
def test_classify(text, domain):
    assert shipped_table().classify(text) == domain


@pytest.mark.parametrize("text, absent", [
    ("write a guide for the build", "frontend"),  # ui in guide, build
    ("the capital of France", "backend"),  # api in capital
    ("pick the latest contest result", "testing"),  # test in latest, contest
    ("grant access to the class", "frontend"),  # css in access
    ("abcd efgh", "devops"),  # cd in abcd
    ("a rapid aside", "backend"),  # api in rapid
    ("paged attention in the stylesheet? no: restyled", "general"),
])
def test_no_substring_false_hits(text, absent):
    assert absent not in shipped_table().touched(text)


def test_keywords_in_identifiers_and_files_still_count():
    table = shipped_table()
    assert "security" in table.touched("rotate the api_key and password")
    assert "frontend" in table.touched("fix Button.tsx")
    assert "testing" in table.touched("tests/test_user.py fails")


def test_inflections_count_but_unrelated_words_do_not():
    assert inflections("test") >= {"test", "tests", "tested", "testing"}
    assert inflections("migrate") >= {"migrates", "migrated", "migrating"}
    assert inflections("query") >= {"queries", "queried"}
    assert inflections("format") >= {"formatted", "formatting"}
    assert inflections("ui") == {"ui", "uis"}
    table = DomainTable.from_mapping({"testing": ["test"], "data": ["query"]})
    assert table.touched("testing the queries") == ("testing", "data")
    assert table.touched("latest contest attestation") == ()


def test_korean_prefix_and_phrase_rules():
    table = DomainTable.from_mapping({"sec": ["보안"], "ren": ["이름 변경"]})
    assert table.classify("보안을 강화해줘") == "sec"
    assert table.classify("보안") == "sec"
    assert table.classify("정보안내") == "general"  # not at the start of the Hangul run
    assert table.classify("이름 변경") == "ren"
    assert table.classify("이름을 변경해줘") == "ren"
    assert table.classify("이름변경해줘") == "ren"
    assert table.classify("이름에서는 변경") == "general"  # more than a particle in between


def test_english_phrases_match_consecutive_tokens():
    table = DomainTable.from_mapping({"devops": ["ci cd"], "data": ["race condition"], "x": ["race"]})
    assert table.classify("set up CI/CD") == "devops"
    assert table.touched("a race-condition in the worker") == ("data",)  # the phrase consumes "race"
    assert table.touched("two race conditions") == ("data",)
    assert table.touched("race day") == ("x",)


def test_touched_is_ordered_by_hits_then_first_hit():
    table = DomainTable.from_mapping({"a": ["alpha"], "b": ["beta"], "c": ["gamma"]})
    assert table.touched("beta alpha beta") == ("b", "a")
    assert table.touched("gamma alpha") == ("c", "a")
    assert table.touched("nothing") == ()


def test_a_keyword_in_two_domains_counts_for_both():
    table = DomainTable.from_mapping({"a": ["shared"], "b": ["shared", "only"]})
    assert table.touched("shared only") == ("b", "a")


def test_placeholders_are_not_keywords():
    table = shipped_table()
    assert "security" not in table.touched("send <TOKEN> and <SECRET> to <EMAIL>")
    assert "security" in table.touched("rotate the token")


def test_extra_keywords_merge_over_the_shipped_table():
    shipped = shipped_document()["domains"]
    table = DomainTable.from_mapping(shipped, {"frontend": ["Figma", "react"], "mobile": ["iOS", "안드로이드"]})
    assert table.keywords["frontend"][-1] == "figma"
    assert table.keywords["frontend"].count("react") == 1
    assert table.classify("update the figma export") == "frontend"
    assert table.classify("iOS 앱") == "mobile"
    assert table.classify("안드로이드에서 크래시") == "mobile"
    assert "mobile" in table.names and table.names[-1] == "mobile"
    assert set(shipped) <= set(table.names)


@pytest.mark.parametrize("extra", [
    {"Bad Name": ["x"]},
    {"ok": "not-a-list"},
    {"ok": ["fine", "---"]},
    {"ok": [3]},
])
def test_bad_extra_keywords_are_rejected_with_the_reason(extra):
    with pytest.raises(InvalidInput) as info:
        DomainTable.from_mapping({"frontend": ["ui"]}, extra)
    assert "cognitive.router.domains" in str(info.value)


def test_from_json_checks_the_schema_version():
    with pytest.raises(InvalidInput, match="schema_version"):
        DomainTable.from_json({"schema_version": 2, "domains": {}})
    with pytest.raises(InvalidInput, match="domains"):
        DomainTable.from_json({"schema_version": 1, "domains": []})
    assert DomainTable.from_json({"schema_version": 1, "domains": {}}).classify("react") == "general"
