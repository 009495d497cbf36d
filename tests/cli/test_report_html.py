"""``artibot report`` writes one self-contained page, checked in a real headless Chromium
(Debian's ``chromium``) through its DevTools protocol: no console error, no exception, no
network request (only the page's own file:// load), and each chart drawn with a size."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from artibot import learn
from artibot.collector import collect_many
from tests.factories import mixed

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytest.importorskip("matplotlib", reason="the report's charts need matplotlib (pip install 'artibot[report]')")


def _home_with_history(home: Path) -> None:
    records = mixed(260)
    for i, r in enumerate(records):  # four days, some turns priced by the gateway, some explored
        r["timestamp"] = f"2026-03-0{1 + i // 65}T10:{i % 60:02d}:00+00:00"
        r["propensity"] = 0.05 if i % 9 == 0 else 0.95
        r["usage"] = {"cost_usd": 0.01 if r["routed_to"] == "system1" else 0.04, "input_tokens": 100,
                      "output_tokens": 50, "requests": 1}
    collect_many(records[:130], home=home)
    learn(home=home, answers={1: "accept", 2: "revert", 3: "auto"})
    collect_many(records[130:], home=home)
    learn(home=home, answers="defaults")
    collect_many(mixed(60, start=1000), home=home)
    learn(home=home, answers="defer", flush=True)


def test_the_page_holds_every_section(cli, artibot_home: Path, tmp_path: Path) -> None:
    _home_with_history(artibot_home)
    out = tmp_path / "r.html"
    result = cli("report", "--out", str(out))
    assert result.code == 0 and str(out) in result.out
    page = out.read_text()
    for name in ("cost", "success", "explored", "thresholds"):
        assert f'data-chart="{name}"' in page
    lead = page[page.index("<section class='lead'"):page.index("</section>")]
    assert page.index("data-lead") < page.index("data-chart")  # the page leads with it
    assert "saved $" in lead and "against every turn at System 2 (95% interval" in lead
    assert "redos per 100 turns:" in lead and "against System 2 alone (95% interval" in lead
    assert "data-table='waiting'" in page and "<script" not in page
    assert not any(link in page for link in ('src="http', "src='http", 'href="http', "href='http", "url(http",
                                             "@import"))
    empty = tmp_path / "empty.html"
    Path(artibot_home).mkdir(exist_ok=True)
    cli("--home", str(tmp_path / "none"), "report")  # a missing home is an error, not an empty page
    assert not empty.exists()


async def _cdp(port: int, url: str) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        for _ in range(100):
            try:
                async with session.get(f"http://127.0.0.1:{port}/json/list") as resp:
                    targets = [t for t in await resp.json() if t.get("type") == "page"]
                    if targets:
                        break
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
        async with session.ws_connect(targets[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            seq = 0
            events: list[dict[str, Any]] = []

            async def call(method: str, **params: Any) -> dict[str, Any]:
                nonlocal seq
                seq += 1
                await ws.send_json({"id": seq, "method": method, "params": params})
                while True:
                    msg = json.loads((await ws.receive()).data)
                    if msg.get("id") == seq:
                        return msg
                    events.append(msg)

            for domain in ("Network", "Runtime", "Log", "Page"):
                await call(f"{domain}.enable")
            await call("Page.navigate", url=url)
            deadline = time.monotonic() + 30
            while not any(e.get("method") == "Page.loadEventFired" for e in events):
                assert time.monotonic() < deadline, "the page never loaded"
                events.append(json.loads((await ws.receive()).data))
            await asyncio.sleep(0.5)  # late requests or errors, if any
            charts = await call("Runtime.evaluate", returnByValue=True, expression="""
                Array.from(document.querySelectorAll('figure.chart')).map(f => {
                  const svg = f.querySelector('svg'); const box = svg ? svg.getBoundingClientRect() : null;
                  return {name: f.dataset.chart, width: box ? box.width : 0, height: box ? box.height : 0,
                          shapes: svg ? svg.querySelectorAll('path, rect, use').length : 0};
                })""")
            lead = await call("Runtime.evaluate", returnByValue=True,
                              expression="document.querySelector('section.lead').innerText")
            return {"events": events, "charts": charts["result"]["result"]["value"],
                    "lead": lead["result"]["result"]["value"]}


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_the_page_in_headless_chromium(cli, artibot_home: Path, tmp_path: Path) -> None:
    _home_with_history(artibot_home)
    page = tmp_path / "report.html"
    assert cli("report", "--out", str(page)).code == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    profile = tempfile.mkdtemp(dir=tmp_path)
    browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--disable-background-networking", "--disable-component-update",
                                "--disable-sync", "--disable-default-apps", f"--user-data-dir={profile}",
                                f"--remote-debugging-port={port}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    try:
        seen = asyncio.run(asyncio.wait_for(_cdp(port, page.as_uri()), timeout=90))
    finally:
        browser.terminate()
        browser.wait(timeout=20)
    events = seen["events"]
    requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
    assert requests == [page.as_uri()], requests  # the page itself and nothing else
    errors = [e for e in events if e.get("method") in ("Runtime.exceptionThrown",)
              or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning"))
              or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] in ("error", "warning"))]
    assert errors == []
    charts = {c["name"]: c for c in seen["charts"]}
    assert set(charts) == {"cost", "success", "explored", "thresholds"}
    for chart in charts.values():
        assert chart["width"] > 300 and chart["height"] > 100 and chart["shapes"] > 10, chart
    assert seen["lead"].startswith("saved $") and "redos per 100 turns" in seen["lead"], seen["lead"]


def test_the_lead_without_the_gateway_says_so_in_one_line() -> None:
    from artibot.cli.report_html import lead

    doc = {"routes": {"system1": {"turns": 0}, "system2": {"turns": 0}}, "judged": {}, "unmeasured_turns": 0,
           "saved_usd": None, "saved_share": None, "redos": None, "redo_note": "n"}
    assert lead(doc) == ("<section class='lead' data-lead='costs'><p>saved: no measured cost yet (the gateway "
                         "measures each turn&#x27;s cost: <code>artibot install claude-code --gateway</code>)</p>"
                         "<p>redos per 100 turns against System 2 alone: needs judged turns of both routes</p>"
                         "</section>")
