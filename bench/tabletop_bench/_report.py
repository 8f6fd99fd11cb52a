"""The suite's result: the rows, where they were measured, the table, and the saved JSON."""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import orjson

from tabletop_bench._cases import Row

__all__ = ["BenchResult", "environment", "format_table", "save_result"]

REPO = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, check=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def environment() -> dict[str, object]:
    """The machine, the Python and the git commit a run was measured on."""
    return {
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
        },
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation()},
        "git": {
            "commit": _git("rev-parse", "HEAD") or "unknown",
            "dirty": bool(_git("status", "--porcelain")),
        },
    }


@dataclass
class BenchResult:
    """One run of the suite.

    Attributes:
        mode: ``"full"`` or ``"smoke"``.
        rows: Every measurement, in table order.
        started: When the run started (UTC).
        seconds: How long the run took.
        environment: See :func:`environment`.
    """

    mode: str
    rows: list[Row] = field(default_factory=list)
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    seconds: float = 0.0
    environment: dict[str, object] = field(default_factory=environment)

    def to_json(self) -> dict[str, object]:
        """The result as JSON values."""
        return {
            "mode": self.mode,
            "started": self.started.isoformat(timespec="seconds"),
            "seconds": round(self.seconds, 3),
            **self.environment,
            "rows": [
                {
                    "case": row.case,
                    "subject": row.subject,
                    "us": None if row.value is None else round(row.value, 3),
                    "baseline_us": None if row.baseline is None else round(row.baseline, 3),
                    "baseline": row.baseline_label or None,
                    "ratio": None if row.ratio is None else round(row.ratio, 3),
                    "note": row.note or None,
                }
                for row in self.rows
            ],
        }


def _us(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.2f}"


def format_table(result: BenchResult) -> str:
    """The rows as a plain-text table: value, baseline and ratio, then notes."""
    env = result.environment
    python, git = env["python"], env["git"]
    assert isinstance(python, dict) and isinstance(git, dict)
    head = (
        f"tabletop bench ({result.mode}): Python {python['version']}, {platform.machine()}, "
        f"commit {str(git['commit'])[:10]}{' (dirty)' if git['dirty'] else ''}, {result.seconds:.1f} s"
    )
    widths = (46, 30, 12, 12, 9)
    lines = [
        head,
        "",
        f"{'case':<{widths[0]}} {'subject':<{widths[1]}} {'µs':>{widths[2]}} {'baseline µs':>{widths[3]}} "
        f"{'ratio':>{widths[4]}}",
    ]
    for row in result.rows:
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}x"
        baseline = "" if row.baseline is None else _us(row.baseline)
        lines.append(
            f"{row.case:<{widths[0]}} {row.subject:<{widths[1]}} {_us(row.value):>{widths[2]}} "
            f"{baseline:>{widths[3]}} {ratio:>{widths[4]}}"
        )
    notes: dict[tuple[str, str], list[str]] = {}
    for row in result.rows:
        against = f"against {row.baseline_label}" if row.baseline_label else ""
        text = "; ".join(part for part in (against, row.note) if part)
        if text:
            notes.setdefault((row.case, text), []).append(row.subject)
    if notes:
        lines += ["", "notes:"]
        for (case, text), subjects in notes.items():
            lines.append(f"  {case} ({', '.join(subjects)}): {text}")
    return "\n".join(lines)


def save_result(result: BenchResult, folder: Path) -> Path:
    """Write the result as ``<folder>/<date>-<commit>-<mode>.json`` and return the path."""
    git = result.environment["git"]
    assert isinstance(git, dict)
    name = f"{result.started:%Y%m%dT%H%M%SZ}-{str(git['commit'])[:10]}-{result.mode}.json"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(orjson.dumps(result.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
    return path
