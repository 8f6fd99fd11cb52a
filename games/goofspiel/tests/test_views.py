"""Hidden information: a bid is its bidder's secret until the reveal; future prizes are in no state."""

import json
from collections.abc import Callable, Mapping

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from pydantic import JsonValue
from tabletop import GameAction
from tabletop.games import load
from tabletop.schemas import render_schemas
from tabletop.testing import GameHarness
from tabletop.views import (
    SPECTATOR,
    Perspective,
    find_leaks,
    project,
    project_action,
    project_log,
    view_documents,
)
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]
Json = dict[str, JsonValue]
PERSPECTIVES: list[Perspective] = ["p1", "p2", SPECTATOR]


@pytest.fixture
def one_bid(harness: Harness) -> tuple[Harness, GameAction]:
    """The first round after p1 bid 5 (p2 has not bid yet), and p1's recorded Bid."""
    (bid,) = harness.run(harness.action(HydratedBid, "p1", card=5)).actions
    return harness, bid


def view(state: HydratedGoofspielGameState, perspective: Perspective) -> Json:
    data: Json = project(state, perspective).model_dump(mode="json")
    return data


def sealed_bids(data: Json) -> JsonValue:
    auction = data["auction"]
    assert isinstance(auction, dict)
    return auction["bids"]


def test_the_bidder_sees_their_sealed_bid_the_others_only_that_it_is_in(
    one_bid: tuple[Harness, GameAction],
) -> None:
    state = one_bid[0].state
    assert sealed_bids(view(state, "p1")) == [{"participant_id": "p1", "amount": 5}]
    assert sealed_bids(view(state, "p2")) == [{"participant_id": "p1", "amount": None}]
    assert sealed_bids(view(state, SPECTATOR)) == [{"participant_id": "p1"}]


def test_the_bid_card_is_in_the_bidders_log_only(one_bid: tuple[Harness, GameAction]) -> None:
    harness, bid = one_bid
    prize = harness.state.prize
    expected: list[tuple[Perspective, int | None]] = [("p1", 5), ("p2", None), (SPECTATOR, None)]
    for perspective, card in expected:
        data = project_action(bid, perspective).model_dump(mode="json")
        assert data["card"] == card, perspective
        assert (data["player_id"], data["metadata"]) == ("p1", {"round": 1, "prize": prize})


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_the_prize_up_is_public_and_no_future_prize_is_anywhere(
    one_bid: tuple[Harness, GameAction], perspective: Perspective
) -> None:
    state = one_bid[0].state
    data = view(state, perspective)
    assert data["prize"] == state.prize and "prng" not in data
    everything = state.model_dump(mode="json")  # not even the full state orders the prizes left
    assert not {"prize_deck", "prize_deck_count"} & (set(data) | set(everything))
    assert len(state.prizes_left) == 12


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_hands_are_public_and_keep_the_bid_card_until_the_reveal(
    one_bid: tuple[Harness, GameAction], perspective: Perspective
) -> None:
    players = view(one_bid[0].state, perspective)["players"]
    assert isinstance(players, list)
    assert [player["hand"] for player in players] == [list(range(1, 14))] * 2  # type: ignore[index,call-overload]


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_the_reveal_shows_both_bids_to_everyone(
    one_bid: tuple[Harness, GameAction], perspective: Perspective
) -> None:
    harness, _ = one_bid
    prize = harness.state.prize
    second, reveal, _ = harness.run(harness.action(HydratedBid, "p2", card=9)).actions
    assert project_action(second, perspective).model_dump(mode="json")["card"] == (
        9 if perspective == "p2" else None
    )  # a Bid stays sealed in the log: the Reveal is where the cards show
    data = project_action(reveal, perspective).model_dump(mode="json")
    assert reveal.reveals_info is True
    assert data["metadata"] == {
        "round": 1,
        "prize": prize,
        "bids": {"p1": 5, "p2": 9},
        "winner_id": "p2",
        "scores": {"p1": 0, "p2": prize},
    }
    rounds = view(harness.state, perspective)["rounds"]
    assert rounds == [{"round": 1, "prize": prize, "bids": {"p1": 5, "p2": 9}, "winner_id": "p2"}]


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_views_and_logs_leak_nothing_and_match_the_exported_schemas(
    harness: Harness, play_round: PlayRound, perspective: Perspective
) -> None:
    files = render_schemas([load("goofspiel")], producers=[view_documents])
    assert sorted(path for path in files if path.startswith("goofspiel/views/")) == [
        "goofspiel/views/actions/Bid.json",
        "goofspiel/views/player.json",
        "goofspiel/views/spectator.json",
    ]
    kind = "spectator" if perspective is SPECTATOR else "player"
    state_schema = Draft202012Validator(json.loads(files[f"goofspiel/views/{kind}.json"]))
    action_schemas = {
        "Bid": Draft202012Validator(json.loads(files["goofspiel/views/actions/Bid.json"])),
        "Reveal": Draft202012Validator(json.loads(files["goofspiel/actions/Reveal.json"])),
        "RevealPrize": Draft202012Validator(json.loads(files["goofspiel/actions/RevealPrize.json"])),
    }
    for cards in ({"p2": 7, "p1": 7}, {"p1": 13}):
        start = len(harness.log)
        play_round(harness, cards)
        shown = project(harness.state, perspective)
        assert find_leaks(harness.state, shown.model_dump_json(), perspective) == []
        state_schema.validate(shown.model_dump(mode="json"))
        new = harness.log[start:]
        for action, projected in zip(new, project_log(new, perspective), strict=True):
            assert find_leaks(action, projected.model_dump_json(), perspective) == []
            action_schemas[action.type].validate(projected.model_dump(mode="json"))


def test_the_checker_finds_a_sealed_bid_in_a_view(
    one_bid: tuple[Harness, GameAction],
) -> None:
    harness, bid = one_bid
    state = harness.state
    opened = view(state, "p2")
    opened["auction"]["bids"][0]["amount"] = 5  # type: ignore[call-overload,index]
    leaks = find_leaks(state, json.dumps(opened), "p2")
    assert any("auction.bids[0].amount" in leak for leak in leaks), leaks
    shown = project_action(bid, "p2").model_dump(mode="json")
    shown["card"] = 5
    assert find_leaks(bid, json.dumps(shown), "p2")
