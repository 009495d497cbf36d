"""Tables (markdown) and plots (PNG, matplotlib) of the studies' results.

Plots are optional: :func:`plots_available` is False when matplotlib is not installed
(the CI installs only the ``dev`` extra), and the studies then skip them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from experiments.metrics import mean_sd

COLORS = {"oracle": "black", "always-s1": "tab:gray", "always-s2": "tab:brown", "static-0.4": "tab:olive",
          "seed": "tab:red", "evidence": "tab:blue", "thompson": "tab:green", "epsilon-greedy": "tab:purple",
          "hindsight-table": "black", "defaults": "tab:blue", "readme-0.5": "tab:cyan",
          "table (full information, first half)": "black", "table (hindsight)": "dimgray"}


LABELS = {"defaults": "shipped defaults", "evidence": "evidence (shipped)", "seed": "seed rule",
          "thompson": "Thompson sampling", "epsilon-greedy": "ε-greedy", "always-s1": "always System 1",
          "always-s2": "always System 2", "static-0.4": "fixed threshold 0.4",
          "hindsight-table": "per-subject table, full information",
          "readme-0.5": "earlier README's config (exploration 0.05)", "oracle": "oracle",
          "table (full information, first half)": "per-subject table, full information",
          "table (hindsight)": "per-subject table, hindsight"}
"""The names the README and experiments/README.md use, for every legend."""


def label(name: str) -> str:
    return LABELS.get(name, name)


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, ax: Any, path: Path, title: str | None = None, note: str = "",
          **legend: Any) -> None:
    """Title and legend on ``ax`` (when given), ``note`` under the plot (which way is better,
    what the bands or bars are), then the figure written to ``path`` and closed."""
    if ax is not None:
        ax.set_title(title)
        ax.legend(**legend)
    if note:
        fig.text(0.01, 0.005, note, fontsize=7, color="dimgray", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04 if note else 0, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)

def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def aggregate(runs: Sequence[Mapping[str, Mapping[str, Any]]], columns: Sequence[tuple[str, str, str]],
              policies: Sequence[str]) -> str:
    """A markdown table: one row per policy, ``mean ± sd`` over runs for each ``(key, header, format)``."""
    rows = []
    for name in policies:
        present = [r[name] for r in runs if name in r]
        if not present:
            continue
        rows.append([name] + [mean_sd([p.get(key) for p in present], fmt) for key, _, fmt in columns])
    return markdown_table(["policy"] + [h for _, h, _ in columns], rows)


def regret_curves(path: Path, curves: Mapping[str, list[np.ndarray]], step: int, title: str,
                  drift_at: int | None = None) -> None:
    """Cumulative regret against requests, mean over seeds with a band of one sd."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, runs in curves.items():
        arr = np.asarray(runs, dtype=float)
        x = np.arange(arr.shape[1]) * step
        mean, sd = arr.mean(axis=0), arr.std(axis=0)
        ax.plot(x, mean, label=label(name), color=COLORS.get(name))
        ax.fill_between(x, mean - sd, mean + sd, alpha=0.15, color=COLORS.get(name))
    if drift_at is not None:
        ax.axvline(drift_at, color="gray", linestyle=":", label="drift")
    ax.set_xlabel("requests")
    ax.set_ylabel("cumulative regret against the oracle (utility; lower is better)")
    ax.set_yscale("symlog", linthresh=1.0)
    _save(plt, fig, ax, path, title, note="Lines: mean over seeds; bands: ± 1 sd over seeds. Lower is better.",
          fontsize=8, ncol=2)


