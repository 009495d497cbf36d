"""``artibot review --json --prepare`` (what ``/learn`` inlines) in brief, and the commands that show the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot import learn
from artibot.collector import collect_many
from artibot.cli.checkpoint_view import change_words
from artibot.round.review import open_evidence, pending_questions
from artibot.round import brief as review_brief
from tests.factories import round_of_patterns


@pytest.fixture
def large(artibot_home: Path) -> Path:
    collect_many(round_of_patterns(moving=30, held=45))
    assert learn(answers="defer", flush=True).status == "deferred"
    return artibot_home


def test_the_brief_fits_and_lists_what_needs_a_decision(cli, large: Path) -> None:
    full = cli("review", "--json")
    r = cli("review", "--json", "--prepare")
    assert r.code == 0 and len(full.out.encode()) > 30_000  # whole, the round is past what Claude Code shows
    assert len(r.out.encode()) <= review_brief.BUDGET
    doc = r.json()
    assert doc["brief"] is True and [q["number"] for q in doc["questions"]] == [1, 2, 3]
    q3 = doc["questions"][2]
    assert q3["counts"] == {"promote": 30, "demote": 0, "hold": 45}
    assert all(d["automatic"] == "promote" for d in q3["decisions"])
    assert "45 pattern(s) held where they are" in q3["summary"][0]
    assert "evidence" not in q3 and "rows" not in r.out


def test_a_list_too_long_is_cut_with_the_page_of_the_rest(large: Path) -> None:
    doc = pending_questions(large)
    shown = open_evidence(large)
    assert shown is not None
    small = review_brief.brief(doc, shown[2], change_words, budget=9_000)
    assert review_brief.size(small) <= 9_000
    q3 = small["questions"][2]
    kept = len(q3["decisions"])
    assert 0 < kept < 30
    page = kept // review_brief.PAGE_ROWS + 1
    assert q3["cut"] == (f"the first {kept} of 30; the rest: `artibot review --json --question 3"
                         + (f" --page {page}`" if page > 1 else "`"))


def test_pages_and_one_pattern(cli, large: Path) -> None:
    first = cli("review", "--json", "--question", "3").json()
    assert (first["page"], first["pages"], first["rows"]) == (1, 5, 75)
    assert first["next"] == "artibot review --json --question 3 --page 2"
    assert [r["automatic"] for r in first["evidence"]["rows"]] == ["promote"] * 15
    last = cli("review", "--json", "--question", "3", "--page", "5").json()
    assert "next" not in last and {r["automatic"] for r in last["evidence"]["rows"]} == {"hold"}
    assert [p["key"] for p in last["patterns"]] == [r["key"] for r in last["evidence"]["rows"]]
    for out in (first, last):
        assert review_brief.size(out) <= review_brief.BUDGET
    one = cli("review", "--json", "--pattern", "frontend:add:rare07").json()
    assert one["key"] == "frontend:add:rare07" and one["automatic"] == "hold" and "k1" in one
    bad = cli("review", "--json", "--question", "3", "--page", "6")
    assert bad.code != 0 and "checkpoint 3 has page(s) 1 to 5 (75 row(s), 15 a page)" in bad.err
    near = cli("review", "--json", "--pattern", "rare07")
    assert near.code != 0 and "did you mean frontend:add:rare07?" in near.err


def test_nothing_pending(cli, artibot_home: Path) -> None:
    r = cli("review", "--json", "--question", "1")
    assert r.code != 0 and "no round is waiting for review" in r.err
    assert cli("review", "--json", "--prepare").json()["pending"] is False


def test_the_brief_in_korean(cli, artibot_home: Path) -> None:
    from tests.cli.test_korean import english_sentences

    artibot_home.mkdir(parents=True, exist_ok=True)
    (artibot_home / "artibot.config.json").write_text('{"lang": "ko"}')
    collect_many(round_of_patterns(moving=2, held=5))
    assert learn(answers="defer", flush=True).status == "deferred"
    doc = cli("review", "--json", "--prepare").json()
    said = [line for q in doc["questions"] for line in q.get("summary", [])] + [q["more"] for q in doc["questions"]]
    assert said and not english_sentences("\n".join(said)), said
    assert "보류(현재 위치 유지) 패턴 5개" in doc["questions"][2]["summary"][0]
