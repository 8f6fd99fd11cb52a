"""Simulation: many seeded bot games with invariants checked after every action.

``tabletop simulate <game> -n N --seed S`` is the command-line front end.

Example:
    >>> from tabletop.simulation import format_report, simulate
    >>> report = simulate("tic-tac-toe", games=5, seed=1, schemas=None)
    >>> report.ok and len(report.records) == 5 and sum(report.outcomes.values()) == 5
    True
    >>> "result" in format_report(report)
    True
"""

from tabletop.simulation._invariants import (
    Invariant,
    InvariantError,
    InvariantFactory,
    Step,
    checksum_invariant,
    default_invariants,
    game_invariant,
    hydration_invariant,
    json_schema_invariant,
    register_invariant,
    run_invariants,
    state_model_invariant,
    unregister_invariant,
    view_leak_invariant,
)
from tabletop.simulation._report import GameRecord, SimulationReport, format_report
from tabletop.simulation._runner import (
    BOT_KINDS,
    BotFactory,
    bot_factory,
    default_players,
    simulate,
    simulation_key,
)

__all__ = [
    "BOT_KINDS",
    "BotFactory",
    "GameRecord",
    "Invariant",
    "InvariantError",
    "InvariantFactory",
    "SimulationReport",
    "Step",
    "bot_factory",
    "checksum_invariant",
    "default_invariants",
    "default_players",
    "format_report",
    "game_invariant",
    "hydration_invariant",
    "json_schema_invariant",
    "register_invariant",
    "run_invariants",
    "simulate",
    "simulation_key",
    "state_model_invariant",
    "unregister_invariant",
    "view_leak_invariant",
]
