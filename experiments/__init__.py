"""Studies of how well artibot's router learns: worlds, replay, policies, metrics.

Each ``run_*.py`` is one seeded study with an ``Args`` dataclass; ``scripts/run_experiments.py``
runs them all. See ``experiments/README.md`` for the results.
"""
