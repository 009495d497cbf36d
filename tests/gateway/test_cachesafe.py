"""The cache-safe effort rewrite: the top level untouched, earlier messages byte-stable, each turn's
answer at its route's effort (read back by the fake API's cache model, not by the code under test)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from artibot.gateway.cachesafe import BETA, Efforts, is_compaction, merge_beta, rewrite
from experiments.cache_model import PromptCache, effort_of, refusal

EFFORTS = Efforts(system1="low", system2=None)
LINE = {"system1": "artibot router: System 1 (fast) — complexity 0.1 < threshold 0.4 for docs. Answer directly.",
        "system2": "artibot router: System 2 (deliberate) — complexity 0.8 >= threshold 0.4. Plan before acting."}


def _canon(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def conversation(routes: list[str | None], tool_rounds: list[int], first_marker: bool) -> list[list[dict]]:
    """Each request of a session, as Claude Code 2.1.331 builds it: a turn's prompt, its hook context
    (a system message holding the route line; the first one carries the client's marker), then
    tool rounds. ``None`` is a turn the prompt hook did not route (no context)."""
    messages: list[dict] = []
    requests = []
    for n, (route, rounds) in enumerate(zip(routes, tool_rounds)):
        messages.append({"role": "user", "content": [{"type": "text", "text": f"prompt {n}"}]})
        if route is not None:
            context = {"role": "system", "content": [{"type": "text", "text": f"hook context: {LINE[route]}"}]}
            if n == 0 and first_marker:
                context["output_config"] = {"effort": "medium"}
            messages.append(context)
        requests.append(list(messages))
        for r in range(rounds):
            messages.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{n}{r}", "name": "Bash",
                                                              "input": {}}]})
            messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}{r}",
                                                          "content": "ok"}]})
            requests.append(list(messages))
        messages.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {n}"}]})
    return requests


def body(messages: list[dict], effort: str = "medium") -> dict:
    return {"model": "claude-opus-5-5", "output_config": {"effort": effort}, "max_tokens": 1000,
            "system": [{"type": "text", "text": "you are an agent"}], "messages": messages}


ROUTES = st.lists(st.sampled_from(["system1", "system2", None]), min_size=1, max_size=10)


@settings(max_examples=150, deadline=None)
@given(routes=ROUTES, data=st.data(), first_marker=st.booleans(), client=st.sampled_from(["medium", "high", "low"]))
def test_earlier_messages_are_byte_stable_and_each_answer_runs_at_its_turns_effort(routes, data, first_marker, client):
    rounds = data.draw(st.lists(st.integers(0, 3), min_size=len(routes), max_size=len(routes)))
    requests = conversation(routes, rounds, first_marker)
    turn_of = [n for n, r in enumerate(rounds) for _ in range(r + 1)]
    previous: list[bytes] | None = None
    for messages, n in zip(requests, turn_of):
        sent = body(messages, client)
        out, changed = rewrite(sent, EFFORTS)
        assert out["output_config"] == {"effort": client}  # the top level, and with it the cache key, untouched
        assert sent == body(messages, client)  # the input is not modified
        now = [_canon(m) for m in out["messages"]]
        if previous is not None:
            assert now[:len(previous)] == previous  # what went upstream before goes again, byte for byte
        previous = now
        wanted = EFFORTS.of(routes[n], client)
        assert effort_of(out) == wanted  # the API's reading of the markers
        assert refusal(out, BETA) is None
        if not changed:
            assert out["messages"] == messages  # nothing to change: the client's messages


def test_a_system1_turn_after_system2_gets_low_and_the_next_system2_gets_the_clients_effort_back():
    [*_, third] = conversation(["system2", "system1", "system2"], [0, 0, 0], first_marker=True)
    out, changed = rewrite(body(third), EFFORTS)
    markers = [m.get("output_config") for m in out["messages"] if m["role"] == "system"]
    assert markers == [{"effort": "medium"}, {"effort": "low"}, {"effort": "medium"}] and changed


def test_a_request_without_any_context_gets_an_effort_only_message_right_after_the_new_input():
    messages = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]
    out, changed = rewrite(body(messages), EFFORTS, agent_effort="low")  # a sub-agent of a System 1 turn
    assert [m["role"] for m in out["messages"]] == ["user", "system", "assistant", "user"]
    assert out["messages"][1] == {"role": "system", "content": [], "output_config": {"effort": "low"}}
    assert changed and effort_of(out) == "low"


def test_a_sub_agent_runs_every_turn_of_its_own_conversation_at_its_launching_turns_effort():
    messages = [{"role": "user", "content": [{"type": "text", "text": "#sc:inner check the README"}]},
                {"role": "system", "content": "deferred tools", "output_config": {"effort": "medium"}},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]},
                {"role": "system", "content": "agent types"}]
    out, _ = rewrite(body(messages), EFFORTS, agent_effort="low")
    assert out["messages"][1]["output_config"] == {"effort": "low"}
    assert out["messages"][4] == messages[4]  # after a tool result: not a turn of its own
    assert effort_of(out) == "low"


def test_compaction_runs_at_the_clients_effort_and_keeps_the_earlier_turns_markers():
    [*_, last] = conversation(["system2", "system1"], [0, 0], first_marker=True)
    summary = {"role": "user", "content": [{"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Your task is "
                                            "to create a detailed summary of the conversation so far, ..."}]}
    compacting = last + [{"role": "assistant", "content": "done"}, summary]
    assert is_compaction(compacting)
    out, _ = rewrite(body(compacting), EFFORTS)
    before, _ = rewrite(body(last), EFFORTS)
    assert out["messages"][:len(before["messages"])] == before["messages"]  # the cached prefix is read, not rewritten
    assert effort_of(out) == "medium"


def test_a_compacted_conversation_starts_over_and_is_handled_like_any_other():
    compacted = [{"role": "user", "content": "This session is being continued from a previous conversation..."},
                 {"role": "system", "content": [], "output_config": {"effort": "medium"}},
                 {"role": "assistant", "content": "Audit done."},
                 {"role": "user", "content": "now fix another typo"},
                 {"role": "system", "content": [{"type": "text", "text": LINE["system1"]}]}]
    out, changed = rewrite(body(compacted), EFFORTS)
    assert out["messages"][1]["output_config"] == {"effort": "medium"}  # the summary's turn had no route: the client's
    assert out["messages"][4]["output_config"] == {"effort": "low"} and changed
    assert effort_of(out) == "low"


def test_a_route_line_typed_by_the_user_in_a_tool_result_does_not_count():
    messages = [{"role": "user", "content": "prompt"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "Read", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": LINE["system1"]}]}]
    out, changed = rewrite(body(messages), EFFORTS)
    assert out == body(messages) and not changed


def test_the_cache_model_reads_the_whole_prefix_across_a_route_switch_only_when_the_rewrite_is_cache_safe():
    requests = conversation(["system2", "system1", "system2", "system1"], [1, 1, 1, 1], first_marker=True)
    big = [{"type": "text", "text": "x" * 20_000, "cache_control": {"type": "ephemeral"}}]

    def run(transform) -> int:
        cache, written = PromptCache(clock=lambda: 0.0), 0
        for messages in requests:
            sent = transform({**body(messages), "system": big,
                              "messages": messages[:-1] + [{**messages[-1], "content": [
                                  *messages[-1]["content"][:-1],
                                  {**messages[-1]["content"][-1], "cache_control": {"type": "ephemeral"}}]}]})
            written += cache.usage(sent)["cache_creation_input_tokens"]
        return written

    safe = run(lambda b: rewrite(b, EFFORTS)[0])
    untouched = run(lambda b: b)

    def everywhere(b: dict) -> dict:  # the earlier gateway: the route's effort at the top level and on every marker
        effort = effort_of(rewrite(b, EFFORTS)[0])
        return {**b, "output_config": {"effort": effort}, "messages": [
            {**m, "output_config": {"effort": effort}} if "output_config" in m else m for m in b["messages"]]}

    assert safe <= untouched + 200  # a marker costs a few tokens, never the prefix
    assert run(everywhere) > untouched + 4_000  # the 5k-token prefix written again, into the low-effort cache


@given(st.lists(st.text(alphabet="abcdefg-,0123456789 ", max_size=40), max_size=4))
def test_the_beta_is_merged_once_and_every_beta_the_client_sent_is_kept(values):
    merged = merge_beta(values)
    names = merged.split(",")
    assert names.count(BETA) == 1
    sent = [v.strip() for value in values for v in value.split(",") if v.strip()]
    assert [n for n in names if n != BETA] == [s for s in sent if s != BETA]
    assert merge_beta([merged]) == merged
