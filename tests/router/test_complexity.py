from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.hookpath.router import score
from artibot.hookpath.router.complexity import BIAS, WEIGHTS, list_items, sentence_count

from . import shipped_table


def scored(text: str) -> float:
    """The score as the policy computes it: domains touched counted by the shipped table."""
    return score(text, max(1, len(shipped_table().touched(text)))).score


EXAMPLES = {
    "en": {
        "routine": [
            "fix the typo in README.md",
            "rename the variable usr to user",
            "format this file with black",
            "fix the lint warnings in utils.py",
            "add a comment explaining the regex",
        ],
        "moderate": [
            "add a dark mode toggle to the settings page",
            "add pagination to the users API endpoint",
            "write unit tests for the date parser",
            "add an index on the orders table to speed up the report query",
            "show a loading spinner while the profile component fetches data",
        ],
        "complex": [
            "Migrate the user database schema to the new architecture, then update the API and "
            "the React frontend, and deploy to production with a rollback plan.",
            "The checkout sometimes fails in production and I'm not sure why; maybe a race condition "
            "between the payment worker and the cache. Investigate and propose a fix.",
            "Refactor the authentication service to use OAuth, migrate existing sessions, update the "
            "security tests and deploy it without downtime.",
            "1. design a new event-driven architecture for notifications\n2. migrate the queue to Kafka\n"
            "3. update the backend services\n4. roll it out to production",
            "Figure out why the memory usage keeps growing after the last deploy, then fix the leak "
            "and add monitoring so it doesn't happen again.",
        ],
    },
    "ko": {
        "routine": [
            "README 오타 수정해줘",
            "변수 이름 변경해줘",
            "이 파일 포맷 맞춰줘",
            "주석 추가해줘",
            "린트 경고 고쳐줘",
        ],
        "moderate": [
            "설정 페이지에 다크 모드 토글을 추가해줘",
            "사용자 API 엔드포인트에 페이지네이션을 추가해줘",
            "날짜 파서에 대한 단위 테스트를 작성해줘",
            "주문 테이블 조회 쿼리를 빠르게 해줘",
            "프로필 컴포넌트에 로딩 스피너를 보여줘",
        ],
        "complex": [
            "사용자 데이터베이스 스키마를 새 아키텍처로 마이그레이션하고, 그다음 API와 리액트 프론트엔드를 "
            "수정한 뒤 운영 환경에 배포해줘. 롤백 계획도 세워줘.",
            "운영 환경에서 결제가 가끔 실패하는데 왜 그런지 모르겠어. 결제 워커와 캐시 사이의 경쟁 조건일 수도 "
            "있어. 원인을 조사하고 수정 방안을 제안해줘.",
            "인증 서비스를 OAuth 방식으로 리팩터링하고 기존 세션을 마이그레이션한 다음 보안 테스트를 수정하고 "
            "무중단으로 배포해줘.",
            "1. 알림 시스템의 이벤트 기반 아키텍처를 설계해줘\n2. 큐를 카프카로 이관해줘\n"
            "3. 백엔드 서비스를 수정해줘\n4. 운영에 배포해줘",
            "지난 배포 이후 메모리 사용량이 계속 늘어나는 원인을 파악하고, 그다음 누수를 고친 뒤 모니터링을 추가해줘.",
        ],
    },
}


def test_typo_fix_scores_far_below_a_cross_domain_migration():
    typo = scored("fix the typo in README.md")
    migration = scored(EXAMPLES["en"]["complex"][0])
    assert typo < 0.15
    assert migration > 0.9
    assert migration - typo > 0.7


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_routine_below_moderate_below_complex(lang):
    tiers = {tier: [scored(t) for t in texts] for tier, texts in EXAMPLES[lang].items()}
    assert max(tiers["routine"]) < min(tiers["moderate"])
    assert max(tiers["moderate"]) < min(tiers["complex"])
    assert max(tiers["routine"]) < 0.2
    assert min(tiers["complex"]) > 0.8
    # plain feature work sits near the default threshold (0.4), where learning has leverage
    assert all(0.2 < s < 0.5 for s in tiers["moderate"])


