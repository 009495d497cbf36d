"""artibot: make an AI coding agent's System 1 / System 2 router learn from experience."""

__version__ = "0.1.0"
