"""The route takes effect in the real Codex CLI (pinned in :mod:`.codex_harness`) through the gateway.

The same interactive session — System 1 and System 2 turns in turn, each with a shell call
that prints a 20 kB file, so the conversation grows past 12k tokens (Codex CLI keeps about 2.5k tokens of a command's output) — is run twice against a
fake Responses API whose prompt cache behaves as OpenAI documents it
(:mod:`experiments.responses_cache`): once straight to the fake (artibot installed without
the gateway: the route is context only) and once through the gateway
(``artibot install codex-cli --gateway``: Codex CLI's hooks start it). The model is
GPT-6 Astra, which takes ``configuration_update`` items, at the user's ``high``. Effort,
cache and cost are read from what the fake API saw and reported, not from the gateway's
own records, and priced at the shipped GPT-6 Astra prices. A third run, on
``gpt-5.1-codex`` (no ``configuration_update``), shows a model without the item unrouted.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from artibot.gateway.price_table import PriceTable
from artibot.gateway.usage import Usage
from experiments.responses_cache import PromptCache
from tests.e2e.codex_harness import VERSION, CodexWorld, codex_binary
from tests.e2e.fake_openai import shell, text
from tests.e2e.harness import Unavailable
from tests.e2e.test_gateway import HARD, SIMPLE, _free_port

pytestmark = pytest.mark.slow

TURNS = 6
MODEL = "gpt-6-astra"
SCENARIOS = {f"read{n}": [[shell(f"cat notes{n}.txt")], [text("Done.")]] for n in range(TURNS)}
GREEDY = {"cognitive": {"router": {"exploration": 0, "domainExploration": 0}}}


@pytest.fixture(scope="module")
def binary() -> Path:
    try:
        return codex_binary()
    except Unavailable as exc:
        pytest.skip(f"real Codex CLI {VERSION} not available: {exc}")


def _prompts() -> list[str]:
    return [f"{SIMPLE if n % 2 == 0 else HARD} (part {n}) #sc:read{n}" for n in range(TURNS)]


def _run(tmp: Path, binary: Path, *, gateway: bool, model: str = MODEL, turns: int = TURNS) -> dict:
    with CodexWorld(tmp, binary, SCENARIOS, cache=PromptCache(), model=model, effort="high") as world:
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(json.dumps(GREEDY))
        for n in range(turns):
            (world.project / f"notes{n}.txt").write_text("".join(
                f"line {i} of part {n}: the rate limiter keeps a token bucket per client and refills it.\n"
                for i in range(230)))
        port = _free_port()
        try:
            world.install(True, *(("--gateway", "--port", str(port)) if gateway else ()))
            world.session(*_prompts()[:turns], timeout=240)
            records = world.wait_for_records(turns)
            status = world.artibot("status").stdout
            config = (world.codex_home / "config.toml").read_bytes()
            world.artibot("uninstall", "codex-cli")
            restored = (world.codex_home / "config.toml").read_bytes()
        finally:
            from artibot.gateway.launcher import stop_all

            stop_all(str(world.data))
        assert world.refused_in_clear() == [], world.api.refused
        main = [a for a in world.api.answered if a["source"] == "user"]  # not the title's thread
        return {"answered": main, "all": list(world.api.answered),
                "requests": [r for n, r in world.api.requests if n is not None],
                "records": records, "status": status, "config": config, "restored": restored,
                "hook_log": world.hook_log()}


def _figures(answered: list[dict]) -> dict[str, float]:
    table = PriceTable.shipped()
    read = sum(a["usage"]["input_tokens_details"]["cached_tokens"] for a in answered)
    prompt = sum(a["usage"]["input_tokens"] for a in answered)

    def cost(a: dict) -> float:
        u = a["usage"]
        cached = u["input_tokens_details"]["cached_tokens"]
        return table.cost(a["model"], Usage(u["input_tokens"] - cached, u["output_tokens"], 0, cached)) or 0.0

    return {"read_share": read / prompt, "cost": sum(cost(a) for a in answered), "requests": len(answered),
            "largest": max(a["usage"]["input_tokens"] for a in answered)}


def test_codex_cli_through_the_gateway_answers_system1_at_low_and_costs_less_with_the_same_cache(
        tmp_path: Path, binary: Path) -> None:
    (tmp_path / "direct").mkdir()
    (tmp_path / "gateway").mkdir()
    direct = _run(tmp_path / "direct", binary, gateway=False)
    routed = _run(tmp_path / "gateway", binary, gateway=True)
    def routes(run: dict) -> list[str]:
        return [r["routed_to"] for r in sorted(run["records"], key=lambda r: int(re.findall(r"part (\d+)", r["input"])[0]))]

    assert routes(direct) == routes(routed) == ["system1", "system2"] * (TURNS // 2), routes(routed)

    by_turn: dict[str, list[str]] = {}
    for answer in routed["answered"]:
        by_turn.setdefault(answer["scenario"] or "-", []).append(answer["effort"])
    for n in range(TURNS):
        wanted = "low" if n % 2 == 0 else "high"
        assert by_turn[f"read{n}"] and set(by_turn[f"read{n}"]) == {wanted}, by_turn  # every request of the turn
    assert {a["effort"] for a in direct["answered"] if a["scenario"]} == {"high"}
    # the request-level effort (the cache's key) never moved; the updates sit in place
    assert {r["reasoning"]["effort"] for r in routed["requests"]} == {"high"}
    sent = [[i for i in r["input"] if i.get("type") == "configuration_update"] for r in routed["requests"]]
    assert max(len(s) for s in sent) == TURNS

    plain, through = _figures(direct["answered"]), _figures(routed["answered"])
    print(json.dumps({"direct": plain, "gateway": through}, indent=2))
    assert through["largest"] > 12_000, through
    assert abs(through["read_share"] - plain["read_share"]) <= 0.02, (plain, through)
    assert through["cost"] < plain["cost"], (plain, through)
    # the gateway billed each turn from OpenAI's usage fields
    for record in routed["records"]:
        usage = (record.get("gateway") or {}).get("usage") or record.get("usage") or {}
        assert usage.get("requests", 0) >= 2 and usage.get("cost_usd", 0) > 0, record
    # installed: the provider points at the gateway with the user's key variable; uninstalled: the bytes come back
    assert b'[model_providers.artibot]' in routed["config"] and b'env_key = "E2E_OPENAI_KEY"' in routed["config"]
    assert b"sk-e2e-fake" not in routed["config"]
    # (Codex CLI writes to the file itself during a session: its notices; those stay)
    restored = tomllib.loads(routed["restored"].decode())
    assert b"artibot" not in routed["restored"] and restored["model_provider"] == "e2e"
    assert "artibot" not in restored["model_providers"]


def test_a_model_without_the_update_item_goes_through_unrouted_and_status_says_so(tmp_path: Path,
                                                                                   binary: Path) -> None:
    routed = _run(tmp_path, binary, gateway=True, model="gpt-5.1-codex", turns=2)
    assert all(i.get("type") != "configuration_update" for r in routed["requests"] for i in r["input"])
    assert {a["effort"] for a in routed["answered"] if a["scenario"]} == {"high"}
    assert "configuration_update" in routed["status"] and "gpt-5.1-codex" in routed["status"], routed["status"]


def test_a_gateway_killed_between_two_sessions_is_started_again_by_the_next_prompts_hooks(tmp_path: Path,
                                                                                          binary: Path) -> None:
    import os
    import signal

    from artibot.hookpath.store import gateway_state

    with CodexWorld(tmp_path, binary, SCENARIOS, cache=PromptCache(), model=MODEL, effort="high") as world:
        world.data.mkdir()
        (world.data / "artibot.config.json").write_text(json.dumps(GREEDY))
        (world.project / "notes0.txt").write_text("a line\n")
        port = _free_port()
        try:
            world.install(False, "--gateway", "--port", str(port))
            prompt = f"{SIMPLE} #sc:read0"
            world.exec(prompt, "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                       "--dangerously-bypass-approvals-and-sandbox")
            pid = gateway_state.gateway_pid(str(world.data), port)
            assert pid is not None, world.hook_log()
            os.kill(pid, signal.SIGKILL)
            before = len(world.api.answered)
            world.exec(prompt, "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                       "--dangerously-bypass-approvals-and-sandbox")
            again = gateway_state.gateway_pid(str(world.data), port)
            assert again is not None and again != pid, world.hook_log()
        finally:
            from artibot.gateway.launcher import stop_all

            stop_all(str(world.data))
        answered = [a for a in world.api.answered[before:] if a["source"] != "thread_title"]
        assert answered and {a["effort"] for a in answered} == {"low"}, answered  # routed through the new one
        assert "gateway started on port" in world.hook_log()


def test_a_port_another_program_holds_stops_the_prompt_before_codex_cli_sends_it_there(tmp_path: Path,
                                                                                      binary: Path) -> None:
    """The gateway's port answers, but not as this data home's gateway: the prompt hook blocks
    the prompt, so that Codex CLI sends neither the prompt nor the key to that program."""
    import http.server
    import subprocess
    import threading

    seen: list[str] = []

    class Foreign(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _any(self) -> None:
            seen.append(f"{self.command} {self.path.split('?')[0]} {self.headers.get('authorization', '')}")
            self.send_response(200)
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST = _any

    foreign = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Foreign)
    threading.Thread(target=foreign.serve_forever, daemon=True).start()
    try:
        with CodexWorld(tmp_path, binary, SCENARIOS, model=MODEL, effort="high") as world:
            world.data.mkdir()
            world.install(False, "--gateway", "--port", str(foreign.server_address[1]))
            proc = subprocess.run([str(binary), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                                   "--dangerously-bypass-approvals-and-sandbox", f"{SIMPLE} #sc:read0"],
                                  env=world.env, cwd=world.project, capture_output=True, text=True, timeout=120)
            log = world.hook_log()
    finally:
        foreign.shutdown()
        foreign.server_close()
    assert not [s for s in seen if "/responses" in s or "sk-e2e-fake" in s], seen
    assert "another program holds it" in log, log
    assert "UserPromptSubmit Blocked" in proc.stderr, (proc.returncode, proc.stdout[-600:], proc.stderr[-600:])
