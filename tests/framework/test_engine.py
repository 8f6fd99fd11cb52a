"""The engine: starting games, applying actions, system actions, rollback and its errors."""

import orjson
import pytest
from tabletop import ActionSource, GameDefinitionError, GameEngine, GameResult, IllegalActionError
from tabletop.testing import GameHarness, make_game
from tabletop_fixtures.counter import (
    CounterConfig,
    CounterState,
    HydratedCascade,
    HydratedExplode,
    HydratedIncrement,
    HydratedPause,
    HydratedTick,
    Phase,
    make_definition,
)

Harness = GameHarness[CounterState, CounterConfig]


@pytest.fixture
def harness() -> Harness:
    return GameHarness(make_definition(), players=2, seed=7)


def dump(state: CounterState) -> bytes:
    return orjson.dumps(state.model_dump(mode="json"))


def test_start_builds_fixed_fields_then_enters_the_initial_state(harness: Harness) -> None:
    state = harness.state
    assert state.game_id == "game-1"
    assert [p.player_id for p in state.players] == ["p1", "p2"]
    assert state.machine_state is Phase.COUNTING
    assert state.turn_manager.turn_order == ("p1", "p2")
    assert state.prng.seed == 7
    assert state.prng.invocations == 35  # the state id is one rand_id()
    assert len(state.id) == 21
    assert state.enters == 1
    assert state.active_player_ids == ["p1", "p2"]
    assert (state.action_count, state.action_checksum) == (0, 0)


def test_run_records_the_action_and_never_mutates_its_input(harness: Harness) -> None:
    before = dump(harness.state)
    result = harness.engine.run(harness.action(HydratedIncrement, "p1", by=3), harness.state, harness.game)
    assert dump(harness.state) == before
    assert result.state.count == 3
    assert result.state.player("p1").increments == 1
    assert result.state.action_count == 1
    (recorded,) = result.actions
    assert recorded.index == 0
    assert result.state.action_checksum != 0


def test_enter_is_called_even_when_the_state_does_not_change(harness: Harness) -> None:
    state = harness.play(harness.action(HydratedIncrement, "p1"), harness.action(HydratedIncrement, "p2"))
    assert state.machine_state is Phase.COUNTING
    assert state.enters == 3


def test_system_actions_run_in_the_same_call_with_prng_ids(harness: Harness) -> None:
    result = harness.run(harness.action(HydratedCascade, None, ticks=3))
    assert [a.type for a in result.actions] == ["Cascade", "Tick", "Tick", "Tick"]
    assert [a.index for a in result.actions] == [0, 1, 2, 3]
    assert all(a.source == "system" and len(a.id) == 21 for a in result.actions[1:])
    assert result.state.ticks == 3
    assert result.state.action_count == 4
    assert result.state.prng.invocations == 35 + 3 * 35


def test_a_runaway_cascade_is_a_definition_error_and_changes_nothing(harness: Harness) -> None:
    before = dump(harness.state)
    with pytest.raises(GameDefinitionError, match="max_cascade"):
        harness.engine.run(harness.action(HydratedCascade, None, ticks=300), harness.state, harness.game)
    assert dump(harness.state) == before


def test_an_exception_in_apply_changes_nothing(harness: Harness) -> None:
    before = dump(harness.state)
    with pytest.raises(RuntimeError, match="boom"):
        harness.engine.run(harness.action(HydratedExplode), harness.state, harness.game)
    assert dump(harness.state) == before


def test_returning_an_undeclared_state_is_a_definition_error(harness: Harness) -> None:
    harness.play(harness.action(HydratedPause))
    with pytest.raises(GameDefinitionError, match="does not declare"):
        harness.play({"id": "x", "game_id": "game-1", "type": "BadMove"})


def test_terminal_state_ends_the_game(harness: Harness) -> None:
    state = harness.play({"id": "f", "game_id": "game-1", "type": "Finish"})
    assert state.result is GameResult.DRAW
    assert harness.engine.valid_action_types(state, "p1", harness.game) == []
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedIncrement, "p1"))
    assert caught.value.code == "game-over"


