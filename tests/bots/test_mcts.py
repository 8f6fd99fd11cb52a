"""The MCTS bot: strength against the random bot, tactics, determinism, determinization."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import BaseModel
from tabletop import AnyState, GameConfig, GameEngine, new_prng_key
from tabletop._processor import ActionProcessor
from tabletop.bots import Bot, MctsBot, RandomBot, action_key, identity_determinizer, playout
from tabletop.games import load
from tabletop.testing import GameHarness, make_game
from tabletop.views import project
from tabletop_fixtures import duel

SUPPORT = Path(__file__).parents[1] / "support"

# Complete games the bot is tested on (the lead extends this as games are finished).
GAMES = ["sample", "tic-tac-toe", "go-fish", "goofspiel"]


def _match(
    game: str, *, seat: int, games: int, players: int = 2, iterations: int = 200
) -> subprocess.Popen[bytes]:
    """Start a match in a plain interpreter (no typeguard instrumentation: ~10x faster)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SUPPORT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "tabletop_fixtures.matches", game, "--seat", str(seat)]
    command += [
        "--games",
        str(games),
        "--players",
        str(players),
        "--iterations",
        str(iterations),
        "--seed",
        "1",
    ]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _wins(process: subprocess.Popen[bytes]) -> tuple[int, int]:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err.decode()
    rows = [orjson.loads(line) for line in out.splitlines()]
    return sum(row["mcts"] in row["winners"] for row in rows), len(rows)


def test_mcts_beats_the_random_bot_at_tic_tac_toe_from_either_seat() -> None:
    # 100 games as X and 100 as O, in parallel. Against a uniformly random X, even a perfect
    # O wins at most 93.9% (expectimax), so O's floor is lower than X's; a draw is not a win.
    as_x, as_o = _match("tic-tac-toe", seat=0, games=100), _match("tic-tac-toe", seat=1, games=100)
    (x_wins, x_games), (o_wins, o_games) = _wins(as_x), _wins(as_o)
    assert (x_games, o_games) == (100, 100)
    assert x_wins + o_wins >= 180, (x_wins, o_wins)
    assert x_wins >= 90, x_wins
    assert o_wins >= 80, o_wins


def test_mcts_beats_random_bots_in_a_three_player_sample_game() -> None:
    # One MCTS seat against two random seats: a fair share would be a third of the wins.
    wins, games = _wins(_match("sample", seat=1, games=30, players=3, iterations=100))
    assert games == 30
    assert wins >= 20, wins


def _ttt(*marks: tuple[int, int]) -> GameHarness[AnyState, GameConfig]:
    """A tic-tac-toe harness after the players (p1 first) marked these squares in turn."""
    harness = GameHarness.for_game("tic-tac-toe", players=2, seed=3)
    for number, (x, y) in enumerate(marks):
        player = "p1" if number % 2 == 0 else "p2"
        harness.play(
            {
                "id": f"m{number}",
                "game_id": "game-1",
                "type": "PlaceMark",
                "player_id": player,
                "square": {"x": x, "y": y},
            }
        )
    return harness


def _square(action: object) -> tuple[int, int]:
    square = getattr(action, "square")  # noqa: B009 - tic-tac-toe's PlaceMark
    return square.x, square.y


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_completes_its_line(seed: int) -> None:
    # X: (0,0) (1,0); O: (0,1) (1,1). X to play wins at (2,0); O threatens (2,1).
    harness = _ttt((0, 0), (0, 1), (1, 0), (1, 1))
    bot = MctsBot(harness.engine, iterations=150, seed=seed)
    action = bot.choose(harness.state, "p1", harness.game)
    assert action is not None and _square(action) == (2, 0)
    assert action.id and action.player_id == "p1"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_blocks_the_opponents_line(seed: int) -> None:
    # X: (0,0) (1,0) threatens (2,0); O must block there.
    harness = _ttt((0, 0), (1, 1), (1, 0))
    bot = MctsBot(harness.engine, iterations=200, seed=seed)
    action = bot.choose(harness.state, "p2", harness.game)
    assert action is not None and _square(action) == (2, 0)


