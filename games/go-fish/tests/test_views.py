"""Hidden information: what each player and a spectator see of hands, the deck and the draws."""

import json
from collections.abc import Callable

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from pydantic import JsonValue
from tabletop import GameAction, GameEngine
from tabletop.components import Card, Rank
from tabletop.games import load
from tabletop.schemas import render_schemas
from tabletop.testing import TEST_PRNG_KEY, ForcedChance, GameHarness, make_game
from tabletop.views import (
    SPECTATOR,
    Perspective,
    find_leaks,
    hydrated_view_type,
    project,
    project_action,
    project_log,
    view_documents,
    view_type,
)
from tabletop_go_fish import definition
from tabletop_go_fish.actions.ask import HydratedAsk
from tabletop_go_fish.actions.deal_card import HydratedDealCard
from tabletop_go_fish.actions.draw_card import DrawCard
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState
from tabletop_go_fish.model.player_state import Book

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]
Json = dict[str, JsonValue]
PERSPECTIVES: list[Perspective] = ["p1", "p2", "p3", SPECTATOR]


@pytest.fixture
def table(deal: Deal) -> Harness:
    """Three players, p1 on turn: p1 holds 7H 7S, p2 7D 2C, p3 KC; the stock is 3C 4C 5C, and the
    next draw takes the 5C."""
    harness: Harness = GameHarness(definition, players=3, seed=42)
    harness.chance = ForcedChance([Card.from_code("5C")])
    deal(harness.state, deck="3C 4C 5C", p1="7H 7S", p2="7D 2C", p3="KC")
    return harness


def view(state: GoFishGameState, perspective: Perspective) -> Json:
    data: Json = project(state, perspective).model_dump(mode="json")
    return data


def seat(data: Json, index: int) -> Json:
    players = data["players"]
    assert isinstance(players, list)
    entry = players[index]
    assert isinstance(entry, dict)
    return entry


def ask(harness: Harness, target: str, rank: str) -> list[GameAction]:
    return list(harness.run(harness.action(HydratedAsk, "p1", target_player_id=target, rank=rank)).actions)


def test_a_player_sees_their_own_hand_and_only_the_size_of_the_others(table: Harness) -> None:
    mine = view(table.state, "p1")
    assert seat(mine, 0)["hand"] == [{"rank": "7", "suit": "hearts"}, {"rank": "7", "suit": "spades"}]
    assert [seat(mine, index)["hand_count"] for index in range(3)] == [2, 2, 1]
    assert seat(mine, 1)["hand"] is None and seat(mine, 2)["hand"] is None
    theirs = view(table.state, "p2")
    assert seat(theirs, 0)["hand"] is None
    assert seat(theirs, 1)["hand"] == [{"rank": "7", "suit": "diamonds"}, {"rank": "2", "suit": "clubs"}]


def test_a_spectator_sees_only_hand_sizes(table: Harness) -> None:
    watching = view(table.state, SPECTATOR)
    for index, size in enumerate([2, 2, 1]):
        assert "hand" not in seat(watching, index)
        assert seat(watching, index)["hand_count"] == size


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_everyone_sees_the_deck_size_books_and_turn_but_not_the_deck_or_the_seed(
    table: Harness, perspective: Perspective
) -> None:
    table.state.player("p3").books = [Book(rank=Rank.QUEEN, turn=1)]
    data = view(table.state, perspective)
    assert data["deck_count"] == 3
    assert "deck" not in data and "prng" not in data
    assert [seat(data, index)["books"] for index in range(3)] == [[], [], [{"rank": "Q", "turn": 1}]]
    assert data["active_player_ids"] == ["p1"]


def test_the_drawn_card_is_shown_to_the_drawer_alone(table: Harness) -> None:
    asked, drawn = ask(table, "p3", "7")  # p3 has no 7: go fish, p1 draws the 5C
    assert isinstance(drawn, DrawCard) and drawn.outcome is not None
    assert drawn.outcome.code == "5C"
    for perspective in PERSPECTIVES:
        data = project_action(drawn, perspective).model_dump(mode="json")
        expected = {"rank": "5", "suit": "clubs"} if perspective == "p1" else None
        assert data["outcome"] == expected, perspective
        assert data["metadata"] == {"caught": False, "book": None}, perspective
        assert (data["player_id"], data["fishing_for"]) == ("p1", "7")
    assert project_action(asked, "p2") == project_action(asked, SPECTATOR)  # the ask hides nothing


