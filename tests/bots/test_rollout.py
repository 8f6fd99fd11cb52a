"""Rollouts: a uniform draw among the legal actions, each candidate checked only when drawn."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tabletop import AnyState, GameConfig, GameEngine, IllegalActionError, MachineContext
from tabletop._legal import LegalActions
from tabletop.bots import RandomBot, action_key, playout
from tabletop.bots._rollout import RandomRollout
from tabletop.games import load
from tabletop.testing import make_game
from tabletop_fixtures.seated import seated
from tabletop_hex.actions.place_stone import HydratedPlaceStone
from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.components.colors import AMOUNT_PER_TURN
from tabletop_tic_tac_toe.state_handlers.player_turn import PlayerTurn

GAMES = ["sample", "tic-tac-toe", "go-fish", "goofspiel", "pig"]


def _states(name: str, seed: int) -> tuple[GameEngine[AnyState, GameConfig], Any, list[AnyState]]:
    """The engine, game and every state of one random playout of ``name``."""
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed)
    states = [result.state for result in playout(engine, game, RandomBot(engine, seed), prng_key="ab" * 16)]
    return engine, game, states


@pytest.mark.parametrize("name", GAMES)
def test_a_rollout_draws_only_legal_actions_and_none_when_there_is_none(name: str) -> None:
    engine, game, states = _states(name, seed=3)
    rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
    rng = random.Random(1)
    for state in states:
        for seat in game.players:
            legal = {action_key(action) for action in engine.legal_actions(state, seat.id, game)}
            drawn = rollout.choose(state, seat.id, game, rng)
            if legal:
                assert drawn is not None and action_key(drawn) in legal
                assert drawn.id == ""  # a candidate: the caller gives it an id
            else:
                assert drawn is None


def _sample_state_with_little_left() -> tuple[GameEngine[AnyState, GameConfig], Any, AnyState, str]:
    """A sample-game start whose acting player has only 2 of AMOUNT_PER_TURN left to add."""
    engine, game, states = _states("sample", seed=5)
    state = engine.copy_state(states[0])
    player_id = state.active_player_ids[0]
    player: Any = state.player(player_id)  # the sample game's player state
    player.amount = 2
    return engine, game, state, player_id


def test_candidates_that_fail_their_check_are_never_drawn_and_the_rest_are_equally_likely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine, game, state, player_id = _sample_state_with_little_left()

    def every_amount(cls: type[HydratedAddAmount], state: Any, player_id: str) -> list[HydratedAddAmount]:
        # Amounts above what is left are enumerated too: their check refuses them.
        return [cls.candidate(state, player_id, amount=amount) for amount in range(1, AMOUNT_PER_TURN + 1)]

    monkeypatch.setattr(HydratedAddAmount, "enumerate", classmethod(every_amount))
    legal = engine.legal_actions(state, player_id, game)
    left = 2
    assert sorted(action.amount for action in legal if isinstance(action, HydratedAddAmount)) == list(
        range(1, left + 1)
    )
    rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
    rng = random.Random(7)
    draws = 6_000
    counts = Counter(action_key(rollout.choose(state, player_id, game, rng)) for _ in range(draws))  # type: ignore[arg-type]
    assert set(counts) == {action_key(action) for action in legal}
    expected = draws / len(legal)
    assert all(abs(count - expected) < 0.15 * expected for count in counts.values()), counts


@pytest.mark.parametrize("name", ["tic-tac-toe", "go-fish"])
def test_the_same_generator_seed_draws_the_same_rollout(name: str) -> None:
    engine, game, states = _states(name, seed=2)
    start = states[len(states) // 3]
    finals = []
    for _ in range(2):
        state = engine.copy_state(start)
        played = RandomRollout(engine).play(state, game, random.Random(11), 1_000)
        assert state.result is not None
        assert 0 < played <= state.action_count - start.action_count  # players' actions, and what they caused
        finals.append(state.model_dump_json())
    assert finals[0] == finals[1]
    assert start.result is None  # the copy was played on, never the state it came from


def test_a_rollout_stops_after_its_action_limit() -> None:
    engine, game, states = _states("go-fish", seed=4)
    state = engine.copy_state(states[0])
    before = state.action_count
    assert RandomRollout(engine).play(state, game, random.Random(1), 3) == 3
    assert state.result is None
    assert before + 3 <= state.action_count  # three submitted actions, and what they caused
    assert state.action_count - before < 3 * engine.max_cascade


def test_a_handler_that_refuses_candidates_itself_is_asked_before_each_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A tic-tac-toe turn that refuses the centre through is_valid_action (not by type).
    def no_centre(self: PlayerTurn, action: Any, ctx: Any) -> bool:
        return action.type in self.accepts and (action.square.x, action.square.y) != (1, 1)

    monkeypatch.setattr(PlayerTurn, "is_valid_action", no_centre)
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    state = engine.start(game).state
    legal = {action_key(action) for action in engine.legal_actions(state, "p1", game)}
    assert len(legal) == 8
    rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
    rng = random.Random(3)
    drawn = Counter(action_key(rollout.choose(state, "p1", game, rng)) for _ in range(800))  # type: ignore[arg-type]
    assert set(drawn) == legal
    for seed in range(5):
        played = engine.copy_state(state)
        rollout.play(played, game, random.Random(seed), 1_000)
        board: Any = played.board  # type: ignore[attr-defined]  # tic-tac-toe's board
        marked = sum(cell is not None for row in board.cells for cell in row)
        # It ends with a line, or stops when nobody can act: every square but the centre marked.
        assert played.result is not None or (
            marked == 8 and not any(engine.legal_actions(played, p, game) for p in played.active_player_ids)
        )
        assert board.get(1, 1) is None  # nobody ever marked the centre


def _reference_draw(
    engine: GameEngine[AnyState, GameConfig], state: AnyState, player_id: str, game: Any, rng: random.Random
) -> Any:
    """The draw as first written: every candidate in one list, a failed one swapped out for the last."""
    ctx = MachineContext(state, game)
    offered = LegalActions(engine.definition).offered(state, player_id, ctx)
    candidates = [candidate for pool, _ in offered for candidate in pool]
    while candidates:
        index = rng.randrange(len(candidates))
        try:
            candidates[index].check(ctx)
        except IllegalActionError:
            candidates[index] = candidates[-1]
            candidates.pop()
            continue
        return candidates[index]
    return None


def _most_cells_taken(self: Any, ctx: Any) -> None:
    if (self.cell.q + 2 * self.cell.r) % 5:
        raise IllegalActionError("cell-taken", "4 cells in 5 are refused in this test", path="cell")


@pytest.mark.parametrize(
    ("name", "most_cells_refused"),
    [
        ("pig", False),
        ("gallery", False),
        ("hex", False),
        ("hex", True),
        ("hearts", False),
        ("backgammon", False),
    ],
)
def test_a_draw_among_lazy_candidates_is_the_draw_among_a_list_of_built_ones(
    name: str, most_cells_refused: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rollout reads candidates through sequences that make only what is read, and sets a
    # failed one aside by a sparse swap; the first draw built every candidate into one list and
    # swapped a failed one out for the last. Same generator, same states: the same draws, and
    # the generator left in the same place. Pig and gallery have candidates that fail their
    # check; hex with 4 cells in 5 refused sets aside most of a lazy sequence.
    engine, game = seated(name, 4, short=True)
    states = [result.state for result in playout(engine, game, RandomBot(engine, 4), prng_key="ab" * 16)]
    if most_cells_refused:
        monkeypatch.setattr(HydratedPlaceStone, "check", _most_cells_taken)
    rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
    compared = 0
    for state in states[:: max(1, len(states) // 40)]:
        for seat in state.active_player_ids:
            for seed in range(3):
                ours, theirs = random.Random(seed), random.Random(seed)
                drawn = rollout.choose(state, seat, game, ours)
                expected = _reference_draw(engine, state, seat, game, theirs)
                assert (drawn is None) == (expected is None)
                if drawn is not None:
                    assert action_key(drawn) == action_key(expected)
                    assert drawn.model_dump() == expected.model_dump()
                assert ours.getstate() == theirs.getstate()
                compared += 1
    assert compared >= 20