def threshold_trajectories(path: Path, domains: Sequence[str], nights: Sequence[int],
                           trajectories: Mapping[str, Sequence[Mapping[str, float]]],
                           oracle: Mapping[str, Sequence[float]], title: str) -> None:
    """One panel per domain: each policy's threshold after every night, and the oracle's."""
    plt = _pyplot()
    cols = 3
    rows = (len(domains) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.2 * rows), sharex=True, sharey=True, squeeze=False)
    for ax, d in zip(axes.flat, domains):
        for name, traj in trajectories.items():
            ax.plot(nights, [t[d] for t in traj], label=label(name), color=COLORS.get(name), drawstyle="steps-post")
        ax.plot(nights, oracle[d], color="black", linestyle="--", label="oracle", drawstyle="steps-post")
        ax.set_title(d, fontsize=10)
        ax.set_ylim(0.05, 0.95)
    for ax in axes.flat[len(domains):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel("requests")
        ax.set_ylabel("threshold")
    fig.suptitle(title)
    _save(plt, fig, None, path, note="Each policy's threshold after every night (one seed); closer to the "
          "oracle's dashed line is better.")


def share_vs_success(path: Path, points: Mapping[str, list[tuple[float, float]]],
                     frontier: tuple[np.ndarray, np.ndarray] | None, title: str, ylabel: str = "success") -> None:
    """Each policy's (System 2 share, success) per seed, with the oracle's frontier."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    if frontier is not None:
        ax.plot(frontier[0], frontier[1], color="black", linestyle="--", label="oracle frontier")
    for name, pts in points.items():
        arr = np.asarray(pts, dtype=float)
        ax.scatter(arr[:, 0], arr[:, 1], label=label(name), color=COLORS.get(name), s=22)
    ax.set_xlabel("System 2 share (left is cheaper)")
    ax.set_ylabel(f"{ylabel} (higher is better)")
    _save(plt, fig, ax, path, title, note="One point per seed. Up and to the left is better.", fontsize=8)


def pgr_curves(path: Path, curves: Mapping[str, tuple[np.ndarray, np.ndarray]], title: str) -> None:
    """PGR against System 2 share (RouteLLM's plot); the diagonal is a random router."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.plot([0, 1], [0, 1], color="gray", linestyle=":", label="random")
    for name, (share, curve) in curves.items():
        ax.plot(share, curve, label=label(name), color=COLORS.get(name))
    ax.set_xlabel("System 2 share")
    ax.set_ylabel("PGR: share of System 2's gain recovered (higher is better)")
    _save(plt, fig, ax, path, title, note="One seed; above the diagonal (a random router) is better.", fontsize=8)


def online_bars(path: Path, scores: Mapping[str, Mapping[str, Sequence[float]]], title: str) -> None:
    """Grouped bars: per data set, each policy's mean score with its sd over seeds."""
    plt = _pyplot()
    datasets = list(scores)
    names = list(dict.fromkeys(n for d in datasets for n in scores[d] if scores[d][n]))
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / max(1, len(names))
    for j, name in enumerate(names):
        vals = [scores[d].get(name) or [np.nan] for d in datasets]
        x = np.arange(len(datasets)) + (j - (len(names) - 1) / 2) * width
        ax.bar(x, [np.mean(v) for v in vals], width, yerr=[np.std(v) for v in vals], label=label(name),
               color=COLORS.get(name), capsize=2)
    ax.axhline(0, color="gray", linewidth=0.8)
    ax.set_xticks(np.arange(len(datasets)), datasets)
    ax.set_ylabel("PGR − System 2 share (higher is better; random = 0)")
    _save(plt, fig, ax, path, title, note="Bars: mean over seeds; error bars: ± 1 sd over seeds. Higher is better.",
          fontsize=7, ncol=3)


def online_curves(path: Path, curves: Mapping[str, Sequence[Sequence[float]]], night: int, title: str) -> None:
    """Each policy's score per night of the pass (mean over seeds)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, runs in curves.items():
        if not runs or not runs[0]:
            continue
        arr = np.asarray(runs, dtype=float)
        x = (np.arange(arr.shape[1]) + 1) * night
        ax.plot(x, arr.mean(axis=0), label=label(name), color=COLORS.get(name), marker=".")
    ax.axhline(0, color="gray", linewidth=0.8)
    ax.set_xlabel("rows of the pass")
    ax.set_ylabel("PGR − System 2 share of the night (higher is better)")
    _save(plt, fig, ax, path, title, note="Mean over seeds (no band: nights are short and noisy). Random = 0.",
          fontsize=8)
