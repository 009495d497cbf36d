"""The routing thresholds as one value: the default and one learned threshold per domain.

Here, not in :mod:`artibot.learning`, because the router reads them on every prompt (in
the Claude Code hook, which imports no learning code and no numpy); the learner computes
new ones. ``from_json`` is the one decoder of ``thresholds.json``'s content.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from artibot.shapes import ThresholdsJson

DEFAULT_KEY = "*"
"""The key under which the default threshold appears in steps and net changes."""


def domain_label(key: str) -> str:
    """How a person reads a threshold's key: the default threshold's ``"*"`` is ``default``.

    >>> domain_label(DEFAULT_KEY), domain_label("law")
    ('default', 'law')
    """
    return "default" if key == DEFAULT_KEY else key


def _fraction(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 1:
        raise ValueError(f"thresholds.{where} must be a finite number from 0 to 1, not {value!r}")
    return float(value)


@dataclass(frozen=True)
class Thresholds:
    """The default threshold and one learned threshold per domain (kept sorted by name)."""

    default: float
    domains: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "default", float(self.default))
        object.__setattr__(self, "domains", {k: float(v) for k, v in sorted(self.domains.items())})

    def __hash__(self) -> int:
        return hash((self.default, tuple(self.domains.items())))

    def for_domain(self, domain: str) -> float:
        return self.domains.get(domain, self.default)

    def to_json(self) -> ThresholdsJson:
        return {"default": self.default, "domains": dict(self.domains)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Thresholds:
        """Raises ValueError naming the field when the shape is wrong.

        >>> Thresholds.from_json({"default": 0.4, "domains": {"law": 0.3}}).for_domain("law")
        0.3
        >>> Thresholds.from_json({"default": 2, "domains": {}})
        Traceback (most recent call last):
        ValueError: thresholds.default must be a finite number from 0 to 1, not 2
        """
        if not isinstance(d, Mapping):
            raise ValueError(f"thresholds must be a JSON object, not {type(d).__name__}")
        default = _fraction(d.get("default"), "default")
        domains = d.get("domains")
        if not isinstance(domains, Mapping):
            raise ValueError("thresholds.domains must be a JSON object")
        return cls(default, {str(name): _fraction(value, f"domains.{name}") for name, value in domains.items()})