def test_a_caught_card_shows_only_its_rank_to_the_others(table: Harness, deal: Deal) -> None:
    deal(table.state, deck="3C 7C")
    table.chance = ForcedChance([Card.from_code("7C")])
    _, drawn = ask(table, "p3", "7")  # go fish, and the 7C is drawn: caught
    for perspective in ("p2", SPECTATOR):
        data = project_action(drawn, perspective).model_dump(mode="json")
        assert (data["outcome"], data["metadata"]) == (None, {"caught": True, "book": None})
        assert data["fishing_for"] == "7"  # caught + fishing_for: the table knows the rank
    assert project_action(drawn, "p1").model_dump(mode="json")["outcome"] == {
        "rank": "7",
        "suit": "clubs",
    }


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_cards_handed_over_are_public(table: Harness, perspective: Perspective) -> None:
    (asked,) = ask(table, "p2", "7")  # p2 hands over the 7D
    data = project_action(asked, perspective).model_dump(mode="json")
    assert data["metadata"] == {
        "received": [{"rank": "7", "suit": "diamonds"}],
        "go_fish": False,
        "book": None,
    }


def drawn_cards(log: list[GameAction]) -> list[JsonValue]:
    return [action.model_dump(mode="json")["outcome"] for action in log if action.type == "DrawCard"]


def test_each_card_dealt_is_shown_to_its_receiver_alone() -> None:
    game = make_game(definition, players=3, seed=5)
    deals = GameEngine(definition).start(game, prng_key=TEST_PRNG_KEY).actions
    files = render_schemas([load("go-fish")], producers=[view_documents])
    schema = Draft202012Validator(json.loads(files["go-fish/views/actions/DealCard.json"]))
    assert [deal.type for deal in deals] == ["DealCard"] * 21
    for deal in deals:
        assert isinstance(deal, HydratedDealCard) and deal.outcome is not None
        for perspective in PERSPECTIVES:
            projected = project_action(deal, perspective)
            data = projected.model_dump(mode="json")
            assert data["outcome"] == (
                deal.outcome.model_dump(mode="json") if perspective == deal.to else None
            )
            assert find_leaks(deal, projected.model_dump_json(), perspective) == []
            schema.validate(data)


def test_each_log_hides_the_draws_of_the_others(table: Harness) -> None:
    log = ask(table, "p3", "7")
    assert drawn_cards(project_log(log, "p1")) == [{"rank": "5", "suit": "clubs"}]
    for perspective in ("p2", "p3", SPECTATOR):
        assert drawn_cards(project_log(log, perspective)) == [None]


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_views_and_logs_leak_nothing_and_match_the_exported_schemas(
    table: Harness, perspective: Perspective
) -> None:
    files = render_schemas([load("go-fish")], producers=[view_documents])
    assert sorted(path for path in files if path.startswith("go-fish/views/")) == [
        "go-fish/views/actions/DealCard.json",
        "go-fish/views/actions/DrawCard.json",
        "go-fish/views/player.json",
        "go-fish/views/spectator.json",
    ]
    kind = "spectator" if perspective is SPECTATOR else "player"
    state_schema = Draft202012Validator(json.loads(files[f"go-fish/views/{kind}.json"]))
    action_schemas = {
        "Ask": Draft202012Validator(json.loads(files["go-fish/actions/Ask.json"])),
        "DrawCard": Draft202012Validator(json.loads(files["go-fish/views/actions/DrawCard.json"])),
    }
    log = ask(table, "p2", "7") + ask(table, "p3", "7")
    assert [action.type for action in log] == ["Ask", "Ask", "DrawCard"]
    shown = project(table.state, perspective)
    assert type(shown) is view_type(HydratedGoFishGameState, spectator=perspective is SPECTATOR)
    assert find_leaks(table.state, shown.model_dump_json(), perspective) == []
    state_schema.validate(shown.model_dump(mode="json"))
    for action, projected in zip(log, project_log(log, perspective), strict=True):
        assert find_leaks(action, projected.model_dump_json(), perspective) == []
        action_schemas[action.type].validate(projected.model_dump(mode="json"))


def test_the_checker_finds_a_card_of_another_hand_or_of_the_deck(table: Harness) -> None:
    state = table.state
    for planted, path in [(state.player("p2").hand[1], "players[1].hand"), (state.deck[0], "deck")]:
        data = view(state, "p1")
        hand = seat(data, 0)["hand"]
        assert isinstance(hand, list)
        hand.append(planted.model_dump(mode="json"))
        leaks = find_leaks(state, json.dumps(data), "p1")
        assert any(leak.startswith(path) for leak in leaks), leaks


def test_a_hydrated_view_answers_the_public_queries(table: Harness) -> None:
    table.state.player("p2").books = [Book(rank=Rank.QUEEN, turn=1), Book(rank=Rank.KING, turn=1)]
    hydrated = hydrated_view_type(HydratedGoFishGameState).hydrate(project(table.state, "p3"))
    assert hydrated.leaders() == ["p2"]  # type: ignore[attr-defined]
    assert hydrated.is_active("p1") and not hydrated.is_over
