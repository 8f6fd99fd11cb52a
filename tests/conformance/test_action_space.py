"""Every installed game declares action spaces that cover its legal actions and number stably.

Each action class players take lists every payload it can carry in a game (``action_space``);
the codec built from those lists must round-trip, and every action enumerated along seeded
random playouts must be in its class's list.
"""

from __future__ import annotations

import orjson
import pytest
from pydantic import JsonValue
from tabletop import AnyState, GameAction, GameConfig, GameDefinition, GameEngine
from tabletop.adapters import ActionCodec
from tabletop.bots import RandomBot, playout
from tabletop.games import available, load
from tabletop.testing import make_game

AnyDefinition = GameDefinition[AnyState, GameConfig]

ENVELOPE = set(GameAction.model_fields) | {"metadata"}


@pytest.fixture(params=available())
def definition(request: pytest.FixtureRequest) -> AnyDefinition:
    return load(request.param)


def _player_counts(definition: AnyDefinition) -> list[int]:
    low = max(definition.min_players, 2) if definition.max_players >= 2 else definition.min_players
    return sorted({low, min(definition.max_players, 4)})


def _key(payload: dict[str, JsonValue]) -> bytes:
    return orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)


def _payload(action: GameAction) -> dict[str, JsonValue]:
    fields = set(type(action).model_fields) - ENVELOPE
    payload: dict[str, JsonValue] = action.model_dump(mode="json", include=fields)
    return payload


def test_actions_players_take_declare_a_space_without_duplicates(definition: AnyDefinition) -> None:
    for players in _player_counts(definition):
        game = make_game(definition, players=players)
        for action_class in definition.actions:
            if not action_class.is_enumerable():
                continue
            assert action_class.has_action_space(), f"{action_class.__name__} needs action_space()"
            space = [_key(payload) for payload in action_class.action_space(game)]
            assert space, f"{action_class.__name__} has an empty action space"
            assert len(set(space)) == len(space), f"{action_class.__name__} lists a payload twice"
            assert space == [_key(payload) for payload in action_class.action_space(game)], "not stable"


def test_every_index_round_trips_through_the_codec(definition: AnyDefinition) -> None:
    game = make_game(definition, players=_player_counts(definition)[0])
    codec = ActionCodec(definition, game)
    assert codec.size > 0
    for index in range(codec.size):
        action = codec.decode(index, game.players[0].id, action_id=f"x{index}")
        assert (action.id, action.player_id, action.game_id) == (f"x{index}", game.players[0].id, game.id)
        assert action.type == codec.payload(index)[0]
        assert codec.encode(action) == index


@pytest.mark.parametrize("seed", [1, 2])
def test_enumerated_actions_are_in_their_space_and_round_trip(definition: AnyDefinition, seed: int) -> None:
    engine = GameEngine(definition)
    for players in _player_counts(definition):
        game = make_game(definition, players=players, seed=seed)
        codec = ActionCodec(definition, game)
        spaces = {
            str(action_class.model_fields["type"].default): {_key(p) for p in action_class.action_space(game)}
            for action_class in definition.actions
            if action_class.has_action_space()
        }
        checked = 0
        for result in playout(engine, game, RandomBot(engine, seed), max_actions=2_000):
            state = result.state
            for player_id in state.active_player_ids:
                legal = engine.legal_actions(state, player_id, game)
                indexes = [codec.encode(action) for action in legal]
                assert len(set(indexes)) == len(indexes), "two legal actions share an index"
                for action, index in zip(legal, indexes, strict=True):
                    assert _key(_payload(action)) in spaces[action.type], f"{action!r} is not in its space"
                    decoded = codec.decode(index, player_id, action_id="round-trip")
                    assert type(decoded) is type(action)
                    assert _payload(decoded) == _payload(action)
                    assert decoded.player_id == player_id
                    checked += 1
        assert checked > 0
