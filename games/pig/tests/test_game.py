"""Pig end to end: whole games through the engine, seats, the target, keys and determinism."""

from collections.abc import Callable

import orjson
import pytest
import tabletop_pig
from pydantic import ValidationError
from tabletop import UNKEYED, GameEngine, GameResult, IllegalActionError, PrngKeyError
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop.views import SPECTATOR, Spectator, project
from tabletop_pig import definition
from tabletop_pig.actions.hold import HydratedHold
from tabletop_pig.actions.roll import HydratedRoll
from tabletop_pig.actions.roll_die import HydratedRollDie
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState, PigGameState

Harness = GameHarness[HydratedPigGameState, PigConfig]
Rig = Callable[[PigGameState, int], None]


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "pig" and tabletop_pig.__all__ == ["definition"]
    assert (definition.min_players, definition.max_players) == (2, 4)


def test_a_scripted_game_to_ten(rig: Rig) -> None:
    harness = GameHarness(definition, players=2, seed=3, config=PigConfig(target=10))
    # (player, faces rolled, then hold?): p1 banks 6, p2 busts, p1 rolls 4 and wins by holding
    script = [("p1", [2, 4], True), ("p2", [6, 1], False), ("p1", [4], True)]
    for player, faces, hold in script:
        for face in faces:
            rig(harness.state, face)
            harness.play(harness.action(HydratedRoll, player))
        if hold:
            harness.play(harness.action(HydratedHold, player))
    state = harness.state
    assert state.machine_state is MachineState.GAME_OVER
    assert (state.result, state.winning_player_ids, state.active_player_ids) == (GameResult.WIN, ["p1"], [])
    assert [p.score for p in state.players] == [10, 0]
    assert [a.type for a in harness.log if a.source == "user"] == [
        "Roll",
        "Roll",
        "Hold",
        "Roll",
        "Roll",
        "Roll",
        "Hold",
    ]
    dice = harness.recorded(HydratedRollDie)
    assert [(d.outcome, d.metadata.turn_total) for d in dice if d.metadata] == [
        (2, 2),
        (4, 6),
        (6, 6),
        (1, 0),
        (4, 4),
    ]
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedRoll, "p2"))
    assert caught.value.code == "game-over"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_random_games_end_when_a_hold_reaches_the_target(players: int, seed: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed, config=PigConfig(target=30))
    results = list(playout(engine, game, RandomBot(engine, seed)))  # a fresh secret key
    state = results[-1].state
    (winner,) = state.winning_player_ids
    assert state.result is GameResult.WIN and state.player(winner).score >= 30
    assert all(p.score < 30 for p in state.players if p.player_id != winner)
    last = results[-1].actions[-1]
    assert (last.type, last.player_id) == ("Hold", winner)  # only a hold ends the game
    holds = [a for r in results for a in r.actions if isinstance(a, HydratedHold)]
    for player in state.players:  # every point was banked by a hold
        assert (
            sum(a.metadata.banked for a in holds if a.player_id == player.player_id and a.metadata)
            == player.score
        )


@pytest.mark.parametrize("players", [1, 5])
def test_the_game_takes_two_to_four_players(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        make_game(definition, players=players)
    assert caught.value.code == "invalid-game"


@pytest.mark.parametrize("target", [9, 1001, 0])
def test_the_target_is_bounded(target: int) -> None:
    with pytest.raises(ValidationError):
        PigConfig(target=target)
    assert PigConfig().target == 100


def test_the_dice_need_a_secret_key() -> None:
    engine = GameEngine(definition)
    with pytest.raises(PrngKeyError) as caught:
        engine.start(make_game(definition))
    assert caught.value.code == "prng-key-required"
    assert definition.requires_prng_key and not definition.hidden_information
    assert (
        engine.start(make_game(definition), prng_key=UNKEYED).state.prng.key is None
    )  # a fixture, on purpose


def _playout_bytes(seed: int, key: str) -> list[bytes]:
    engine = GameEngine(definition)
    game = make_game(definition, players=3, seed=seed, config=PigConfig(target=20))
    bot = RandomBot(engine, seed)
    results = playout(engine, game, bot, prng_key=key)
    return [orjson.dumps(result.state.model_dump(mode="json")) for result in results]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_key_and_actions_give_byte_identical_states(seed: int) -> None:
    assert _playout_bytes(seed, TEST_PRNG_KEY) == _playout_bytes(seed, TEST_PRNG_KEY)


def test_the_key_and_the_seed_change_the_dice() -> None:
    assert _playout_bytes(1, TEST_PRNG_KEY) != _playout_bytes(1, "ab" * 16)
    assert _playout_bytes(1, TEST_PRNG_KEY) != _playout_bytes(2, TEST_PRNG_KEY)


def test_the_same_submitted_actions_replay_the_same_rolls(harness: Harness) -> None:
    for _ in range(12):  # roll until 8 points are on the line, then hold
        (player,) = harness.state.active_player_ids
        kind = HydratedHold if harness.state.turn_total >= 8 else HydratedRoll
        harness.play(harness.action(kind, player))
    replay = GameHarness(definition, players=2, seed=42)
    for action in harness.log:  # what the players sent: no faces, those come from the PRNG
        if action.source == "user":  # the game's RollDie chance points come again by themselves
            replay.play(action.model_dump(mode="json", include={"id", "game_id", "type", "player_id"}))
    assert replay.state.model_dump_json() == harness.state.model_dump_json()
    assert [a.model_dump_json() for a in replay.log] == [a.model_dump_json() for a in harness.log]


def test_no_view_shows_the_key(harness: Harness) -> None:
    harness.play(harness.action(HydratedRoll, "p1"))
    assert harness.prng_key is not None
    perspectives: list[str | Spectator] = ["p1", "p2", SPECTATOR]
    for perspective in perspectives:
        view = project(harness.state, perspective).model_dump_json()
        assert harness.prng_key not in view and '"prng"' not in view
        assert '"turn_total"' in view and '"score"' in view
