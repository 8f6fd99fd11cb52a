"""The boundary fuzz figures per game: no tabletop import, so a conftest may load it early."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Figures:
    """What a fuzz run saw for one game: the figures the issue note reports."""

    payloads: int = 0
    calls: int = 0
    applied: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    other_exceptions: list[str] = field(default_factory=list)
    mutations: int = 0
    slowest: float = 0.0
    agreements: int = 0

    def line(self, name: str) -> str:
        """One summary line."""
        codes = ", ".join(f"{code} {count}" for code, count in sorted(self.codes.items()))
        return (
            f"{name}: {self.payloads} payloads, {self.calls} engine calls (JSON body, and decoded object), "
            f"{self.agreements} schema/parser agreements; "
            f"{self.applied} applied, typed errors: {codes}; other exceptions {len(self.other_exceptions)}, "
            f"mutations {self.mutations}, slowest call {self.slowest * 1000:.1f} ms"
        )


FIGURES: dict[str, Figures] = {}
"""Per game (and tier), filled by tests/boundary and printed in the terminal summary."""
