"""Many processes appending at once, with readers and an archive mover: nothing lost, nothing doubled."""

from __future__ import annotations

import json
import multiprocessing as mp
import random
import traceback
from pathlib import Path

import orjson
import pytest

from artibot.experience import validate
from artibot.store.log.experiences import ExperienceLog
from artibot.store.home import Home
from tests import factories

pytestmark = pytest.mark.slow
ctx = mp.get_context("fork")

WRITERS = 8
PER_WRITER = 200


def record(writer: int, n: int) -> dict:
    return validate(factories.record(n, id=f"w{writer}-{n:04d}", input=f"writer {writer} record {n}", domain="data",
                                     routed_to="system2", latency_ms=n, confidence=0.5))


def writer(root: str, index: int, seed: int, start, errors) -> None:
    try:
        rng = random.Random(seed)
        log = ExperienceLog(Home(Path(root)))
        start.wait(30)
        n = 0
        while n < PER_WRITER:
            size = 1 if rng.random() < 0.6 else rng.randint(2, 12)
            batch = [record(index, i) for i in range(n, min(n + size, PER_WRITER))]
            assert log.append(batch) == len(batch)
            n += len(batch)
    except BaseException:  # noqa: BLE001 - a thread's failure, whatever it is, fails the test below
        errors.put(f"writer {index}: {traceback.format_exc()}")


def reader(root: str, index: int, start, stop, results, append_only: bool) -> None:
    reads = 0
    problems: list[str] = []
    previous: list[str] = []
    log = ExperienceLog(Home(Path(root)))
    start.wait(30)
    while not stop.is_set():
        try:
            ids = [r["id"] for r in log.read()]
        except BaseException:  # noqa: BLE001 - a thread's failure, whatever it is, fails the test below
            problems.append(traceback.format_exc())
            break
        reads += 1
        if append_only and ids[: len(previous)] != previous:
            problems.append(f"read {reads} is not an extension of the read before it")
        if len(set(ids)) != len(ids):
            problems.append(f"read {reads} holds a duplicate id")
        previous = ids
    results.put((index, reads, problems))


def mover(root: str, start, stop, results) -> None:
    rounds = 0
    problems: list[str] = []
    log = ExperienceLog(Home(Path(root)))
    start.wait(30)
    while not stop.is_set():
        try:
            ids = [r["id"] for r in log.read()]
            if ids:
                log.move_to_archive(ids[: len(ids) // 2 + 1], f"round-{rounds:04d}")
                rounds += 1
        except BaseException:  # noqa: BLE001 - a thread's failure, whatever it is, fails the test below
            problems.append(traceback.format_exc())
            break
    results.put(("mover", rounds, problems))


def run(root, *, writers: int, readers: int, with_mover: bool = False):
    start = ctx.Barrier(writers + readers + int(with_mover))
    stop = ctx.Event()
    errors, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(str(root), i, 1000 + i, start, errors)) for i in range(writers)]
    watchers = [ctx.Process(target=reader, args=(str(root), i, start, stop, results, not with_mover))
                for i in range(readers)]
    if with_mover:
        watchers.append(ctx.Process(target=mover, args=(str(root), start, stop, results)))
    for p in procs + watchers:
        p.start()
    for p in procs:
        p.join(120)
    stop.set()
    outcome = [results.get(timeout=60) for _ in watchers]
    for p in watchers:
        p.join(30)
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert not failures, failures[0]
    assert all(p.exitcode == 0 for p in procs + watchers)
    return outcome


def expected(writers: int) -> set[str]:
    return {f"w{w}-{n:04d}" for w in range(writers) for n in range(PER_WRITER)}


def test_eight_writers_and_two_readers(artibot_home):
    outcome = run(artibot_home, writers=WRITERS, readers=2)
    for _, reads, problems in outcome:
        assert problems == [], problems[0]
        assert reads > 0
    data = Home(artibot_home).experiences.read_bytes()
    records = json.loads(data)  # plain json, as any other tool would read it
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids)) == WRITERS * PER_WRITER
    assert set(ids) == expected(WRITERS)
    for w in range(WRITERS):  # each writer's records stay in its own order
        mine = [i for i in ids if i.startswith(f"w{w}-")]
        assert mine == sorted(mine)


def test_writers_racing_an_archive_mover_lose_nothing(artibot_home):
    outcome = run(artibot_home, writers=4, readers=1, with_mover=True)
    for _, count, problems in outcome:
        assert problems == [], problems[0]
    home = Home(artibot_home)
    left = [r["id"] for r in ExperienceLog(home).read()]
    archived = [r["id"] for p in sorted(home.archive_dir.glob("round-*.json"))
                for r in orjson.loads(p.read_bytes())["records"]]
    everything = left + archived
    assert len(everything) == len(set(everything)), "a record is both in the log and an archive, or twice"
    assert set(everything) == expected(4)
    assert archived, "the mover never ran while writers were appending"
