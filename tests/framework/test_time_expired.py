"""``TimeExpired``: a seat that loses on time is an action in the log, applied by the engine."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Literal, cast

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from tabletop import (
    AnyState,
    Game,
    GameAction,
    GameConfig,
    GameDefinitionError,
    GameEngine,
    GameResult,
    HydratedAction,
    IllegalActionError,
    new_prng_key,
)
from tabletop.bots import RandomBot
from tabletop.clocks import ExpiryRules, Forfeit, TimeExpired, default_forfeit
from tabletop.games import available, load
from tabletop.testing import make_game
from tabletop.views import SPECTATOR, Spectator, project, project_action
from tabletop_fixtures.counter import ACTIONS, CounterConfig, CounterState, Kind, make_definition

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
DUE = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SEEN = DUE + timedelta(seconds=3)


Setup = tuple[GameEngine[AnyState, GameConfig], Game[GameConfig], AnyState]


def _midgame(name: str, moves: int = 6) -> Setup:
    definition = load(name)
    engine = GameEngine(definition)
    game = make_game(definition, players=definition.max_players if name == "gallery" else None)
    key = new_prng_key() if definition.requires_prng_key else None
    state = engine.start(game, prng_key=key).state
    bot = RandomBot(engine, seed=7)
    for _ in range(moves):  # (stopping before a move that would end the game)
        action = next(
            (
                found
                for seat in state.active_player_ids
                if (found := bot.choose(state, seat, game)) is not None
            ),
            None,
        )
        if action is None:
            break
        following = engine.run(action, state, game).state
        if following.result is not None or not following.active_player_ids:
            break
        state = following
    assert state.result is None and state.active_player_ids
    return engine, game, state


def _expired(state: AnyState, seat: str, **fields: object) -> dict[str, object]:
    return {
        "id": "timeout-1",
        "game_id": state.game_id,
        "type": "TimeExpired",
        "source": "system",
        "player_id": seat,
        "due_at": DUE.isoformat(),
        "observed_at": SEEN.isoformat(),
        "index": state.action_count,
        **fields,
    }


@cache
def _validator(name: str, document: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / name / document).read_text()))


@pytest.mark.parametrize("moves", [0, 6, 40])
@pytest.mark.parametrize("name", available())
def test_a_seat_that_loses_on_time_ends_the_game_by_the_forfeit_rule(name: str, moves: int) -> None:
    engine, game, state = _midgame(name, moves)
    for loser in state.active_player_ids:  # (every seat that could act: several while bidding)
        _lose_on_time(name, engine, game, state, loser)


def _lose_on_time(
    name: str, engine: GameEngine[AnyState, GameConfig], game: Game[GameConfig], state: AnyState, loser: str
) -> None:
    before = state.model_dump_json()
    result = engine.record(_expired(state, loser), state, game)
    after = result.state
    assert state.model_dump_json() == before  # the input is never changed
    expected = default_forfeit(state, loser)
    assert (after.result, tuple(after.winning_player_ids)) == (expected.result, expected.winners)
    assert after.active_player_ids == []
    assert after.action_count == state.action_count + 1
    assert after.action_checksum != state.action_checksum
    assert after.machine_state == state.machine_state  # no handler ran
    (action,) = result.actions
    recorded = cast(TimeExpired, action)
    assert isinstance(cast(object, action), TimeExpired)
    assert (recorded.index, recorded.player_id, recorded.due_at, recorded.observed_at) == (
        state.action_count,
        loser,
        DUE,
        SEEN,
    )
    assert recorded.metadata is not None
    assert recorded.metadata.result is expected.result
    assert recorded.metadata.winning_player_ids == list(expected.winners)
    engine.check_state(after)  # the game's invariants allow an ending on time
    engine.load_state(after.model_dump_json())
    seats: list[str | Spectator] = [player.player_id for player in after.players]
    for seat in [*seats, SPECTATOR]:
        project(after, seat)
        assert project_action(recorded, seat).model_dump() == recorded.model_dump()  # nothing hidden
    assert engine.legal_actions(after, loser, game) == []
    # What a host stores and sends is what the exported schemas say.
    _validator(name, "state.json").validate(json.loads(after.model_dump_json()))
    _validator(name, "action.json").validate(json.loads(recorded.model_dump_json()))
    _validator(name, "actions/TimeExpired.json").validate(json.loads(recorded.model_dump_json()))


@pytest.mark.parametrize("name", ["go-fish", "hex", "goofspiel"])
def test_recording_the_same_loss_gives_byte_identical_states(name: str) -> None:
    engine, game, state = _midgame(name)
    action = _expired(state, state.active_player_ids[-1])
    first = engine.record(action, state, game).state
    second = engine.record(action, engine.copy_state(state), game).state
    assert first.model_dump_json() == second.model_dump_json()
    recorded = engine.record(action, state, game).actions[0].model_dump_json()
    again = engine.record(recorded, state, game)  # a replay of the stored action of the stored action
    assert again.state.model_dump_json() == first.model_dump_json()


@pytest.fixture
def tic_tac_toe() -> Setup:
    return _midgame("tic-tac-toe", moves=2)


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        ({"player_id": "p2"}, "player-not-active", "player_id"),
        ({"player_id": "nobody"}, "unknown-player", "player_id"),
        ({"index": 0}, "stale-index", "index"),
        ({"game_id": "another"}, "wrong-game", "game_id"),
        ({"type": "PlaceMark", "square": {"x": 1, "y": 1}, "source": "user"}, "not-a-host-action", "type"),
    ],
)
def test_a_loss_on_time_that_cannot_happen_now_is_refused_and_changes_nothing(
    tic_tac_toe: Setup,
    change: dict[str, object],
    code: str,
    path: str,
) -> None:
    engine, game, state = tic_tac_toe
    assert state.active_player_ids == ["p1"]
    action = _expired(state, "p1", **change)
    if change.get("type") == "PlaceMark":
        action = {k: v for k, v in action.items() if k not in {"due_at", "observed_at"}}
    before = state.model_dump_json()
    with pytest.raises(IllegalActionError) as refused:
        engine.record(action, state, game)
    assert (refused.value.code, refused.value.path) == (code, path)
    assert state.model_dump_json() == before


def test_a_game_that_is_over_cannot_lose_on_time_again(
    tic_tac_toe: Setup,
) -> None:
    engine, game, state = tic_tac_toe
    over = engine.record(_expired(state, "p1"), state, game).state
    with pytest.raises(IllegalActionError) as refused:
        engine.record(_expired(over, "p2", id="timeout-2"), over, game)
    assert refused.value.code == "game-over"


@pytest.mark.parametrize("source", ["system", None])
def test_a_client_cannot_submit_a_loss_on_time(
    tic_tac_toe: Setup,
    source: str | None,
) -> None:
    engine, game, state = tic_tac_toe
    action = _expired(state, "p1")
    if source is None:
        del action["source"]
    with pytest.raises(IllegalActionError) as refused:
        engine.run(action, state, game)
    assert (refused.value.code, refused.value.path) == ("system-only", "type")
    assert state.result is None


def test_a_games_own_forfeit_rule_decides_who_wins() -> None:
    definition = make_definition(
        expiry=ExpiryRules(forfeit=lambda state, player_id: Forfeit(GameResult.DRAW, ()))
    )
    engine = GameEngine(definition)
    game = make_game(definition, players=3)
    state = engine.start(game).state
    loser = state.active_player_ids[0]
    after = engine.record(_expired(state, loser), state, game).state
    assert (after.result, after.winning_player_ids) == (GameResult.DRAW, [])


def test_a_forfeit_rule_naming_a_stranger_is_a_definition_error_and_changes_nothing() -> None:
    definition = make_definition(
        expiry=ExpiryRules(forfeit=lambda state, player_id: Forfeit(GameResult.WIN, ("ghost",)))
    )
    engine = GameEngine(definition)
    game = make_game(definition, players=2)
    state = engine.start(game).state
    before = state.model_dump_json()
    with pytest.raises(GameDefinitionError) as caught:
        engine.record(_expired(state, state.active_player_ids[0]), state, game)
    assert caught.value.problems == ("the forfeit rule names winner 'ghost', who has no seat",)
    assert state.model_dump_json() == before


class Reserved(GameAction):
    type: Literal["TimeExpired"] = "TimeExpired"
    player_id: str


class HydratedReserved(Reserved, HydratedAction[Reserved, CounterState, CounterConfig]):
    pass


def test_a_game_may_not_define_the_reserved_action_type() -> None:
    with pytest.raises(GameDefinitionError) as caught:
        make_definition(actions=[*ACTIONS, HydratedReserved])
    assert any("'TimeExpired', which the framework reserves" in problem for problem in caught.value.problems)


def test_every_game_logs_the_framework_action_last_and_offers_it_to_nobody() -> None:
    definition = make_definition()
    assert issubclass(cast(type, definition.actions[-1]), TimeExpired)
    assert set(definition.action_by_type) == {kind.value for kind in Kind} | {"TimeExpired"}
    assert "TimeExpired" not in definition.parser.player_types
