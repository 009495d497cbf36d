"""Every plot says what it measures, which way is better, what its bands or bars are, in the README's names."""

from __future__ import annotations

import numpy as np
import pytest

from experiments import report

pytestmark = pytest.mark.skipif(not report.plots_available(), reason="matplotlib is not installed (the experiments extra)")


def _texts(fig) -> str:
    parts = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        parts += [ax.get_ylabel(), ax.get_xlabel(), ax.get_title()]
        legend = ax.get_legend()
        if legend is not None:
            parts += [t.get_text() for t in legend.get_texts()]
    return " | ".join(parts)


@pytest.fixture
def captured(monkeypatch):
    seen = {}
    real = report._save

    def save(plt, fig, ax, path, title=None, note="", **legend):
        real(plt, fig, ax, path, title, note, **legend)
        seen[path.name] = _texts(fig)

    monkeypatch.setattr(report, "_save", save)
    return seen


def test_every_plot_is_labelled(tmp_path, captured):
    curves = {"seed": [np.arange(5.0), np.arange(5.0) * 2], "evidence": [np.arange(5.0), np.arange(5.0)]}
    report.regret_curves(tmp_path / "regret.png", curves, 100, "W1")
    report.threshold_trajectories(tmp_path / "traj.png", ["docs"], [0, 1], {"evidence": [{"docs": 0.4}, {"docs": 0.5}]},
                                  {"docs": [0.5, 0.5]}, "thresholds")
    report.share_vs_success(tmp_path / "share.png", {"defaults": [(0.3, 0.8)]}, None, "points")
    report.pgr_curves(tmp_path / "pgr.png", {"thompson": (np.array([0, 1.0]), np.array([0, 1.0]))}, "pgr")
    report.online_bars(tmp_path / "bars.png", {"mmlu": {"defaults": [0.2, 0.3], "seed": [0.0, 0.01]}}, "online")
    report.online_curves(tmp_path / "nights.png", {"defaults": [[0.1, 0.2]]}, 500, "nights")
    assert len(captured) == 6
    for name, text in captured.items():
        assert "better" in text, (name, text)  # which direction is better
        assert "seed" in text.lower(), (name, text)  # what the points, bands or bars are over
    assert "± 1 sd over seeds" in captured["regret.png"] and "± 1 sd over seeds" in captured["bars.png"]
    assert "shipped defaults" in captured["bars.png"] and "seed rule" in captured["bars.png"]
    assert "evidence (shipped)" in captured["regret.png"]
