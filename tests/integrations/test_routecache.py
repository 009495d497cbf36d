"""The prompt hook's router cache: the policy read back from ``marshal`` is the policy it kept."""

from __future__ import annotations

import marshal

import pytest

from artibot.hookpath.turns import routecache
from artibot.hookpath.router.domains import DomainTable, KeywordIndex
from artibot.hookpath.router.policy import RoutingPolicy

PROMPTS = ("fix the typo in the README title", "migrate the user service from REST to gRPC, then add tests",
           "로그인 보안을 점검해줘", "why does the login endpoint return 500 when the token expired?",
           "rename the variable in utils to snake_case")


def _policy() -> RoutingPolicy:
    import json

    from artibot.config import shipped_config_dir

    shipped = json.loads((shipped_config_dir() / "domains.json").read_text(encoding="utf-8"))
    table = DomainTable.from_json(shipped, {"payments": ["stripe", "invoice"]})
    return RoutingPolicy(0.35, {"backend": 0.3, "frontend": 0.45}, frozenset({"backend:fix:typo", "docs:fix:doc+typo"}),
                         table, exploration=0.1, domain_exploration=0.02)


def test_the_policy_survives_the_round_trip() -> None:
    policy = _policy()
    back = routecache._decode(marshal.loads(marshal.dumps(routecache._encode(policy))))
    assert type(back) is RoutingPolicy and back == policy
    assert back.table == policy.table
    for index, again in ((policy.table._index, back.table._index), (policy._keywords, back._keywords)):
        assert type(again) is KeywordIndex
        assert all(getattr(again, name) == getattr(index, name) for name in KeywordIndex.__slots__)
    for prompt in PROMPTS:
        assert back.decide(prompt) == policy.decide(prompt)


def test_only_router_records_are_encoded_or_decoded() -> None:
    with pytest.raises(TypeError):
        routecache._encode(object())
    state = routecache._encode(_policy())
    with pytest.raises(ValueError):
        routecache._decode((..., "os", "system", {}, ()))
    with pytest.raises(ValueError):
        routecache._decode((None,) + state[1:])


def test_the_exploration_draw_is_uniform_in_the_unit_interval() -> None:
    rng = routecache._rng(True)
    draws = [rng.random() for _ in range(4000)]
    assert all(0.0 <= d < 1.0 for d in draws)
    assert 0.45 < sum(draws) / len(draws) < 0.55
    assert sum(d < 0.1 for d in draws) / len(draws) == pytest.approx(0.1, abs=0.03)
    assert routecache._rng(False) is None
