"""What a response's tokens cost, from a per-model price table (pure).

Prices are US dollars per million tokens: ``input``, ``output``, ``cacheWrite`` (a
five-minute cache write) and ``cacheRead``. A model is priced by the longest table key
that its name starts with, so ``claude-sonnet-4-5-20250929`` takes ``claude-sonnet-4``'s
row. A model with no row is priced as ``null`` (counted, not guessed).

>>> table = PriceTable.shipped()
>>> round(table.cost("claude-sonnet-4-5", Usage(input_tokens=1000, output_tokens=500,
...       cache_read_input_tokens=10000)), 6)
0.0135
>>> table.cost("gpt-4o", Usage(input_tokens=1)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from artibot.gateway.usage import Usage

if TYPE_CHECKING:
    from artibot.config.settings import GatewayPricingSettings

CHECKED = "2025-11-24"
"""The day the shipped prices were copied from Anthropic's published price list (the OpenAI
rows: from OpenAI's model pages, 2026-12-03)."""

SHIPPED: dict[str, dict[str, float]] = {
    # $/MTok. Cache writes are 1.25x input (five-minute cache), reads 0.1x input.
    "claude-opus-4-5": {"input": 5.0, "output": 25.0, "cacheWrite": 6.25, "cacheRead": 0.5},
    "claude-opus-4-1": {"input": 15.0, "output": 75.0, "cacheWrite": 18.75, "cacheRead": 1.5},
    "claude-opus-4": {"input": 15.0, "output": 75.0, "cacheWrite": 18.75, "cacheRead": 1.5},
    "claude-opus": {"input": 5.0, "output": 25.0, "cacheWrite": 6.25, "cacheRead": 0.5},
    "claude-sonnet": {"input": 3.0, "output": 15.0, "cacheWrite": 3.75, "cacheRead": 0.3},
    "claude-haiku-4": {"input": 1.0, "output": 5.0, "cacheWrite": 1.25, "cacheRead": 0.1},
    "claude-3-5-haiku": {"input": 0.8, "output": 4.0, "cacheWrite": 1.0, "cacheRead": 0.08},
    "claude-haiku": {"input": 1.0, "output": 5.0, "cacheWrite": 1.25, "cacheRead": 0.1},
    # Gemini's implicit cache: no write surcharge, cached input at a quarter of the input price
    # (prompts up to 200k tokens).
    "gemini-2.5-pro": {"input": 1.25, "output": 10.0, "cacheWrite": 1.25, "cacheRead": 0.3125},
    "gemini-2.5-flash-lite": {"input": 0.1, "output": 0.4, "cacheWrite": 0.1, "cacheRead": 0.025},
    "gemini-2.5-flash": {"input": 0.3, "output": 2.5, "cacheWrite": 0.3, "cacheRead": 0.075},
    # OpenAI (Codex CLI through the Responses API): automatic caching, cached input at a tenth of
    # the input price, no write surcharge reported (the usage has no write count); GPT-6 Astra's
    # published write price is for explicit caching (prompts up to 272k tokens).
    "gpt-6-astra": {"input": 10.0, "output": 50.0, "cacheWrite": 12.5, "cacheRead": 1.0},
    "gpt-5.2": {"input": 1.75, "output": 14.0, "cacheWrite": 1.75, "cacheRead": 0.175},
    "gpt-5.1": {"input": 1.25, "output": 10.0, "cacheWrite": 1.25, "cacheRead": 0.125},
    "gpt-5": {"input": 1.25, "output": 10.0, "cacheWrite": 1.25, "cacheRead": 0.125},
    "gpt-5-mini": {"input": 0.25, "output": 2.0, "cacheWrite": 0.25, "cacheRead": 0.025},
    "gpt-5.1-codex-mini": {"input": 0.25, "output": 2.0, "cacheWrite": 0.25, "cacheRead": 0.025},
    "gpt-5-nano": {"input": 0.05, "output": 0.4, "cacheWrite": 0.05, "cacheRead": 0.005},
}
"""Newer releases of a family take the family's latest known price (``claude-opus``,
``claude-sonnet``, ``claude-haiku``) until the table says otherwise."""

KEYS = ("input", "output", "cacheWrite", "cacheRead")


@dataclass(frozen=True)
class PriceTable:
    rows: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    checked: str | None = None

    @classmethod
    def shipped(cls) -> "PriceTable":
        return cls(SHIPPED, CHECKED)

    def with_overrides(self, rows: Mapping[str, Mapping[str, float]]) -> "PriceTable":
        return PriceTable({**self.rows, **rows}, self.checked if not rows else f"{self.checked} + config")

    def row(self, model: str | None) -> Mapping[str, float] | None:
        if not model:
            return None
        best = None
        for key in self.rows:
            if model.startswith(key) and (best is None or len(key) > len(best)):
                best = key
        return self.rows[best] if best is not None else None

    def cost(self, model: str | None, usage: Usage) -> float | None:
        """US dollars for ``usage`` on ``model``; None when the model has no price."""
        row = self.row(model)
        if row is None:
            return None
        return (usage.input_tokens * row["input"] + usage.output_tokens * row["output"]
                + usage.cache_creation_input_tokens * row["cacheWrite"]
                + usage.cache_read_input_tokens * row["cacheRead"]) / 1e6


def check_rows(key: str, value: Any) -> tuple[dict[str, dict[str, float]] | None, str | None]:
    """Config checker for ``gateway.prices``: ``{model prefix: {input, output, cacheWrite, cacheRead}}``."""
    if not isinstance(value, Mapping):
        return None, f"{key} must be an object of model name prefixes, not {type(value).__name__}"
    out: dict[str, dict[str, float]] = {}
    for model, row in value.items():
        if not isinstance(row, Mapping) or set(row) != set(KEYS):
            return None, f"{key}.{model} must be an object with exactly {', '.join(KEYS)} ($ per million tokens)"
        for k in KEYS:
            v = row[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 10_000:
                return None, f"{key}.{model}.{k} must be a number of dollars per million tokens in [0, 10000]"
        out[str(model)] = {k: float(row[k]) for k in KEYS}
    return out, None


def configured(settings: GatewayPricingSettings) -> PriceTable:
    """The shipped table with the config's ``gateway.pricing.models`` over it."""
    return PriceTable.shipped().with_overrides(settings.models)
