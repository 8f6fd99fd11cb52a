"""The conformance suite: every installed game honours the framework's contract.

Each game is found through its entry point and checked the same way: the definition assembles,
seeded random playouts end, every reachable state re-validates against its plain model and
round-trips through hydrate/dehydrate, enumerated actions are accepted, inactive players have
nothing to do, the checksum matches the recorded actions, and the same seed gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabletop import AnyState, GameConfig, GameDefinition, GameEngine, Hydrated
from tabletop._checksum import next_checksum
from tabletop.bots import RandomBot, playout
from tabletop.games import available, load
from tabletop.simulation import simulate
from tabletop.testing import TEST_PRNG_KEY, make_game

GAMES = available()
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"

AnyDefinition = GameDefinition[AnyState, GameConfig]


@pytest.fixture(params=GAMES)
def definition(request: pytest.FixtureRequest) -> AnyDefinition:
    return load(request.param)


def _player_counts(definition: AnyDefinition) -> list[int]:
    low = max(definition.min_players, 2) if definition.max_players >= 2 else definition.min_players
    return sorted({low, min(definition.max_players, 4)})


def _states(definition: AnyDefinition, seed: int, players: int) -> Iterator[tuple[AnyState, list[str]]]:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    bot = RandomBot(engine, seed)
    for result in playout(engine, game, bot, max_actions=2_000, prng_key=TEST_PRNG_KEY):
        yield result.state, [action.id for action in result.actions]


def test_every_game_is_registered_under_its_own_name() -> None:
    assert "sample" in GAMES
    for name in GAMES:
        assert load(name).name == name


def test_actions_that_players_take_can_be_enumerated(definition: AnyDefinition) -> None:
    for handler in definition.handlers.values():
        for action_type in handler.accepts:
            action_class = definition.action_by_type[str(action_type)]
            if action_class.model_fields["player_id"].is_required():
                assert action_class.is_enumerable(), f"{action_class.__name__} needs enumerate()"


def test_the_state_diagram_renders(definition: AnyDefinition) -> None:
    diagram = definition.diagram()
    assert f"[*] --> {definition.initial_state.value}" in diagram


@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_end_and_keep_every_invariant(definition: AnyDefinition, seed: int) -> None:
    engine = GameEngine(definition)
    plain_type = definition.state_type.__plain_model__  # type: ignore[attr-defined]
    for players in _player_counts(definition):
        game = make_game(definition, players=players, seed=seed)
        checksum, count, last = 0, 0, None
        for state, action_ids in _states(definition, seed, players):
            for action_id in action_ids:
                checksum = next_checksum(checksum, action_id, count)
                count += 1
            assert (state.action_count, state.action_checksum) == (count, checksum)
            as_json = orjson.dumps(state.model_dump(mode="json"))
            assert plain_type.model_validate_json(as_json).model_dump(mode="json") == state.model_dump(
                mode="json"
            )
            assert isinstance(state, Hydrated)
            assert type(state).hydrate(state.dehydrate()) == state
            for seat in game.players:
                if seat.id not in state.active_player_ids:
                    assert engine.valid_action_types(state, seat.id, game) == []
            last = state
        assert last is not None
        assert last.result is not None, f"{definition.name} with {players} players did not end"
        assert last.active_player_ids == []
        assert last.winning_player_ids == [] or set(last.winning_player_ids) <= {p.id for p in game.players}


def test_every_enumerated_action_is_accepted_by_the_engine(definition: AnyDefinition) -> None:
    engine = GameEngine(definition)
    players = _player_counts(definition)[0]
    game = make_game(definition, players=players, seed=3)
    bot = RandomBot(engine, 3)
    for checked, (state, _) in enumerate(_states(definition, 3, players)):
        if checked >= 25 or state.result is not None:
            break
        for player_id in state.active_player_ids:
            for candidate in engine.legal_actions(state, player_id, game):
                engine.run(candidate.model_copy(update={"id": bot.new_id()}), state, game)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_same_seed_gives_byte_identical_playouts(name: str, seed: int) -> None:
    _assert_byte_identical_playouts(name, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_many_seeds_give_byte_identical_playouts(name: str, seed: int) -> None:
    _assert_byte_identical_playouts(name, seed)


def _assert_byte_identical_playouts(name: str, seed: int) -> None:
    definition = load(name)
    players = _player_counts(definition)[-1]

    def run() -> list[bytes]:
        return [
            orjson.dumps(state.model_dump(mode="json")) for state, _ in _states(definition, seed, players)
        ]

    first = run()
    assert first == run()
    plain_type = definition.state_type.__plain_model__  # type: ignore[attr-defined]
    for raw in first:
        state = definition.state_type.hydrate(raw)  # type: ignore[attr-defined]
        assert orjson.dumps(state.dehydrate().model_dump(mode="json")) == raw
        assert type(state.dehydrate()) is plain_type


EXAMPLE_CONFIGS = [
    pytest.param(name, number, id=f"{name}-config{number}")
    for name in GAMES
    for number in range(len(load(name).example_configs))
]


def test_the_shipped_games_with_options_declare_example_configs() -> None:
    assert {"sample", "pig"} <= {name for name, _ in (param.values for param in EXAMPLE_CONFIGS)}


@pytest.mark.parametrize(("name", "number"), EXAMPLE_CONFIGS)
def test_each_declared_example_config_plays_to_the_end_keeping_every_invariant(
    name: str, number: int
) -> None:
    """Options other than the defaults get played, replayed and leak-checked too."""
    definition = load(name)
    config = definition.example_configs[number]
    players = _player_counts(definition)[-1]
    report = simulate(definition, games=3, seed=number, players=players, config=config, schemas=SCHEMAS)
    problems = [record.problem for record in report.records if record.problem]
    assert report.ok and not problems, problems
    assert all(record.outcome != "unfinished" for record in report.records)