@pytest.mark.parametrize(
    ("payload", "code", "path"),
    [
        ({"type": "Increment", "player_id": "p9"}, "unknown-player", "player_id"),
        ({"type": "Increment", "player_id": "p1", "by": 99}, "invalid-value", "by"),
        ({"type": "Increment", "player_id": "p1", "index": 5}, "stale-index", "index"),
        ({"type": "Increment", "player_id": "p1", "game_id": "other"}, "wrong-game", "game_id"),
        ({"type": "Increment", "player_id": "p1", "id": ""}, "missing-id", "id"),
        ({"type": "Resume"}, "action-not-allowed", "type"),
        ({"type": "Nope"}, "unknown-action-type", "type"),
        ({"type": "Increment", "player_id": "p1", "colour": 1}, "unexpected-field", "colour"),
        ({"type": "Increment"}, "missing-field", "player_id"),
        ({"player_id": "p1"}, "missing-action-type", "type"),
    ],
)
def test_illegal_actions_raise_typed_errors_and_change_nothing(
    harness: Harness, payload: dict[str, object], code: str, path: str | None
) -> None:
    before = dump(harness.state)
    action = {"id": "a1", "game_id": "game-1", **payload}
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(action, harness.state, harness.game)
    assert (caught.value.code, caught.value.path) == (code, path)
    assert dump(harness.state) == before


def test_action_check_errors_carry_the_game_code(harness: Harness) -> None:
    harness.play(*(harness.action(HydratedIncrement, "p1", by=10) for _ in range(10)))
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedIncrement, "p2", by=1))
    assert (caught.value.code, caught.value.path) == ("over-limit", "by")


def test_inactive_players_have_no_valid_action_types(harness: Harness) -> None:
    state = harness.play(harness.action(HydratedPause))
    state.active_player_ids = ["p2"]
    assert harness.engine.valid_action_types(state, "p1", harness.game) == []
    assert harness.engine.valid_action_types(state, "p2", harness.game) == ["Resume", "BadMove"]


def test_player_not_active_is_rejected(harness: Harness) -> None:
    state = harness.engine.copy_state(harness.state)
    state.active_player_ids = ["p2"]
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(harness.action(HydratedIncrement, "p1"), state, harness.game)
    assert caught.value.code == "player-not-active"


@pytest.mark.parametrize("raw", [b"{not json", "[1, 2]", b'"text"'])
def test_malformed_input_is_an_illegal_action(harness: Harness, raw: bytes | str) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(raw, harness.state, harness.game)
    assert caught.value.code in {"invalid-json", "not-an-object", "missing-action-type"}


def test_legal_actions_are_enumerated_and_all_accepted(harness: Harness) -> None:
    legal = harness.legal_actions("p1")
    assert [a.model_dump(mode="json", include={"type", "by"}) for a in legal] == [
        {"type": "Increment", "by": 1},
        {"type": "Increment", "by": 2},
    ]
    assert len({a.id for a in legal}) == 2
    for action in legal:
        harness.engine.run(action, harness.state, harness.game)


@pytest.mark.parametrize(
    ("players", "type_id", "problem"),
    [(0, "counter", "0 players"), (5, "counter", "1..4"), (2, "other", "not 'counter'")],
)
def test_start_rejects_games_that_do_not_fit(players: int, type_id: str, problem: str | None) -> None:
    definition = make_definition()
    if not definition.min_players <= players <= definition.max_players:
        with pytest.raises(IllegalActionError, match=f"{players} players; counter takes 1..4") as refused:
            make_game(definition, players=players)  # make_game checks the count as start does
        assert refused.value.code == "invalid-game"
        game = make_game(definition, players=4)
        seats = [*game.players, *game.players][:players]
        renamed = [seat.model_copy(update={"id": f"s{n}"}) for n, seat in enumerate(seats)]
        game = game.model_copy(update={"players": renamed})
    else:
        game = make_game(definition, players=players).model_copy(update={"type_id": type_id})
    with pytest.raises(IllegalActionError, match=problem or "") as caught:
        GameEngine(definition).start(game)
    assert caught.value.code == "invalid-game"


def test_same_seed_and_actions_give_byte_identical_states() -> None:
    def play() -> bytes:
        harness: Harness = GameHarness(make_definition(), seed=99)
        harness.play(harness.action(HydratedCascade, None, ticks=2), harness.action(HydratedIncrement, "p2"))
        return dump(harness.state)

    assert play() == play()


def test_system_action_fields_are_validated(harness: Harness) -> None:
    ctx = harness.context()
    with pytest.raises(ValueError, match=r"unexpected|Extra"):
        ctx.add_system_action(HydratedTick, bogus=1)


def test_a_submitted_action_cannot_pose_as_a_system_action(harness: Harness) -> None:
    before = dump(harness.state)
    forged = {"id": "x1", "game_id": harness.game.id, "type": "Tick", "source": "system"}
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(forged, harness.state, harness.game)
    assert (caught.value.code, caught.value.path) == ("unexpected-field", "source")  # a client never sends it
    model = HydratedTick(id="x1", game_id=harness.game.id, source=ActionSource.SYSTEM)
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(model, harness.state, harness.game)
    assert (caught.value.code, caught.value.path) == ("system-action", "source")
    assert dump(harness.state) == before
