"""Messages by id: every shipped language has every id, and each text uses exactly the
parameters the English one names (a parameter no text shows, or a text naming one the message
lacks, would fail only in that language, at the moment a user meets it)."""

from __future__ import annotations

import pytest

from artibot.messages import LANGS, Message, catalogue, fields, render


@pytest.mark.parametrize("lang", LANGS)
def test_every_id_has_every_language(lang: str) -> None:
    assert set(catalogue(lang)) == set(catalogue("en"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_names_the_parameters_of_the_english_one(lang: str) -> None:
    wrong = {i: (fields(catalogue("en")[i]), fields(t)) for i, t in catalogue(lang).items()
             if fields(t) != fields(catalogue("en")[i])}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_formats_with_its_parameters(lang: str) -> None:
    # a number where a template formats one ({old:.2f}), a text elsewhere: no text raises
    for i, t in catalogue(lang).items():
        params = {name: 0.5 for name in fields(catalogue("en")[i])}
        try:
            t.format(**params)
        except ValueError:
            t.format(**{name: "x" for name in params})


def test_a_message_is_its_english_sentence_and_renders_its_parts_in_the_same_language() -> None:
    m = Message("threshold.reason", compared=Message("threshold.gain", where="law", gain="0.14", sd=0.05,
                                                     price="0.10", source=Message("price_source.estimated"),
                                                     side=Message("threshold.gain.above")),
                move=Message("threshold.more_system2", old=0.4, new=0.3))
    assert str(m) == "law: System 2's gain 0.14 ± 0.05 is above its price 0.10 (estimated) → more System 2: " \
                     "threshold 0.40 → 0.30"
    assert render(m, "ko") == "law: System 2의 이득 0.14 ± 0.05이(가) 가격 0.10(추정)보다 높습니다 → System 2 증가: " \
                              "임계값 0.40 → 0.30"
    assert render(m, "fr") == str(m)  # a language artibot does not ship: English
    assert render("a sentence from elsewhere", "ko") == "a sentence from elsewhere"


def test_a_message_goes_to_json_and_back_and_a_bad_one_is_refused() -> None:
    m = Message("transfer.both", first=Message("transfer.hold_streak", streak=1, needed=3),
                second=Message("transfer.hold_confidence", c="0.70", bar="0.80"))
    assert Message.from_json(m.to_json()) == m and hash(Message.from_json(m.to_json())) == hash(m)
    with pytest.raises(ValueError, match="no message has the id"):
        Message.from_json({"id": "no.such", "params": {}})
    problems = Message("config.invalid", problems=(Message("config.unknown_key", key="a.b", allowed="c"), "other"))
    assert Message.from_json(problems.to_json()) == problems
    assert str(problems) == "invalid configuration: a.b is not a known key (allowed: c); other"
    with pytest.raises(ValueError, match="not a text, number, message or list"):
        Message.from_json({"id": "transfer.hold_streak", "params": {"streak": [1], "needed": 3}})
    with pytest.raises(ValueError, match="an object with an id"):
        Message.from_json({"params": {}})


def test_every_id_the_code_names_is_in_the_catalogue() -> None:
    # a misspelt id would raise only when its message is said: every literal id is checked here,
    # and an id built from a value (f"os.reason.{name}") must name a family the catalogue has
    import re
    from pathlib import Path

    import artibot

    literal, family = set(), set()
    for path in Path(artibot.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        literal.update(re.findall(r"""Message\(\s*["']([\w.]+)["']""", text))
        family.update(re.findall(r"""Message\(\s*f["']([\w.]+)\{""", text))
    known = set(catalogue("en"))
    assert len(literal) > 50 and literal - known == set()
    assert family and {f for f in family if not any(k.startswith(f) for k in known)} == set()


def test_a_doctor_finding_is_said_in_korean(tmp_path) -> None:
    import os

    from artibot.cli.words_errors import say_any
    from artibot.store import doctor
    from artibot.store.home import Home

    home = Home(tmp_path / "home")
    home.root.mkdir(mode=0o700)
    (home.root / "notes.json").write_text("{}")
    os.chmod(home.root / "notes.json", 0o644)
    found = [f for f in doctor.check(home) if f.path.name == "notes.json"]
    assert [f.problem for f in found] == ["file mode is 0644, expected 0600 (only you may read artibot's data)"]
    assert say_any("ko", found[0].said or found[0].problem) == ("파일 권한이 0644입니다. 0600이어야 합니다 (artibot의 데이터는 "
                                                                 "본인만 읽을 수 있어야 합니다)")


def test_an_error_with_a_message_keeps_its_english_sentence(tmp_path) -> None:
    from artibot.cli.words_errors import say_error
    from artibot.errors import NotFoundError
    from artibot.store.home import Home
    from artibot.store.round import pending_decisions

    home = Home(tmp_path / "home")
    home.ensure()
    with pytest.raises(NotFoundError) as raised:
        pending_decisions.load(home, "d1")
    assert str(raised.value) == (f"no pending decision d1 in {home.pending_dir}; `artibot route TEXT --record` "
                                 "records one")
    assert raised.value.message is not None and raised.value.message.id == "decision.missing"
    assert say_error("ko", raised.value) == (f"{home.pending_dir}에 대기 중인 결정 d1이(가) 없습니다; `artibot route TEXT "
                                             "--record`로 결정을 기록하세요")
    with pytest.raises(NotFoundError, match=r"^'a b' is not a decision id"):
        pending_decisions.load(home, "a b")


@pytest.mark.parametrize("lang", LANGS)
def test_no_id_is_written_twice_in_a_catalogue(lang: str) -> None:
    # a dict literal keeps the last of two equal keys without a word: the first text would be lost unseen
    import ast
    import collections
    from pathlib import Path

    import artibot.messages

    tree = ast.parse((Path(artibot.messages.__file__).parent / f"{lang}.py").read_text(encoding="utf-8"))
    texts = next(n.value for n in tree.body if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "TEXTS")
    assert isinstance(texts, ast.Dict)
    counts = collections.Counter(k.value for k in texts.keys if isinstance(k, ast.Constant))
    assert [k for k, n in counts.items() if n > 1] == []