def test_the_same_seed_makes_the_same_choices_and_states_are_left_alone() -> None:
    harness = _ttt((1, 1))
    before = harness.state.model_dump_json()
    first = MctsBot(harness.engine, iterations=60, seed=9).evaluate(harness.state, "p2", harness.game)
    second = MctsBot(harness.engine, iterations=60, seed=9).evaluate(harness.state, "p2", harness.game)
    assert [(action_key(s.action), s.visits, s.value) for s in first] == [
        (action_key(s.action), s.visits, s.value) for s in second
    ]
    assert harness.state.model_dump_json() == before  # neither the state nor its PRNG moved


def test_evaluate_spends_every_iteration_on_the_root_actions() -> None:
    harness = _ttt((1, 1), (0, 0))
    ranked = MctsBot(harness.engine, iterations=120, seed=4).evaluate(harness.state, "p1", harness.game)
    assert len(ranked) == 7
    assert sum(stats.visits for stats in ranked) == 120
    assert [s.visits for s in ranked] == sorted((s.visits for s in ranked), reverse=True)
    assert all(0.0 <= stats.value <= 1.0 for stats in ranked)
    assert all(stats.action.id == "" for stats in ranked)


@pytest.mark.parametrize(
    "marks", [((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 0), (1, 1), (1, 0)), ((1, 1),), ((0, 0), (2, 2), (1, 1))]
)
@pytest.mark.parametrize("seed", [1, 2])
def test_stopping_early_never_changes_the_choice(
    marks: tuple[tuple[int, int], ...], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = _ttt(*marks)
    player = harness.state.active_player_ids[0]
    engine = harness.engine
    runs: list[int] = []  # every action the engine processes, whichever way it was submitted
    process = ActionProcessor.process

    def counting(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return process(*args, **kwargs)

    monkeypatch.setattr(ActionProcessor, "process", counting)
    full = MctsBot(engine, iterations=200, seed=seed).evaluate(harness.state, player, harness.game)
    full_runs = len(runs)
    chosen = MctsBot(engine, iterations=200, seed=seed).choose(harness.state, player, harness.game)
    assert chosen is not None and action_key(chosen) == action_key(full[0].action)
    if full[0].visits - full[1].visits > 100:  # decided long before the end: the search stopped
        assert len(runs) - full_runs < full_runs


def test_a_player_without_actions_gets_none_and_a_single_action_is_played_without_search() -> None:
    # X O X / X O O / O X _ : no line anywhere, and X's only move (2, 2) draws.
    harness = _ttt((0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1), (1, 2), (0, 2))
    calls: list[str | None] = []

    def spy(view: BaseModel, seat: str | None, rng: random.Random) -> AnyState:
        calls.append(seat)
        return identity_determinizer(view, seat, rng)

    bot = MctsBot(harness.engine, iterations=50, seed=1, determinizer=spy)
    assert bot.choose(harness.state, "p2", harness.game) is None
    action = bot.choose(harness.state, "p1", harness.game)
    assert action is not None and _square(action) == (2, 2)
    assert calls == []


def test_the_bad_settings_are_refused() -> None:
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load("tic-tac-toe"))
    with pytest.raises(ValueError, match="iterations"):
        MctsBot(engine, iterations=0)
    with pytest.raises(ValueError, match="exploration"):
        MctsBot(engine, exploration=-1.0)
    with pytest.raises(ValueError, match="time_limit"):
        MctsBot(engine, time_limit=-0.5)


@pytest.mark.parametrize("name", ["tic-tac-toe", "go-fish"])
def test_a_time_limit_stops_the_search_with_the_best_action_so_far(name: str) -> None:
    # A million iterations would take many minutes; a spent budget stops after the first one.
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=3)
    state = engine.start(game, prng_key=new_prng_key()).state
    player = state.active_player_ids[0]
    legal = {action_key(action) for action in engine.legal_actions(state, player, game)}
    assert len(legal) > 1
    bot = MctsBot(engine, iterations=1_000_000, seed=2, time_limit=0.0)
    chosen = bot.choose(state, player, game)
    assert chosen is not None and action_key(chosen) in legal
    assert bot.last_iterations == 1
    ranked = MctsBot(engine, iterations=1_000_000, seed=2, time_limit=0.0).evaluate(state, player, game)
    assert sum(stats.visits for stats in ranked) == 1 and {action_key(s.action) for s in ranked} == legal


