"""The next-prompt outcome rule against a labelled corpus of follow-up prompts.

``tests/data/followups.tsv`` holds 238 follow-ups in English and Korean, written for
this test after the phrase tables and never used to tune them: corrections (the
previous turn went wrong), requests for deeper work, and neutral follow-ups (new tasks,
thanks, near-misses such as "no need for comments" or "아니면 …"). A wrong ``failed``
teaches the router that a good route was bad, so the rule must keep false ``failed``
on neutral follow-ups at or below 5 %.

    python -m tests.integrations.test_followup      # prints the README table
"""

from __future__ import annotations

from pathlib import Path

import pytest

from artibot.hookpath.turns.followup import judge

CORPUS = Path(__file__).resolve().parents[1] / "data" / "followups.tsv"
EXPECTED = {"correction": "failed", "escalation": "escalated", "neutral": None}


def corpus() -> list[tuple[str, str, str]]:
    rows = []
    for number, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        label, lang, text = line.split("\t")
        assert label in EXPECTED and lang in ("en", "ko"), f"{CORPUS.name}:{number}: bad label or language"
        rows.append((label, lang, text))
    return rows


def scores(rows: list[tuple[str, str, str]]) -> dict[str, dict[str, float]]:
    """Per judged outcome: precision, recall, support; and the false-failed rate on neutral follow-ups."""
    got = [(EXPECTED[label], (judge(text) or (None,))[0]) for label, _, text in rows]
    out = {}
    for outcome in ("failed", "escalated"):
        tp = sum(1 for want, have in got if want == have == outcome)
        predicted = sum(1 for _, have in got if have == outcome)
        actual = sum(1 for want, _ in got if want == outcome)
        out[outcome] = {"precision": tp / predicted if predicted else 1.0, "recall": tp / actual if actual else 1.0,
                        "support": actual}
    neutral = [have for want, have in got if want is None]
    out["neutral"] = {"false_failed": sum(1 for h in neutral if h == "failed") / len(neutral),
                      "false_escalated": sum(1 for h in neutral if h == "escalated") / len(neutral),
                      "support": len(neutral)}
    return out


def test_the_corpus_is_big_enough_and_balanced() -> None:
    rows = corpus()
    assert len(rows) >= 200
    for label in EXPECTED:
        for lang in ("en", "ko"):
            assert sum(1 for r in rows if r[:2] == (label, lang)) >= 20, (label, lang)
    assert len({text for _, _, text in rows}) == len(rows), "duplicate prompts"


@pytest.mark.parametrize("lang", ["en", "ko", "all"])
def test_precision_recall_and_false_failures(lang: str) -> None:
    rows = [r for r in corpus() if lang in ("all", r[1])]
    s = scores(rows)
    assert s["neutral"]["false_failed"] <= 0.05
    assert s["neutral"]["false_escalated"] <= 0.05
    assert s["failed"]["precision"] >= 0.95 and s["failed"]["recall"] >= 0.85
    assert s["escalated"]["precision"] >= 0.90 and s["escalated"]["recall"] >= 0.80


def table() -> str:
    lines = ["| corpus | n | failed P | failed R | escalated P | escalated R | neutral → failed | neutral → escalated |",
             "|---|---|---|---|---|---|---|---|"]
    for lang in ("en", "ko", "all"):
        rows = [r for r in corpus() if lang in ("all", r[1])]
        s = scores(rows)
        lines.append(f"| {lang} | {len(rows)} | {s['failed']['precision']:.2f} | {s['failed']['recall']:.2f} | "
                     f"{s['escalated']['precision']:.2f} | {s['escalated']['recall']:.2f} | "
                     f"{s['neutral']['false_failed']:.1%} | {s['neutral']['false_escalated']:.1%} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
