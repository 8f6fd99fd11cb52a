"""Slow tier: 1,000 simulated games over 3, 4 and 5 players, invariants and leak checks after every action."""

import pytest
from tabletop.simulation import format_report, simulate


@pytest.mark.slow
@pytest.mark.parametrize(("players", "games", "seed"), [(3, 334, 0), (4, 333, 10_000), (5, 333, 20_000)])
def test_a_thousand_random_games_keep_every_invariant_and_leak_nothing(
    players: int, games: int, seed: int
) -> None:
    report = simulate("gallery", games=games, seed=seed, players=players, schemas=None, jobs=2)
    assert {"game-invariants", "view-leaks", "state-model", "checksum"} <= set(report.invariants)
    assert report.ok, format_report(report)
    assert len(report.records) == games and sum(report.outcomes.values()) == games
