"""Replay of real routing outcomes (RouteLLM's per-question files) under bandit feedback.

Each row is one prompt with the outcome of System 1 (``s1_success``) and System 2
(``s2_success``). A policy routes the prompt and is told only the outcome of the system
it chose. The complexity of a prompt is the product's own score
(:func:`artibot.hookpath.router.complexity.score`); its domain is the file's ``domain`` column.

:func:`load` reads a file; :func:`split` shuffles it (seeded) into a learning half and a
held-out half; :func:`stream` turns rows into a :class:`~experiments.simulate.Stream`
(success probabilities 0/1, so the outcome is the recorded one).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from artibot.hookpath.router.complexity import score
from experiments.simulate import Stream

DATA_ENV = "ARTIBOT_ROUTING_DATA"
"""The folder holding ``mmlu-dev.csv``, ``gsm8k.csv`` and ``mt-bench.csv``: RouteLLM's
per-question outcomes of a cheap and an expensive model (columns ``prompt``, ``domain``,
``s1_success``, ``s2_success``). The data is not in the repository (it is not ours to
redistribute), so its place is a setting; without it, the developers' layout (a
``shared/data/routing`` folder beside the checkout) is assumed."""
DATA_DIR = Path(os.environ.get(DATA_ENV) or Path(__file__).resolve().parents[2] / "shared/data/routing")


class MissingData(Exception):
    """A study's data file is not there; the message says where to put it (one line, no traceback)."""


def missing(path: Path) -> MissingData:
    return MissingData(f"{path} not found: put RouteLLM's routing outcome files (mmlu-dev.csv, gsm8k.csv, "
                       f"mt-bench.csv) in one folder and set {DATA_ENV} to it, or pass --data-dir")


def require(paths: list[Path]) -> None:
    """Stop before any worker starts when a file is missing (a worker's error would be a traceback)."""
    for path in paths:
        if not path.is_file():
            raise missing(path)


@dataclass(frozen=True, eq=False)
class Rows:
    """A routing outcome file: prompts, domains (codes into ``names``), complexity and both outcomes."""

    prompts: tuple[str, ...]
    names: tuple[str, ...]
    domain: np.ndarray
    complexity: np.ndarray
    s1: np.ndarray
    s2: np.ndarray

    def __len__(self) -> int:
        return len(self.prompts)

    def take(self, index: np.ndarray) -> "Rows":
        return Rows(tuple(self.prompts[i] for i in index.tolist()), self.names, self.domain[index],
                    self.complexity[index], self.s1[index], self.s2[index])


def load(path: Path) -> Rows:
    """Read one outcome file (the format of :data:`DATA_ENV`'s files)."""
    require([path])
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise ValueError(f"{path} has no rows")
    names = tuple(sorted({r["domain"] for r in rows}))
    code = {n: i for i, n in enumerate(names)}
    return Rows(
        prompts=tuple(r["prompt"] for r in rows),
        names=names,
        domain=np.array([code[r["domain"]] for r in rows], np.int64),
        complexity=np.array([score(r["prompt"]).score for r in rows]),
        s1=np.array([int(r["s1_success"]) for r in rows], np.int8),
        s2=np.array([int(r["s2_success"]) for r in rows], np.int8),
    )


def split(rows: Rows, seed: int, learn_share: float = 0.5) -> tuple[Rows, Rows]:
    """Shuffle (seeded) and cut into ``(learning rows, held-out rows)``."""
    order = np.random.default_rng(seed).permutation(len(rows))
    cut = int(round(learn_share * len(rows)))
    return rows.take(order[:cut]), rows.take(order[cut:])


def stream(rows: Rows, price: float, seed: int, passes: int = 1) -> Stream:
    """The learning rows as a request stream, ``passes`` times, each pass in a new seeded order."""
    rng = np.random.default_rng(seed)
    order = np.concatenate([rng.permutation(len(rows)) for _ in range(passes)])
    n = len(order)
    return Stream(rows.names, rows.domain[order], np.round(rows.complexity[order], 6),
                  rows.s1[order].astype(float), rows.s2[order].astype(float), np.full(n, 0.5),
                  rng.random(n), rng.lognormal(0.0, 0.3, n), price,
                  texts=tuple(rows.prompts[i] for i in order.tolist()))


def hindsight_gain(rows: Rows) -> np.ndarray:
    """Per domain, System 2's accuracy minus System 1's, with full information (a table fitted in hindsight)."""
    out = np.zeros(len(rows.names))
    for d in range(len(rows.names)):
        m = rows.domain == d
        if m.any():
            out[d] = rows.s2[m].mean() - rows.s1[m].mean()
    return out
