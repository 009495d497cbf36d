"""The terminal's keyed words come from the one catalogue per language: a single value, a
counter, a checkpoint's option and drift's summary in English as the screens always said
them and in Korean, and a value the catalogue does not name as it is."""

from __future__ import annotations

import pytest

from artibot.cli.words import action, change_word, counter, status_word, value, w
from artibot.learning.drift import DriftRow, summarize, summary
from artibot.messages import render
from artibot.round.checkpoint_texts import direction, mode, option, pattern_option, question, title


def test_single_values_in_each_language_and_an_unknown_one_as_it_is() -> None:
    assert (value("en", "not answering"), value("ko", "not answering")) == ("not answering", "응답 없음")
    assert (value("ko", "dry-run"), value("ko", "cost"), value("fr", "applied")) == ("시험 실행", "cost", "applied")
    assert (action("ko", "promote"), status_word("ko", "inactive"), change_word("ko", "unchanged")) == \
        ("승격", "비활성", "그대로")
    assert (action("en", "hold"), status_word("en", "demoted"), change_word("en", "remove")) == \
        ("hold", "demoted", "remove")


def test_a_gateway_counter_reads_as_status_always_listed_it() -> None:
    assert [counter("en", n, 3) for n in ("requests", "upstream_errors", "new_one")] == \
        ["3 requests", "3 upstream errors", "3 new one"]
    assert [counter("ko", n, 3) for n in ("requests", "client_gone", "new_one")] == \
        ["요청 3", "먼저 떠난 클라이언트 3", "3 new one"]


def test_a_word_of_the_screens_in_each_language() -> None:
    assert w("en", "choose", n=3, default=1) == "Choose 1-3 [1]: "
    assert w("ko", "choose", n=3, default=1) == "1-3 중 선택 [1]: "
    assert w("fr", "st_home", home="/h") == "home: /h"


def test_the_checkpoints_words() -> None:
    assert option(1, "accept") == ("Accept", "the results look reasonable; go on to the threshold update")
    assert option(2, "revert", "ko") == ("조정 되돌리기", "이번 조정 취소, 기존 임계값 유지 (배치는 처리됨)")
    assert pattern_option("auto", "ko") == ("자동 결정", "이 패턴에 표시된 결정 적용")
    assert pattern_option("hold") == option(3, "hold") and mode("list", "ko")[0] == "보류된 패턴 보기"
    assert title(2).startswith("Checkpoint 2: ") and question(3, "ko").startswith("지식 이전 결정이")
    assert (direction(0.5, 0.4), direction(0.4, 0.5, "ko"), direction(0.4, 0.4, "ko")) == \
        ("lower: more System 2", "높임: System 1 비중 증가", "변화 없음")


def _row(domain: str, drift: bool, tested: bool = True) -> DriftRow:
    return DriftRow(domain=domain, system="system1", recent_k=5 if drift else 9, recent_n=10, history_k=90,
                    history_n=100, p_value=0.001 if drift else 0.5, tested=tested, drift=drift)


@pytest.mark.parametrize("rows,english,korean", [
    ([], "nothing to test: no domain has both history and records from the last 7 days",
     "검사할 것 없음: 이력과 최근 7일의 기록을 모두 가진 도메인이 없습니다"),
    (["api"], "no drift: 1 domain/system pair(s) tested over the last 7 days (Bonferroni, alpha=0.05)",
     "드리프트 없음: 최근 7일 동안 도메인/시스템 쌍 1개를 검사했습니다 (Bonferroni, alpha=0.05)"),
    (["api", "!docs"], "drift in 1 of 2 domain/system pair(s) tested over the last 7 days: docs/system1; a reset of "
     "those domains is proposed", "최근 7일 동안 검사한 도메인/시스템 쌍 2개 중 1개에서 드리프트: docs/system1; 그 도메인들의 "
     "초기화를 제안합니다"),
])
def test_drift_s_summary_in_each_language(rows: list[str], english: str, korean: str) -> None:
    drift_rows = [_row(r.lstrip("!"), r.startswith("!")) for r in rows]
    assert summarize(drift_rows, days=7.0, alpha=0.05)[0] == english
    drifted = [f"{r.domain}/{r.system}" for r in drift_rows if r.drift]
    assert render(summary(drifted, tested=len(drift_rows), days=7.0, alpha=0.05), "ko") == korean


def test_a_rounds_pattern_decisions_say_their_reason_in_the_sessions_language() -> None:
    from rich.console import Console

    from artibot.cli.checkpoint_view import transfer_result
    from artibot.messages import Message

    def shown(lang: str, said: dict[str, Message] | None) -> str:
        out = Console(record=True, width=200)
        out.print(transfer_result(rows, lang, said))
        return out.export_text()

    reason = Message("transfer.promote", streak=3, needed=3, c="0.90", bar="0.80")
    rows = [{"key": "docs:fix:typo", "automatic": "promote", "final": "promote", "reason": str(reason)},
            {"key": "docs:add:comment", "automatic": "hold", "final": "demote", "reason": "promotion streak 1 of 3"}]
    said = {"docs:fix:typo": reason}
    assert "why: 3 consecutive System 2 successes (>= 3) and confidence 0.90 > 0.80" in shown("en", said)
    assert "the automatic hold was for: promotion streak 1 of 3" in shown("en", None)
    korean = shown("ko", said)
    assert "이유: " + render(reason, "ko") in korean and "재지정됨 (자동 결정: 보류)" in korean
    assert "자동 결정 그대로" in shown("ko", None)
