"""How the MCTS bot plays its simulations: in place on states it owns, never on the caller's."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

import pytest
from pydantic import BaseModel
from tabletop import AnyState, GameConfig, GameEngine
from tabletop._engine import run_owned
from tabletop.bots import MctsBot, _mcts, _positions, _rollout, playout
from tabletop.games import load
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game


def _count_runs(engine: GameEngine[Any, Any], monkeypatch: pytest.MonkeyPatch) -> dict[bool | str, int]:
    """Count the engine's runs by whether they are in place (``in_place``, or ``run_owned``).

    ``"edge"`` counts the tree's runs of an edge met for the first time (in place on a copy of
    the remembered position's state, counted under True too).
    """
    counts: dict[bool | str, int] = {True: 0, False: 0, "edge": 0}
    run = engine.run

    def counting(*args: Any, **kwargs: Any) -> Any:
        counts[bool(kwargs.get("in_place", False))] += 1
        return run(*args, **kwargs)

    def counting_owned(*args: Any, **kwargs: Any) -> None:
        counts[True] += 1
        run_owned(*args, **kwargs)

    def counting_edge(*args: Any, **kwargs: Any) -> None:
        counts["edge"] += 1
        counting_owned(*args, **kwargs)

    monkeypatch.setattr(engine, "run", counting)
    for module in (_mcts, _rollout):  # the bots' in-place run of a candidate they own
        monkeypatch.setattr(module, "run_owned", counting_owned)
    monkeypatch.setattr(_positions, "run_owned", counting_edge)
    return counts


@pytest.mark.parametrize("iterations", [50, 300])
def test_without_hidden_information_rollouts_run_in_place_and_tree_edges_are_run_once(
    iterations: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    state = engine.start(game).state
    before = state.model_dump_json()
    counts = _count_runs(engine, monkeypatch)
    ranked = MctsBot(engine, iterations=iterations, seed=1).evaluate(state, "p1", game)
    assert sum(stats.visits for stats in ranked) == iterations
    # A tree edge runs only when met for the first time after its expansion (then it is
    # remembered), on a copy of its position; the expansion and every rollout action run in
    # place on the iteration's copy. Nothing goes through a copying run.
    assert counts[False] == 0
    assert 0 < counts["edge"] < iterations
    assert counts[True] >= iterations
    assert counts[True] > 3 * counts["edge"]
    assert state.model_dump_json() == before


@pytest.mark.parametrize("name", ["go-fish", "goofspiel"])
def test_with_a_determinizer_every_run_is_in_place_on_the_sampled_world(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = GameHarness.for_game(name, players=2, seed=3)
    engine = harness.engine
    player = harness.state.active_player_ids[0]
    before = harness.state.model_dump_json()
    counts = _count_runs(engine, monkeypatch)
    ranked = MctsBot(engine, iterations=20, seed=2, max_rollout_actions=30).evaluate(
        harness.state, player, harness.game
    )
    assert sum(stats.visits for stats in ranked) == 20
    assert counts[False] == 0 and counts[True] >= 20
    assert harness.state.model_dump_json() == before


def test_a_determinizer_that_returns_the_same_state_every_time_never_sees_it_changed() -> None:
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    fixed = engine.start(game).state
    before = fixed.model_dump_json()
    calls: list[str | None] = []

    def same_world(view: BaseModel, seat: str | None, rng: random.Random) -> AnyState:
        calls.append(seat)
        return fixed

    ranked = MctsBot(engine, iterations=40, seed=1, determinizer=same_world).evaluate(fixed, "p1", game)
    assert len(calls) == 40 and sum(stats.visits for stats in ranked) == 40
    assert fixed.model_dump_json() == before


def _mcts_actions(name: str, decisions: int) -> list[str]:
    """Every action recorded in the first ``decisions`` runs of a game between two MCTS bots."""
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=4)
    bots = {seat.id: MctsBot(engine, iterations=12, seed=n + 1) for n, seat in enumerate(game.players)}
    results = islice(playout(engine, game, bots, prng_key=TEST_PRNG_KEY), decisions + 1)
    return [action.model_dump_json() for result in results for action in result.actions]


@pytest.mark.parametrize("name", ["go-fish", "pig", "tic-tac-toe"])
def test_handing_owned_candidates_to_the_engine_plays_exactly_as_submitting_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed_over = _mcts_actions(name, decisions=8)

    def submitted(engine: GameEngine[Any, Any], action: Any, state: Any, game: Any, **_: bool) -> None:
        engine.run(action, state, game, in_place=True)  # re-validated into a copy and checked again

    for module in (_mcts, _positions, _rollout):
        monkeypatch.setattr(module, "run_owned", submitted)
    assert _mcts_actions(name, decisions=8) == handed_over
