"""Bid: each player seals one card from their hand per round, in either order; nothing else is accepted."""

from collections.abc import Callable, Mapping

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import BidMetadata, HydratedBid
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def _bid(harness: Harness, player_id: str, card: int) -> HydratedBid:
    return harness.action(HydratedBid, player_id, card=card)


def test_apply_seals_the_bid_and_keeps_the_card_in_hand_until_the_reveal(harness: Harness) -> None:
    ctx = harness.context()
    prize = ctx.state.prize
    action = _bid(harness, "p2", 9)
    action.apply(ctx)
    auction = ctx.state.current_auction()
    assert (auction.has_bid("p2"), auction.bid_of("p2"), auction.waiting_for) == (True, 9, ["p1"])
    assert 9 in ctx.state.player("p2").hand
    assert len(ctx.state.player("p2").hand) == 13
    assert prize is not None
    assert action.metadata == BidMetadata(round=1, prize=prize)
    assert harness.state.current_auction().bids == []  # the harness is untouched


@pytest.mark.parametrize("first", ["p1", "p2"])
def test_either_player_may_bid_first(make_harness: MakeHarness, first: str) -> None:
    harness = make_harness(prizes=[5, 9])
    second = "p2" if first == "p1" else "p1"
    result = harness.run(_bid(harness, first, 4))
    assert [action.type for action in result.actions] == ["Bid"]
    assert harness.state.active_player_ids == ["p1", "p2"]  # both stay active until both have bid
    result = harness.run(_bid(harness, second, 6))
    # the round is revealed, then the next round's prize comes up by chance, in the same run
    assert [action.type for action in result.actions] == ["Bid", "Reveal", "RevealPrize"]
    assert (harness.state.rounds[0].prize, harness.state.prize) == (5, 9)
    assert harness.state.rounds[0].bids == {"p1": 4 if first == "p1" else 6, "p2": 6 if first == "p1" else 4}


def test_check_accepts_any_card_in_hand(harness: Harness) -> None:
    ctx = harness.context()
    for card in ctx.state.player("p1").hand:
        _bid(harness, "p1", card).check(ctx)


def test_check_refuses_a_card_spent_in_an_earlier_round(harness: Harness, play_round: PlayRound) -> None:
    play_round(harness, {"p1": 7, "p2": 2})
    with pytest.raises(IllegalActionError) as caught:
        _bid(harness, "p1", 7).check(harness.context())
    assert (caught.value.code, caught.value.path) == ("card-not-in-hand", "card")
    _bid(harness, "p1", 2).check(harness.context())  # the other player's spent card is still p1's


def test_check_refuses_a_card_beyond_the_configured_hand(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=5)
    with pytest.raises(IllegalActionError) as caught:
        _bid(harness, "p2", 6).check(harness.context())
    assert (caught.value.code, caught.value.path) == ("card-not-in-hand", "card")


def test_check_refuses_a_second_bid_in_the_same_round(harness: Harness) -> None:
    ctx = harness.context()
    _bid(harness, "p1", 3).apply(ctx)
    with pytest.raises(IllegalActionError) as caught:
        _bid(harness, "p1", 5).check(ctx)
    assert caught.value.code == "already-bid"


def test_check_refuses_a_player_outside_the_round(harness: Harness) -> None:
    with pytest.raises(IllegalActionError) as caught:
        _bid(harness, "p3", 5).check(harness.context())
    assert caught.value.code == "not-participant"