def test_a_generous_time_limit_leaves_an_iteration_bounded_search_unchanged() -> None:
    harness = _ttt((0, 0), (1, 1))
    plain = MctsBot(harness.engine, iterations=80, seed=6).evaluate(harness.state, "p1", harness.game)
    timed = MctsBot(harness.engine, iterations=80, seed=6, time_limit=3600.0)
    assert timed.evaluate(harness.state, "p1", harness.game) == plain
    assert timed.last_iterations == 80


@pytest.mark.parametrize("name", GAMES)
def test_mcts_plays_whole_games_of_every_complete_game(name: str) -> None:
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=5)
    seats: dict[str, Bot[AnyState, GameConfig]] = {
        "p1": MctsBot(engine, iterations=8, seed=1, max_rollout_actions=12),
        "p2": RandomBot(engine, seed=2),
    }
    final = list(playout(engine, game, seats))[-1].state
    assert final.result is not None


def test_with_simultaneous_moves_the_bot_acts_for_its_own_seat() -> None:
    engine = GameEngine(duel.definition)
    game = make_game(duel.definition, players=2, seed=1)
    state = engine.start(game).state
    assert state.active_player_ids == ["p1", "p2"]
    bot = MctsBot(engine, iterations=30, seed=1)
    action = bot.choose(state, "p2", game)
    assert action is not None and action.player_id == "p2"
    final = list(playout(engine, game, {"p1": bot, "p2": MctsBot(engine, iterations=30, seed=2)}))[-1].state
    assert final.result is not None and set(final.picks) == {"p1", "p2"}


def test_a_determinizer_keeps_hidden_information_hidden() -> None:
    engine = GameEngine(duel.definition)
    game = make_game(duel.definition, players=2, seed=1)
    start = engine.start(game).state
    truth = engine.run(
        {"id": "a1", "game_id": "game-1", "type": "Pick", "player_id": "p1", "sign": "rock"}, start, game
    ).state
    # Peeking at the full state, p2 is sure to win with paper.
    clairvoyant = MctsBot(engine, iterations=300, seed=1).evaluate(truth, "p2", game)
    assert clairvoyant[0].action.model_dump()["sign"] == "paper" and clairvoyant[0].value == 1.0
    # From its own view, every sign is a coin flip: a win, a draw or a loss, a third each.
    view = duel.view(truth, "p2")
    assert view.picks == {}
    fair = MctsBot(engine, iterations=300, seed=1, determinizer=duel.determinize).evaluate(view, "p2", game)
    assert {stats.action.model_dump()["sign"] for stats in fair} == {"rock", "paper", "scissors"}
    assert all(0.3 <= stats.value <= 0.7 for stats in fair), [
        (s.action.model_dump()["sign"], s.value) for s in fair
    ]
    assert sum(stats.visits for stats in fair) == 300


def test_the_identity_determinizer_returns_the_view_itself() -> None:
    harness = _ttt()
    assert identity_determinizer(harness.state, "p1", random.Random(1)) is harness.state
    hidden = GameHarness.for_game("go-fish", players=2, seed=1).state
    with pytest.raises(TypeError, match="needs a determinizer"):
        identity_determinizer(project(hidden, "p1"), "p1", random.Random(1))


@pytest.mark.parametrize(("evaluator", "value"), [(None, 0.5), ({"p1": 0.25, "p2": 0.75}, 0.25)])
def test_a_rollout_cut_off_is_scored_by_the_evaluator_or_as_a_draw(
    evaluator: dict[str, float] | None, value: float
) -> None:
    harness = _ttt((1, 1))  # no move of p2's ends the game at once
    bot = MctsBot(
        harness.engine,
        iterations=40,
        seed=3,
        max_rollout_actions=0,
        evaluator=None if evaluator is None else (lambda state: evaluator),
    )
    ranked = bot.evaluate(harness.state, "p2", harness.game)
    assert {stats.value for stats in ranked} == {1.0 - value}


def test_the_definitions_evaluator_is_the_default() -> None:
    harness = GameHarness.for_game("gallery", players=3, seed=2)
    bot = MctsBot(harness.engine, iterations=5, seed=1)
    assert bot.evaluator is harness.definition.evaluator is not None
