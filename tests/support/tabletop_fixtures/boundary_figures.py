"""The boundary fuzz figures per game: no tabletop import, so a conftest may load it early.

Each test records its figures on its own report (``record_property``), so the terminal summary
can merge them whichever process ran the test (pytest-xdist runs tests in worker processes).
"""

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

    def to_json(self) -> dict[str, object]:
        """The figures as a JSON-able mapping (what a report carries between processes)."""
        return {
            "payloads": self.payloads,
            "calls": self.calls,
            "applied": self.applied,
            "codes": dict(self.codes),
            "other_exceptions": list(self.other_exceptions),
            "mutations": self.mutations,
            "slowest": self.slowest,
            "agreements": self.agreements,
        }

    def merge(self, data: dict[str, object]) -> None:
        """Add the figures of another test of the same game and tier (``to_json`` output)."""
        payloads, calls, applied = data["payloads"], data["calls"], data["applied"]
        mutations, slowest, agreements = data["mutations"], data["slowest"], data["agreements"]
        codes, others = data["codes"], data["other_exceptions"]
        assert isinstance(payloads, int) and isinstance(calls, int) and isinstance(applied, int)
        assert isinstance(mutations, int) and isinstance(agreements, int)
        assert isinstance(slowest, float | int) and isinstance(codes, dict) and isinstance(others, list)
        self.payloads = max(self.payloads, payloads)
        self.calls += calls
        self.applied += applied
        self.codes.update({str(code): int(count) for code, count in codes.items()})
        self.other_exceptions += [str(other) for other in others]
        self.mutations += mutations
        self.slowest = max(self.slowest, float(slowest))
        self.agreements += agreements


PROPERTY = "boundary-figures"
"""The ``user_properties`` key of a report's figures: ``(game and tier, Figures.to_json())``."""


def merged(properties: list[tuple[str, object]]) -> dict[str, Figures]:
    """The figures per game and tier, merged from the reports' ``user_properties``."""
    figures: dict[str, Figures] = {}
    for key, value in properties:
        if key != PROPERTY:
            continue
        assert isinstance(value, tuple | list) and len(value) == 2
        name, data = value
        assert isinstance(name, str) and isinstance(data, dict)
        figures.setdefault(name, Figures()).merge(data)
    return figures
