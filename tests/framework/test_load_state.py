"""A host loads stored states through one typed door; the engine refuses a game that is not the state's."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

import orjson
import pytest
from tabletop import (
    AnyState,
    GameConfig,
    GameEngine,
    Hydrated,
    IllegalActionError,
    InvalidStateError,
    TabletopError,
)
from tabletop.games import available, load
from tabletop.testing import GameHarness, make_game
from tabletop_fixtures.counter import CounterState
from tabletop_fixtures.counter import make_definition as make_counter
from typeguard import suppress_type_checks

Json = dict[str, object]


def _harness(name: str) -> GameHarness[AnyState, GameConfig]:
    harness = GameHarness.for_game(name, seed=6)
    for _ in range(3):  # a little way into the game
        player = next(p for p in harness.state.active_player_ids if harness.legal_actions(p))
        harness.play(harness.legal_actions(player)[0])
    return harness


@pytest.mark.parametrize("name", available())
def test_a_stored_state_loads_back_from_bytes_text_a_mapping_or_a_model(name: str) -> None:
    harness = _harness(name)
    engine, state = harness.engine, harness.state
    raw = state.model_dump_json()
    assert isinstance(state, Hydrated)
    for stored in (raw.encode(), raw, orjson.loads(raw), state, state.dehydrate()):
        loaded = engine.load_state(stored)
        assert type(loaded) is engine.definition.state_type
        assert loaded == state and loaded is not state
    loaded.action_count += 1
    assert state.action_count == loaded.action_count - 1  # never aliased


def _invalid(engine: GameEngine[AnyState, GameConfig], data: object) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as caught:
        engine.load_state(data)  # type: ignore[arg-type]
    error = caught.value
    assert isinstance(error, TabletopError)
    assert error.code == "invalid-state" and error.problems
    return error


@pytest.mark.parametrize("name", available())
def test_a_state_that_fails_its_schema_is_one_typed_error_naming_each_problem(name: str) -> None:
    harness = _harness(name)
    data: Json = orjson.loads(harness.state.model_dump_json())
    data["action_count"] = "many"
    data["machine_state"] = "Nowhere"
    del data["players"]
    error = _invalid(harness.engine, data)
    assert [problem.split(":")[0] for problem in error.problems] == [
        "players",
        "action_count",
        "machine_state",
    ]
    assert _invalid(harness.engine, b"{not json").problems
    assert _invalid(harness.engine, b"[]").problems


@pytest.mark.parametrize(
    ("break_it", "problem"),
    [
        (lambda data: data["active_player_ids"].append("p9"), "active player 'p9' has no seat"),
        (lambda data: data["turn_manager"]["turn_order"].append("p7"), "turn order names 'p7'"),
        (lambda data: data["players"].append(data["players"][0]), "player ids are not unique"),
    ],
)
def test_the_framework_checks_that_players_named_have_seats(
    break_it: Callable[[Json], None], problem: str
) -> None:
    harness = _harness("tic-tac-toe")
    data = orjson.loads(harness.state.model_dump_json())
    break_it(data)
    assert any(problem in line for line in _invalid(harness.engine, data).problems)


def test_go_fish_loses_no_card() -> None:
    harness = _harness("go-fish")
    data = orjson.loads(harness.state.model_dump_json())
    lost = data["deck"].pop()
    data["players"][0]["hand"].append(data["players"][1]["hand"][0])
    problems = _invalid(harness.engine, data).problems
    code = f"{lost['rank']}{lost['suit'][0].upper()}"
    assert f"1 card(s) are nowhere: {code}" in problems
    assert any(line.startswith("cards are in several places: ") for line in problems)


def test_go_fish_books_each_rank_once_and_keeps_no_book_in_hand() -> None:
    harness = _harness("go-fish")
    data = orjson.loads(harness.state.model_dump_json())
    data["players"][0]["books"] = [{"rank": "7", "turn": 1}, {"rank": "7", "turn": 1}]
    problems = _invalid(harness.engine, data).problems
    assert "rank 7 is booked 2 times" in problems


def test_goofspiel_holds_at_most_one_sealed_bid_per_player() -> None:
    harness = GameHarness.for_game("goofspiel", seed=2)
    bid = {"id": "b1", "game_id": "game-1", "type": "Bid", "player_id": "p1", "card": 3}
    harness.play(bid)
    data = orjson.loads(harness.state.model_dump_json())
    sealed = data["auction"]["bids"]
    assert [b["participant_id"] for b in sealed] == ["p1"]
    sealed.append({**sealed[0], "amount": 5})
    problems = _invalid(harness.engine, data).problems
    assert problems == ("p1 has 2 sealed bids",)


def test_goofspiel_accounts_for_every_card_and_prize() -> None:
    harness = GameHarness.for_game("goofspiel", seed=2)
    data = orjson.loads(harness.state.model_dump_json())
    data["prize"] = 14  # a prize card that is not in the game
    data["players"][1]["hand"].remove(5)
    data["players"][0]["score"] = 3
    problems = _invalid(harness.engine, data).problems
    assert problems[0] == "the prizes turned up are [14], not among 1..13 once each"
    assert any(line.startswith("p2's hand ") for line in problems)
    assert "p1 scores 3 but took prizes worth 0" in problems


def test_an_invariant_hook_that_crashes_on_a_state_still_gives_the_typed_error() -> None:
    def fragile(state: CounterState) -> list[str]:
        known: dict[str, str] = {}
        return [] if state.count < 5 else [known["missing"]]

    engine = GameEngine(make_counter(invariants=fragile))
    state = engine.start(make_game(engine.definition, players=2)).state
    assert engine.load_state(state.model_dump_json()) == state
    data = orjson.loads(state.model_dump_json())
    data["count"] = 7
    (problem,) = _invalid(engine, data).problems  # type: ignore[arg-type]
    assert problem == "the game's invariants failed on it: KeyError: 'missing'"


def test_check_state_reports_the_games_problems_on_a_live_state() -> None:
    engine = GameEngine(
        make_counter(invariants=lambda state: [f"count {state.count} is odd"] * (state.count % 2))
    )
    state = engine.start(make_game(engine.definition, players=1)).state
    engine.check_state(state)
    state.count = 3
    with pytest.raises(InvalidStateError, match="count 3 is odd"):
        engine.check_state(state)


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"id": "game-2"}, "the game is 'game-2', the state belongs to 'game-1'"),
        ("reseat", "the game seats ['p2', 'p1'], the state has players ['p1', 'p2']"),
        ("extra", "the game seats ['p1', 'p2', 'p3'], the state has players ['p1', 'p2']"),
    ],
)
def test_run_refuses_a_game_that_is_not_the_states_and_changes_nothing(
    change: object, problem: str, in_place: bool
) -> None:
    harness = GameHarness.for_game("sample", players=2, seed=1)
    game = harness.game
    if change == "reseat":
        other = game.model_copy(update={"players": list(reversed(game.players))})
    elif change == "extra":
        other = make_game(harness.definition, players=3, seed=1)
    else:
        assert isinstance(change, dict)
        other = game.model_copy(update=change)
    state = harness.state
    before = state.model_dump_json()
    player = state.active_player_ids[0]
    action = {"id": "x1", "game_id": "game-1", "type": "AddAmount", "player_id": player, "amount": 1}
    with pytest.raises(InvalidStateError) as caught:
        harness.engine.run(action, state, other, in_place=in_place)
    assert caught.value.code == "game-mismatch" and caught.value.problems == (problem,)
    assert state.model_dump_json() == before
    after = harness.engine.run(action, state, game).state
    assert after.action_count == state.action_count + 1


def _break_turn_order(data: Json) -> None:
    data["turn_manager"]["turn_order"] = []  # type: ignore[index]


def _break_current_turn(data: Json) -> None:
    data["turn_manager"]["current_turn"]["player_id"] = "p7"  # type: ignore[index]


def _break_goofspiel_auction(data: Json) -> None:
    data["auction"] = None


def _break_pig_die(data: Json) -> None:
    data["die"]["sides"] = 1000  # type: ignore[index]


def _break_pig_score(data: Json) -> None:
    data["players"][0]["score"] = 10**6  # type: ignore[index]


def _break_sample_amount(data: Json) -> None:
    data["players"][0]["amount"] = 6  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "break_it", "problem"),
    [
        ("tic-tac-toe", _break_turn_order, "the game is in play but the turn order is empty"),
        ("pig", _break_current_turn, "the current turn is 'p7''s, who has no seat"),
        (
            "goofspiel",
            _break_goofspiel_auction,
            "a prize is up for bidding, but no auction or no simultaneous group is open",
        ),
        ("pig", _break_pig_die, "the die has 1000 sides, more than any config's 20"),
        ("pig", _break_pig_score, "p1 has banked 1000000, above any target, yet plays on"),
        ("sample", _break_sample_amount, "p1 has 6 left to add, more than a turn's 5"),
    ],
)
def test_load_state_refuses_a_state_the_engine_could_not_run(
    name: str, break_it: Callable[[Json], None], problem: str
) -> None:
    harness = _harness(name)
    data = orjson.loads(harness.state.model_dump_json())
    if name == "sample":
        data["players"][0]["player_id"], data["players"][1]["player_id"] = "p1", "p2"
    break_it(data)
    assert any(line.startswith(problem) for line in _invalid(harness.engine, data).problems)


def test_run_refuses_a_state_its_config_does_not_fit_and_a_game_of_another_type() -> None:
    harness = GameHarness.for_game("goofspiel", seed=2)
    engine, state, game = harness.engine, harness.state, harness.game
    bid = {"id": "b1", "game_id": "game-1", "type": "Bid", "player_id": "p1", "card": 3}
    before = state.model_dump_json()
    larger = game.model_copy(update={"config": game.config.model_copy(update={"cards": 3})})
    sample = make_game(load("sample"), players=2, seed=2)
    for other, problem in [
        (larger, "the state has 13 cards, its config 3"),
        (sample, "the game is a 'sample' game, the state is 'goofspiel''s"),
    ]:
        for call in (
            lambda other=other: engine.run(bid, state, other),
            lambda other=other: engine.run(bid, state, other, in_place=True),
            lambda other=other: engine.load_state(before, other),
        ):
            with pytest.raises(InvalidStateError) as caught:
                call()
            assert caught.value.code == "game-mismatch" and problem in caught.value.problems
    assert state.model_dump_json() == before
    assert engine.load_state(before, game) == state


def test_a_state_that_is_not_a_state_is_a_typed_error_not_an_attribute_error() -> None:
    harness = GameHarness.for_game("sample", players=2, seed=1)
    engine, game = harness.engine, harness.game
    stored = orjson.loads(harness.state.model_dump_json())
    player = harness.state.active_player_ids[0]
    action = {"id": "x1", "game_id": "game-1", "type": "AddAmount", "player_id": player, "amount": 1}
    calls = (
        lambda: engine.run(action, stored, game),
        lambda: engine.valid_action_types(stored, player, game),
        lambda: engine.legal_actions(stored, player, game),
        lambda: engine.run(action, harness.state, game.model_dump()),  # type: ignore[arg-type]
    )
    with suppress_type_checks():  # the engine's own check, as a host without typeguard meets it
        for call in calls:
            with pytest.raises(InvalidStateError) as caught:
                call()
            assert caught.value.code == "invalid-state"
        with pytest.raises(InvalidStateError, match="read stored states with load_state"):
            engine.run(action, stored, game)


def test_an_action_model_is_held_to_the_id_bound_and_a_mapping_to_the_size_bound() -> None:
    harness = GameHarness.for_game("sample", players=2, seed=1)
    engine, state, game = harness.engine, harness.state, harness.game
    player = state.active_player_ids[0]
    body = {"id": "x1", "game_id": "game-1", "type": "AddAmount", "player_id": player, "amount": 1}
    model = engine.definition.parser.parse(body)
    for action in (
        model.model_copy(update={"id": "x" * 10_000_000}),
        model.model_copy(update={"id": "y" * 65}),
    ):
        with pytest.raises(IllegalActionError) as caught:
            engine.run(action, state, game)
        assert (caught.value.code, caught.value.path) == ("invalid-value", "id")
    assert engine.run(model.model_copy(update={"id": "z" * 64}), state, game).state.action_count == 1
    huge: dict[str, object] = {**body, **{f"k{n}": n for n in range(1_000_000)}}
    with pytest.raises(IllegalActionError) as too_big:
        engine.run(huge, state, game)
    assert too_big.value.code == "payload-too-large"
    with pytest.raises(IllegalActionError) as long_list:
        engine.run({**body, "amount": list(range(100_000))}, state, game)
    assert long_list.value.code == "payload-too-large"
    with pytest.raises(IllegalActionError) as not_json:  # what orjson cannot write is walked
        engine.run(MappingProxyType({**body, "amount": [{1, 2}] * 100_000}), state, game)
    assert not_json.value.code == "payload-too-large"