def test_features_are_reported_in_unit_range():
    c = score(EXAMPLES["en"]["complex"][0], 4)
    assert set(c.features) == set(WEIGHTS)
    assert all(0.0 <= v <= 1.0 for v in c.features.values())
    z = BIAS + sum(WEIGHTS[k] * v for k, v in c.features.items())
    assert c.score == pytest.approx(1 / (1 + math.exp(-z)))


def test_each_feature_moves_the_score_its_way():
    base = score("update the settings handler").score
    assert score("update the settings handler", 3).score > base  # domains
    assert score("update the settings handler then restart it").score > base  # steps
    assert score("maybe update the settings handler somehow").score > base  # ambiguity
    assert score("update the production settings handler").score > base  # risk
    assert score("rename the settings handler").score < score("replace the settings handler").score  # routine


def test_words_match_whole_words_only():
    # "format" is routine, "production" and "design" are risk: none of them inside other words
    assert score("reformatted the informal productivity designer notes").features["routine"] == 0
    assert score("reformatted the informal productivity designer notes").features["risk"] == 0
    assert score("the product uses a designated format").features["risk"] == 0
    assert score("the product uses a designated format").features["routine"] > 0
    # inflections do count
    assert score("we migrated and deployed it").features["risk"] > 0
    assert score("formatting only").features["routine"] > 0


def test_korean_keywords_match_at_the_start_of_a_word_with_particles():
    assert score("보안을 강화하고 마이그레이션하고 배포해줘").features["risk"] > 0.8
    assert score("정보안내 문구").features["risk"] == 0  # 보안 inside 정보안내 is not a hit
    assert score("왜 안 되는지 모르겠어요").features["ambiguity"] > 0.5
    assert score("오타를 고쳐줘").features["routine"] > 0
    assert score("변수 이름을 변경해줘").features["routine"] > 0


def test_korean_scores_track_english():
    for en, ko in zip(EXAMPLES["en"]["complex"], EXAMPLES["ko"]["complex"]):
        assert abs(scored(en) - scored(ko)) < 0.15


@pytest.mark.parametrize("text", [
    "--think fix the typo",
    "fix the typo --think-hard",
    "--ultrathink rename x",
    "ultrathink: rename the variable",
    "think hard about this typo",
    "Think harder about the layout",
    "explain it step by step",
    "go step-by-step please",
    "이 오타를 깊게 생각해서 고쳐줘",
    "깊이 생각해 보고 답해줘",
    "신중하게 변수 이름을 바꿔줘",
    "단계별로 설명해줘",
    "차근차근 풀어줘",
])
def test_think_flags_force_system2(text):
    assert score(text).forced == "system2"


@pytest.mark.parametrize("text", [
    "I think the bug is in the parser",
    "rethink nothing, just fix the typo",
    "--thinking-mode is an unknown flag",
    "a step in the pipeline",
    "생각해보니 오타가 있네",
])
def test_ordinary_text_is_not_forced(text):
    assert score(text).forced is None


def test_sentences_and_list_items():
    assert sentence_count("") == 0
    assert sentence_count("one") == 1
    assert sentence_count("fix README.md now") == 1
    assert sentence_count("One. Two! Three?") == 3
    assert sentence_count("1. a\n2. b\n\n- c") == 3
    assert list_items("1. a\n2. b\n- c\n* d") == 4
    assert list_items("steps: 1) foo 2) bar (3) baz") == 3
    assert list_items("version 3.11 and a-b") == 0


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=3000), st.integers(min_value=-5, max_value=100))
def test_score_is_always_in_unit_interval(text, touched):
    c = score(text, touched)
    assert 0.0 <= c.score <= 1.0
    assert c.forced in (None, "system2")
    assert all(0.0 <= v <= 1.0 for v in c.features.values())
    assert score(text, touched) == c
