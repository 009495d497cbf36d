"""``artibot report`` writes one self-contained page, checked in a real headless Chromium
(Debian's ``chromium``) through its DevTools protocol: no console error, no exception, no
network request (only the page's own file:// load), each chart drawn with a size and its
legend clear of the plot, at a laptop's width and at a phone's (with a screenshot of each,
kept in ``$ARTIBOT_SCREENSHOTS`` when that names a folder)."""

from __future__ import annotations

import asyncio
import base64
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


def _open_turn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A turn in progress in a session, through the real prompt hook: in no figure yet."""
    from tests.integrations.test_hooks import Driver

    Driver(monkeypatch, capsys)("user-prompt-submit", prompt="rename the helper in utils.py", session_id="s-open")


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


def test_the_page_holds_every_section(cli, artibot_home: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    _home_with_history(artibot_home)
    _open_turn(monkeypatch, capsys)
    out = tmp_path / "r.html"
    result = cli("report", "--out", str(out))
    assert result.code == 0 and str(out) in result.out
    page = out.read_text()
    for name in ("cost", "success", "explored", "thresholds"):
        assert f'data-chart="{name}"' in page
    lead = page[page.index("<section class='lead'"):page.index("</section>")]
    assert page.index("data-lead") < page.index("data-chart")  # the page leads with it
    # the headline, then what was paid, saved and redone, each figure the cost report's own
    costs = cli("report", "cost", "--json").json()
    saved, share, redos = costs["saved_usd"], costs["saved_share"], costs["redos"]
    headline = lead[lead.index("<p class='headline'>"):lead.index("</p>")]
    assert (f"Routing saved you ${saved['estimate']:.2f} ({share['estimate'] * 100:.1f}%) against sending every "
            f"turn to System 2, at {redos['extra_per_100']['estimate']:.1f} more redos per 100 turns than System 2 "
            "alone.") in headline, headline
    cards = [lead.index(f"data-card='{name}'") for name in ("paid", "saved", "redos")]
    assert cards == sorted(cards)
    assert f"${costs['total_usd']:.2f}" in lead and "the gateway measured" in lead
    assert f"against every turn at System 2 (${costs['all_system2_usd']:.2f})" in lead
    assert f"95% interval {redos['extra_per_100']['low']:+.1f} to {redos['extra_per_100']['high']:+.1f}" in lead
    # the turn still open is said, not counted
    assert "data-note='pending'" in lead and "turns pending in 1 session(s): 1 (1 in progress)" in lead
    # the rounds are counted in whole rounds, from the value before the first
    thresholds = page[page.index('data-chart="thresholds"'):]
    thresholds = thresholds[:thresholds.index("</figure>")]
    assert ">before<" in thresholds and ">1<" in thresholds and ">2<" in thresholds
    assert not any(f">{tick}<" in thresholds for tick in ("0.25", "0.50", "1.25", "1.75"))
    assert "data-table='waiting'" in page and "<script" not in page
    assert not any(link in page for link in ('src="http', "src='http", 'href="http', "href='http", "url(http",
                                             "@import"))
    empty = tmp_path / "empty.html"
    Path(artibot_home).mkdir(exist_ok=True)
    cli("--home", str(tmp_path / "none"), "report")  # a missing home is an error, not an empty page
    assert not empty.exists()


def test_turns_without_the_gateway_or_exploration_draw_no_empty_axis(cli, artibot_home: Path, tmp_path: Path) -> None:
    """Nothing measured or explored is said in a sentence: a chart of zeros would have an axis
    around zero (matplotlib's -0.04 to 0.04) and nothing on it."""
    records = mixed(80)
    for r in records:
        r.pop("propensity", None)
        r.pop("usage", None)
    collect_many(records, home=artibot_home)
    out = tmp_path / "r.html"
    assert cli("report", "--out", str(out)).code == 0
    page = out.read_text()
    assert "data-empty='cost'" in page and "data-empty='explored'" in page and 'data-chart="success"' in page
    assert "No turn was explored yet." in page
    assert "\u22120.04" not in page and "−0.04" not in page  # matplotlib's minus sign
    headline = page[page.index("<p class='headline'>"):]
    headline = headline[:headline.index("</p>")]
    assert headline.startswith("<p class='headline'>No measured cost yet") and "Against System 2 alone, routing" in headline


def test_an_empty_home_says_so_at_the_top(cli, artibot_home: Path, tmp_path: Path) -> None:
    Path(artibot_home).mkdir(parents=True)
    out = tmp_path / "r.html"
    assert cli("report", "--out", str(out)).code == 0
    page = out.read_text()
    assert "<p class='headline'>No turns recorded yet" in page and "data-card" not in page
    assert "data-chart" not in page


LAPTOP, PHONE = (1366, 768), (390, 844)
"""The widths a person reads the page at: a common laptop screen, a common phone's (CSS pixels)."""

MEASURE = """
Array.from(document.querySelectorAll('figure.chart')).map(f => {
  const svg = f.querySelector('svg'); const box = svg ? svg.getBoundingClientRect() : null;
  const legend = svg && svg.querySelector('[id^="legend_"]');
  const axes = svg && svg.querySelector('[id^="axes_"] > [id^="patch_"]');
  const l = legend ? legend.getBoundingClientRect() : null, a = axes ? axes.getBoundingClientRect() : null;
  return {name: f.dataset.chart, width: box ? box.width : 0, height: box ? box.height : 0,
          right: box ? box.right : 0, shapes: svg ? svg.querySelectorAll('path, rect, use').length : 0,
          legend_bottom: l ? l.bottom : null, plot_top: a ? a.top : null,
          font_px: svg ? Math.min(...Array.from(svg.querySelectorAll('text')).map(
              t => parseFloat(getComputedStyle(t).fontSize) * box.width / svg.viewBox.baseVal.width)) : 0};
})"""
PAGE = """({lead: document.querySelector('section.lead').innerText,
  scroll_width: document.documentElement.scrollWidth,
  cards: Array.from(document.querySelectorAll('.card')).map(c => c.getBoundingClientRect().top)})"""


async def _cdp(port: int, url: str, shots: Path) -> dict[str, Any]:
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

            async def value(expression: str) -> Any:
                return (await call("Runtime.evaluate", returnByValue=True, expression=expression))["result"]["result"][
                    "value"]

            for domain in ("Network", "Runtime", "Log", "Page"):
                await call(f"{domain}.enable")
            seen: dict[str, Any] = {}
            for name, (width, height) in (("laptop", LAPTOP), ("phone", PHONE)):
                await call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                           mobile=name == "phone")
                events.clear() if name == "phone" else None
                await call("Page.navigate", url=url)
                deadline = time.monotonic() + 30
                while not any(e.get("method") == "Page.loadEventFired" for e in events):
                    assert time.monotonic() < deadline, "the page never loaded"
                    events.append(json.loads((await ws.receive()).data))
                await asyncio.sleep(0.5)  # late requests or errors, if any
                shot = await call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
                (shots / f"report-{name}.png").write_bytes(base64.b64decode(shot["result"]["data"]))
                seen[name] = {"events": list(events), "charts": await value(MEASURE), **await value(PAGE)}
            return seen


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_the_page_in_headless_chromium(cli, artibot_home: Path, tmp_path: Path) -> None:
    _home_with_history(artibot_home)
    page = tmp_path / "report.html"
    assert cli("report", "--out", str(page)).code == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    profile = tempfile.mkdtemp(dir=tmp_path)
    shots = Path(os.environ.get("ARTIBOT_SCREENSHOTS") or tmp_path)
    browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--disable-background-networking", "--disable-component-update",
                                "--disable-sync", "--disable-default-apps", "--hide-scrollbars",
                                f"--user-data-dir={profile}", f"--remote-debugging-port={port}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    try:
        seen = asyncio.run(asyncio.wait_for(_cdp(port, page.as_uri(), shots), timeout=120))
    finally:
        browser.terminate()
        browser.wait(timeout=20)
    for name, (width, _height) in (("laptop", LAPTOP), ("phone", PHONE)):
        view = seen[name]
        events = view["events"]
        requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
        assert requests == [page.as_uri()], requests  # the page itself and nothing else
        errors = [e for e in events if e.get("method") in ("Runtime.exceptionThrown",)
                  or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning"))
                  or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] in ("error", "warning"))]
        assert errors == []
        charts = {c["name"]: c for c in view["charts"]}
        assert set(charts) == {"cost", "success", "explored", "thresholds"}
        for chart in charts.values():
            assert chart["width"] > 300 and chart["height"] > 100 and chart["shapes"] > 10, (name, chart)
            assert chart["right"] <= width, (name, chart)  # the whole chart on the screen
            assert chart["font_px"] >= (8 if name == "phone" else 11), (name, chart)  # its smallest text, as drawn
            if chart["legend_bottom"] is not None:  # above the plot, covering no line or bar
                assert chart["legend_bottom"] <= chart["plot_top"] + 0.5, (name, chart)
        assert view["scroll_width"] <= width, (name, view["scroll_width"])  # nothing to scroll sideways
        assert view["lead"].startswith("Routing saved you $") and "redos per 100 turns" in view["lead"], view["lead"]
        tops = view["cards"]
        assert len(tops) == 3
        if name == "laptop":
            assert max(tops) - min(tops) < 1, tops  # paid, saved, redos side by side
        else:
            assert tops == sorted(tops) and tops[1] - tops[0] > 40, tops  # one above the other
    for name in ("laptop", "phone"):
        assert (shots / f"report-{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
