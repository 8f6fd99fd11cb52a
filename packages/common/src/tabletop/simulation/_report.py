"""What a simulation found: per-game records, the summary, its table and its JSON form."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from pydantic import JsonValue

__all__ = ["GameRecord", "SimulationReport", "format_report"]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One simulated game.

    Attributes:
        index: The game's position in the run (0-based).
        seed: The game's PRNG seed.
        outcome: ``"win p1"`` (``"win p1+p3"`` for several winners), ``"draw"``,
            ``"abandoned"``, ``"unfinished"`` (the action limit was reached) or ``"error"``.
        actions: Actions recorded (submitted ones and the system actions they caused).
        submitted: Actions the bots submitted.
        problem: What went wrong, and where: ``after N actions: invariant ...`` (the state
            after the N-th submitted action broke it), ``at action N: <exception>`` (playing
            the N-th action raised) or ``stuck after N actions``; None if nothing did.
    """

    index: int
    seed: int
    outcome: str
    actions: int
    submitted: int
    problem: str | None = None


@dataclass(slots=True)
class SimulationReport:
    """The summary of a simulation run.

    Attributes:
        game: The game's name.
        logic_version: The game's logic version.
        players: Seats per game.
        bot: The bot in every seat.
        seed: The run's seed (game ``i`` is seeded ``seed + i``).
        invariants: Names of the invariants checked after every action.
        skipped: Notes on invariants that could not be checked (and why).
        records: One record per game, in order.
        elapsed: Wall time of the whole run in seconds.
        engine_seconds: Time spent in the engine (start and run).
        bot_seconds: Time the bots spent choosing.
        check_seconds: Time spent checking invariants.
    """

    game: str
    logic_version: str
    players: int
    bot: str
    seed: int
    invariants: list[str]
    skipped: list[str]
    records: list[GameRecord] = field(default_factory=list)
    elapsed: float = 0.0
    engine_seconds: float = 0.0
    bot_seconds: float = 0.0
    check_seconds: float = 0.0

    @property
    def outcomes(self) -> dict[str, int]:
        """How many games ended each way, most common first (ties by name)."""
        counts = Counter(record.outcome for record in self.records)
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    @property
    def total_actions(self) -> int:
        """Actions recorded over all games."""
        return sum(record.actions for record in self.records)

    @property
    def mean_length(self) -> float:
        """Mean game length in recorded actions (0 without games)."""
        return self.total_actions / len(self.records) if self.records else 0.0

    @property
    def max_length(self) -> int:
        """Longest game in recorded actions (0 without games)."""
        return max((record.actions for record in self.records), default=0)

    @property
    def actions_per_second(self) -> float:
        """Recorded actions per second of wall time, bots and checks included."""
        return self.total_actions / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def engine_us_per_action(self) -> float:
        """Microseconds of engine time per recorded action."""
        return self.engine_seconds * 1e6 / self.total_actions if self.total_actions else 0.0

    @property
    def problems(self) -> list[GameRecord]:
        """The games in which something went wrong."""
        return [record for record in self.records if record.problem is not None]

    @property
    def ok(self) -> bool:
        """True if no game had a problem."""
        return not self.problems

    def to_json(self) -> dict[str, JsonValue]:
        """The report as JSON values: settings, summary and every game's record."""
        return {
            "game": self.game,
            "logic_version": self.logic_version,
            "players": self.players,
            "bot": self.bot,
            "seed": self.seed,
            "games": len(self.records),
            "invariants": list(self.invariants),
            "skipped": list(self.skipped),
            "outcomes": dict(self.outcomes),
            "mean_length": round(self.mean_length, 3),
            "max_length": self.max_length,
            "total_actions": self.total_actions,
            "elapsed_seconds": round(self.elapsed, 6),
            "actions_per_second": round(self.actions_per_second, 1),
            "engine_us_per_action": round(self.engine_us_per_action, 2),
            "bot_seconds": round(self.bot_seconds, 6),
            "check_seconds": round(self.check_seconds, 6),
            "ok": self.ok,
            "records": [asdict(record) for record in self.records],
        }


def format_report(report: SimulationReport) -> str:
    """The report as a plain-text summary table (results, lengths, speed, invariants, problems)."""
    games = len(report.records)
    lines = [
        f"{report.game} (logic {report.logic_version}): {games} games, {report.players} players, "
        f"{report.bot} bots, seed {report.seed}",
        "",
        f"{'result':<24} {'games':>7} {'share':>7}",
    ]
    for outcome, count in report.outcomes.items():
        lines.append(f"{outcome:<24} {count:>7} {count / games:>7.1%}")
    lines += [
        "",
        f"{'length (actions)':<24} mean {report.mean_length:.1f}, max {report.max_length}",
        f"{'actions':<24} {report.total_actions} in {report.elapsed:.2f} s: "
        f"{report.actions_per_second:,.0f}/s with bots and checks",
        f"{'time':<24} engine {report.engine_seconds:.2f} s ({report.engine_us_per_action:.0f} µs/action), "
        f"bots {report.bot_seconds:.2f} s, checks {report.check_seconds:.2f} s",
        f"{'invariants':<24} {', '.join(report.invariants) or 'none'} after every action",
    ]
    lines += [f"{'skipped':<24} {note}" for note in report.skipped]
    problems = report.problems
    lines.append(f"{'problems':<24} {len(problems) or 'none'}")
    lines += [f"  game {record.index} (seed {record.seed}): {record.problem}" for record in problems[:10]]
    if len(problems) > 10:
        lines.append(f"  ... and {len(problems) - 10} more")
    return "\n".join(lines)
