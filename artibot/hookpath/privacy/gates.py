"""The bookkeeping of a scan: the claims (non-overlapping findings) and the gates that
decide which rules a text needs.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    from collections.abc import Sequence

from .rules import Finding, _Rule


def bisect_left(a: list[int], x: int) -> int:
    """:func:`bisect.bisect_left` on a sorted list of ints. Not the module's: the prompt hook
    then loads neither ``bisect`` nor its C extension ``_bisect`` (docs/benchmarks.md, "Costs
    behind the code"), and
    the lists searched here hold one entry per finding."""
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


class _Claims:
    """Non-overlapping findings, kept sorted by start."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.findings: list[Finding] = []

    def covers(self, pos: int) -> bool:
        i = bisect_left(self.starts, pos + 1)
        return bool(i) and self.findings[i - 1].end > pos

    def add(self, f: Finding) -> None:
        i = bisect_left(self.starts, f.start)
        if f.end <= f.start or (i and self.findings[i - 1].end > f.start):
            return
        if i < len(self.starts) and self.starts[i] < f.end:
            return
        self.starts.insert(i, f.start)
        self.findings.insert(i, f)

    def at(self, pos: int) -> Finding | None:
        i = bisect_left(self.starts, pos + 1)
        return self.findings[i - 1] if i and self.findings[i - 1].end > pos else None

    def take_over(self, f: Finding) -> None:
        """Add ``f``, taking over the findings it overlaps (and their extent)."""
        lo = bisect_left(self.starts, f.start)
        if lo and self.findings[lo - 1].end > f.start:
            lo -= 1
        hi = lo
        while hi < len(self.findings) and self.findings[hi].start < f.end:
            hi += 1
        if hi > lo:
            f = Finding(f.kind, min(f.start, self.starts[lo]), max(f.end, self.findings[hi - 1].end))
        self.starts[lo:hi] = [f.start]
        self.findings[lo:hi] = [f]


class _Gates:
    """The rules of one priority-ordered tuple that can match a text: those with no gate and
    those with a gate that occurs in it.

    Each distinct gate string is looked up once per call by ``filter`` (in C). Checking each
    rule's gates in a Python loop has a fixed cost per call even on an empty text; a single
    ``re`` alternation of all gates is no cheaper on prose when nothing matches, and could
    only skip all gated rules or none. The price: a rule with several gates no longer stops
    at the first that occurs, a few extra scans on secret-dense text (the figures:
    docs/benchmarks.md, "Costs behind the code").

    Each lookup scans the text, so with ~150 gates the lookups alone would cost
    more than all the rules on ordinary text: a rule may name a ``family``, a short string
    that every match of it contains (``$`` for a password hash, ``-p`` for ``mysql -p...``),
    and its gates are looked up only when the family string occurs.
    """

    __slots__ = ("gates", "opened_by", "ungated", "rank", "families")

    def __init__(self, rules: tuple[_Rule, ...]) -> None:
        self.opened_by: dict[str, list[_Rule]] = {}
        for rule in rules:
            for gate in rule.gate:
                self.opened_by.setdefault(gate, []).append(rule)
        families: dict[str, list[str]] = {}
        top: list[str] = []
        for gate, opened in self.opened_by.items():
            kinds = {rule.family for rule in opened}
            if len(kinds) == 1 and "" not in kinds:  # a gate shared with an unrelated rule stays on top
                families.setdefault(kinds.pop(), []).append(gate)
            else:
                top.append(gate)
        self.gates = tuple(top)
        self.families = {family: tuple(gates) for family, gates in families.items()}
        self.ungated = tuple(rule for rule in rules if not rule.gate)
        self.rank = {rule: i for i, rule in enumerate(rules)}

    def present(self, text: str) -> list[str]:
        """The gate strings that occur in ``text``."""
        hits = list(filter(text.__contains__, self.gates))
        for family in filter(text.__contains__, self.families):
            hits += filter(text.__contains__, self.families[family])
        return hits

    def due(self, text: str) -> Sequence[_Rule]:
        return self.rules_for(self.present(text))

    def rules_for(self, hits: Sequence[str]) -> Sequence[_Rule]:
        if not hits:
            return self.ungated
        due = {rule for gate in hits for rule in self.opened_by[gate]}
        due.update(self.ungated)
        return sorted(due, key=self.rank.__getitem__)