@pytest.mark.parametrize(
    ("before", "raw", "code", "path"),
    [
        ({}, {"player_id": "p1", "card": 14}, "card-not-in-hand", "card"),
        ({"p1": 3}, {"player_id": "p1", "card": 4}, "already-bid", None),
        ({"p1": 3}, {"player_id": "p1", "card": 3}, "already-bid", None),
        ({}, {"player_id": "p9", "card": 3}, "unknown-player", "player_id"),
        ({}, {"player_id": "p1", "card": 0}, "invalid-value", "card"),
        ({}, {"player_id": "p1", "card": 53}, "invalid-value", "card"),
        ({}, {"player_id": "p1"}, "missing-field", "card"),
        ({}, {"player_id": "p1", "card": "high"}, "invalid-value", "card"),
    ],
)
def test_the_engine_refuses_illegal_bids_and_changes_nothing(
    harness: Harness,
    play_round: PlayRound,
    before: dict[str, int],
    raw: dict[str, object],
    code: str,
    path: str | None,
) -> None:
    play_round(harness, before)
    snapshot = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play({"id": "x1", "game_id": "game-1", "type": "Bid", **raw})
    assert (caught.value.code, caught.value.path) == (code, path)
    assert harness.state.model_dump_json() == snapshot


def test_the_engine_refuses_a_spent_card(harness: Harness, play_round: PlayRound) -> None:
    play_round(harness, {"p1": 13, "p2": 1})
    with pytest.raises(IllegalActionError) as caught:
        harness.play(_bid(harness, "p1", 13))
    assert (caught.value.code, caught.value.path) == ("card-not-in-hand", "card")


@pytest.mark.parametrize(
    "raw", [{"type": "Reveal"}, {"type": "RevealPrize"}, {"type": "RevealPrize", "outcome": 13}]
)
def test_players_cannot_reveal_bids_nor_prizes_for_themselves(
    harness: Harness, raw: dict[str, object]
) -> None:
    snapshot = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play({"id": "x1", "game_id": "game-1", **raw})
    assert (caught.value.code, caught.value.path) == ("system-only", "type")
    assert harness.state.model_dump_json() == snapshot


def test_no_bid_is_accepted_once_the_game_is_over(make_harness: MakeHarness, play_round: PlayRound) -> None:
    harness = make_harness(cards=1)
    play_round(harness, {"p1": 1, "p2": 1})
    assert harness.state.is_over
    with pytest.raises(IllegalActionError) as caught:
        harness.play(_bid(harness, "p1", 1))
    assert caught.value.code == "game-over"
    assert HydratedBid.enumerate(harness.state, "p1") == []
    assert not HydratedBid.can_bid(harness.state, "p1")


def test_enumerate_offers_every_card_in_hand_until_the_player_has_bid(
    harness: Harness, play_round: PlayRound
) -> None:
    play_round(harness, {"p1": 5, "p2": 8})
    state = harness.state
    for player_id, spent in [("p1", 5), ("p2", 8)]:
        offered = HydratedBid.enumerate(state, player_id)
        assert [action.card for action in offered] == [card for card in range(1, 14) if card != spent]
        assert all(action.player_id == player_id and action.id == "" for action in offered)
    play_round(harness, {"p2": 1})
    assert HydratedBid.enumerate(harness.state, "p2") == []
    assert len(HydratedBid.enumerate(harness.state, "p1")) == 12
    assert HydratedBid.enumerate(harness.state, "p3") == []


@pytest.mark.parametrize(
    ("player_id", "bids", "expected"),
    [
        ("p1", {}, True),
        ("p2", {}, True),
        ("p1", {"p1": 2}, False),
        ("p2", {"p1": 2}, True),
        ("p3", {}, False),
    ],
)
def test_can_bid_needs_an_active_player_who_has_not_bid(
    harness: Harness, play_round: PlayRound, player_id: str, bids: dict[str, int], expected: bool
) -> None:
    state = play_round(harness, bids)
    assert HydratedBid.can_bid(state, player_id) is expected


@pytest.mark.parametrize("cards", [1, 2, 13, 52])
def test_the_action_space_is_every_card_of_the_game(make_harness: MakeHarness, cards: int) -> None:
    harness = make_harness(cards=cards)
    space = HydratedBid.action_space(harness.game)
    assert space == [{"card": card} for card in range(1, cards + 1)]
    offered = [{"card": action.card} for action in HydratedBid.enumerate(harness.state, "p1")]
    assert offered == space  # at the start, every card is in hand
