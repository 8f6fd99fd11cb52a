"""Every auction kind through the engine: who may act, who wins, who pays whom."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_gallery.actions.add_painting import HydratedAddPainting
from tabletop_gallery.actions.bid import HydratedBid
from tabletop_gallery.actions.buy import HydratedBuy
from tabletop_gallery.actions.decline import HydratedDecline
from tabletop_gallery.actions.passing import HydratedPass
from tabletop_gallery.actions.play_painting import HydratedPlayPainting
from tabletop_gallery.actions.reveal_bids import HydratedRevealBids, RevealBidsMetadata
from tabletop_gallery.actions.seal_bid import HydratedSealBid
from tabletop_gallery.actions.sell import HydratedSell
from tabletop_gallery.actions.set_price import HydratedSetPrice
from tabletop_gallery.components.paintings import AuctionKind
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import HydratedGalleryGameState
from tabletop_gallery.model.invariants import invariants

Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
Rig = Callable[..., HydratedGalleryGameState]

# Painting numbers: Amaro open 1, 6; once-around 2, 7; sealed 3, 8; fixed-price 4, 9; double 5, 10.
# Bexley open 13; once-around 14; sealed 15; fixed-price 16; double 17, 22.


def play(harness: Harness, player: str, painting: int) -> HydratedGalleryGameState:
    return harness.play(harness.action(HydratedPlayPainting, player, painting_id=painting))


def bid(harness: Harness, player: str, amount: int) -> HydratedGalleryGameState:
    return harness.play(harness.action(HydratedBid, player, amount=amount))


def pass_(harness: Harness, player: str) -> HydratedGalleryGameState:
    return harness.play(harness.action(HydratedPass, player))


def money(state: HydratedGalleryGameState) -> dict[str, int]:
    return {player.player_id: player.money for player in state.players}


def refused(harness: Harness, action: object) -> IllegalActionError:
    before = harness.state.model_dump()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(action)  # type: ignore[arg-type]
    assert harness.state.model_dump() == before
    return caught.value


@pytest.fixture
def table(harness: Harness, rig: Rig) -> Harness:
    """p1 on turn holds every kind of Amaro and two Bexley doubles; p2 and p3 hold Amaro and Bexley too."""
    rig(harness, hands={"p1": [1, 2, 3, 4, 5, 17, 22], "p2": [6, 7, 13, 14], "p3": [8, 9, 15, 16]})
    return harness


def test_open_bids_go_round_from_the_auctioneers_left_and_the_winner_pays_the_auctioneer(
    table: Harness,
) -> None:
    state = play(table, "p1", 1)
    assert state.machine_state is MachineState.OPEN_BIDDING
    assert state.current_auction().participants == ["p2", "p3", "p1"]
    assert state.active_player_ids == ["p2"]
    bid(table, "p2", 10)
    bid(table, "p3", 12)
    bid(table, "p1", 15)  # the auctioneer may bid
    pass_(table, "p2")
    state = bid(table, "p3", 20)
    assert state.active_player_ids == ["p1"]
    state = pass_(table, "p1")
    sale = table.last(HydratedSell)
    assert sale.metadata is not None
    assert (sale.metadata.buyer_id, sale.metadata.seller_id, sale.metadata.price) == ("p3", "p1", 20)
    assert money(state) == {"p1": 120, "p2": 100, "p3": 80}
    assert [painting.id for painting in state.player("p3").bought] == [1]
    assert state.machine_state is MachineState.PLAYER_TURN and state.active_player_ids == ["p2"]
    assert list(invariants(state)) == []


def test_an_auctioneer_who_wins_their_own_lot_pays_the_bank(table: Harness) -> None:
    play(table, "p1", 1)
    pass_(table, "p2")
    pass_(table, "p3")
    state = bid(table, "p1", 7)
    assert money(state) == {"p1": 93, "p2": 100, "p3": 100}
    assert (state.bank_received, table.last(HydratedSell).metadata.paid_to_bank) == (7, True)  # type: ignore[union-attr]


def test_a_lot_nobody_bids_on_goes_to_the_auctioneer_for_free(table: Harness) -> None:
    play(table, "p1", 1)
    for player in ["p2", "p3", "p1"]:
        state = pass_(table, player)
    assert money(state) == {"p1": 100, "p2": 100, "p3": 100}
    assert [painting.id for painting in state.player("p1").bought] == [1]


@pytest.mark.parametrize("kind_card", [1, 2])
def test_no_bid_may_exceed_the_bidders_money(table: Harness, rig: Rig, kind_card: int) -> None:
    rig(table, money={"p2": 30})
    play(table, "p1", kind_card)
    error = refused(table, table.action(HydratedBid, "p2", amount=31))
    assert (error.code, error.path) == ("not-enough-money", "amount")
    assert "30" not in error.message  # the message does not tell the bidder's money
    assert max(c.amount for c in table.legal_actions("p2") if isinstance(c, HydratedBid)) == 30


def test_once_around_gives_each_player_one_chance_auctioneer_last(table: Harness) -> None:
    state = play(table, "p1", 2)
    assert state.machine_state is MachineState.ONCE_AROUND_BIDDING
    bid(table, "p2", 10)
    error = refused(table, table.action(HydratedBid, "p3", amount=10))
    assert (error.code, error.path) == ("bid-too-low", "amount")
    pass_(table, "p3")
    state = pass_(table, "p1")
    assert state.machine_state is MachineState.PLAYER_TURN
    assert money(state) == {"p1": 110, "p2": 90, "p3": 100}
    assert [painting.id for painting in state.player("p2").bought] == [2]


def test_sealed_bids_are_simultaneous_and_hidden_until_all_are_in(table: Harness) -> None:
    from tabletop.views import project

    state = play(table, "p1", 3)
    assert state.machine_state is MachineState.SEALED_BIDDING
    assert sorted(state.active_player_ids) == ["p1", "p2", "p3"]
    table.play(table.action(HydratedSealBid, "p3", amount=17))
    view = project(table.state, "p2").model_dump(mode="json")
    assert [bid["amount"] for bid in view["auction"]["bids"]] == [None]
    assert project(table.state, "p3").model_dump(mode="json")["auction"]["bids"][0]["amount"] == 17
    table.play(table.action(HydratedSealBid, "p1", amount=5))
    result = table.run(table.action(HydratedSealBid, "p2", amount=16))
    assert [action.type for action in result.actions] == ["SealBid", "RevealBids", "Sell"]
    reveal = table.last(HydratedRevealBids)
    assert reveal.metadata == RevealBidsMetadata(bids={"p2": 16, "p3": 17, "p1": 5}, winner_id="p3", price=17)
    assert money(table.state) == {"p1": 117, "p2": 100, "p3": 83}


@pytest.mark.parametrize(
    ("bids", "winner"),
    [
        ({"p1": 9, "p2": 9, "p3": 9}, "p2"),  # all tied: the auctioneer's left first
        ({"p1": 9, "p2": 4, "p3": 9}, "p3"),  # the auctioneer is last among the tied
        ({"p1": 0, "p2": 0, "p3": 0}, None),  # nobody bid: the auctioneer takes it for free
    ],
)
def test_sealed_ties_go_to_the_first_tied_from_the_auctioneers_left(
    table: Harness, bids: dict[str, int], winner: str | None
) -> None:
    play(table, "p1", 3)
    for player, amount in bids.items():
        table.play(table.action(HydratedSealBid, player, amount=amount))
    reveal = table.last(HydratedRevealBids).metadata
    assert reveal is not None
    assert (reveal.winner_id, reveal.tie) == (winner, winner is not None and len(set(bids.values())) < 3)
    buyer = winner or "p1"
    assert [painting.id for painting in table.state.player(buyer).bought] == [3]


def test_fixed_price_the_first_taker_from_the_left_buys(table: Harness) -> None:
    state = play(table, "p1", 4)
    assert (state.machine_state, state.active_player_ids) == (MachineState.PRICE_SETTING, ["p1"])
    state = table.play(table.action(HydratedSetPrice, "p1", price=25))
    assert state.current_auction().participants == ["p2", "p3"]  # the auctioneer does not buy from themself
    pass_(table, "p2")
    state = table.play(table.action(HydratedBuy, "p3"))
    assert money(state) == {"p1": 125, "p2": 100, "p3": 75}


def test_fixed_price_nobody_buys_so_the_auctioneer_must_and_pays_the_bank(table: Harness) -> None:
    play(table, "p1", 4)
    table.play(table.action(HydratedSetPrice, "p1", price=25))
    pass_(table, "p2")
    state = pass_(table, "p3")
    assert money(state) == {"p1": 75, "p2": 100, "p3": 100}
    assert (state.bank_received, [p.id for p in state.player("p1").bought]) == (25, [4])


def test_fixed_price_above_the_auctioneers_money_is_refused(table: Harness, rig: Rig) -> None:
    rig(table, money={"p1": 20})
    play(table, "p1", 4)
    error = refused(table, table.action(HydratedSetPrice, "p1", price=21))
    assert (error.code, error.path) == ("not-enough-money", "price")
    rig(table, money={"p2": 10})
    table.play(table.action(HydratedSetPrice, "p1", price=20))
    assert refused(table, table.action(HydratedBuy, "p2")).code == "not-enough-money"


def test_double_paired_by_its_auctioneer_is_sold_under_the_second_cards_kind(table: Harness) -> None:
    state = play(table, "p1", 5)
    assert (state.machine_state, state.active_player_ids) == (MachineState.DOUBLE_OFFER, ["p1"])
    state = table.play(table.action(HydratedAddPainting, "p1", painting_id=2))
    lot = state.current_lot()
    assert ([p.id for p in lot.paintings], lot.kind, lot.auctioneer_id) == (
        [5, 2],
        AuctionKind.ONCE_AROUND,
        "p1",
    )
    assert state.machine_state is MachineState.ONCE_AROUND_BIDDING
    bid(table, "p2", 40)
    pass_(table, "p3")
    state = pass_(table, "p1")
    assert [p.id for p in state.player("p2").bought] == [5, 2]
    assert money(state) == {"p1": 140, "p2": 60, "p3": 100}
    assert state.played["Amaro"] == 2


def test_double_handed_over_makes_the_adder_the_auctioneer_and_play_goes_on_from_them(table: Harness) -> None:
    play(table, "p1", 5)
    table.play(table.action(HydratedDecline, "p1"))
    state = table.play(table.action(HydratedDecline, "p2"))
    assert state.active_player_ids == ["p3"]
    state = table.play(table.action(HydratedAddPainting, "p3", painting_id=9))  # Amaro fixed-price
    assert (state.machine_state, state.current_lot().auctioneer_id) == (MachineState.PRICE_SETTING, "p3")
    assert state.active_player_ids == ["p3"]
    table.play(table.action(HydratedSetPrice, "p3", price=30))
    table.play(table.action(HydratedBuy, "p1"))
    state = table.state
    assert money(state) == {"p1": 70, "p2": 100, "p3": 130}
    assert state.active_player_ids == ["p1"]  # the turn goes on from p3, the new auctioneer
    assert state.turn_manager.current_turn is not None and state.turn_manager.current_turn.player_id == "p1"


def test_a_double_nobody_pairs_goes_to_its_auctioneer_for_free(table: Harness) -> None:
    play(table, "p1", 5)
    for player in ["p1", "p2", "p3"]:
        state = table.play(table.action(HydratedDecline, player))
    assert [p.id for p in state.player("p1").bought] == [5]
    assert money(state) == {"p1": 100, "p2": 100, "p3": 100}
    assert state.active_player_ids == ["p2"]


@pytest.mark.parametrize(
    ("painting", "code"), [(13, "wrong-artist"), (10, "double-not-allowed"), (8, "not-in-hand")]
)
def test_a_double_takes_only_a_non_double_of_its_artist(
    table: Harness, rig: Rig, painting: int, code: str
) -> None:
    rig(table, hands={"p1": [5, 10, 13, 1]})
    play(table, "p1", 5)
    error = refused(table, table.action(HydratedAddPainting, "p1", painting_id=painting))
    assert (error.code, error.path) == (code, "painting_id")
    assert refused(table, table.action(HydratedDecline, "p2")).code == "player-not-active"
    offered = {c.painting_id for c in table.legal_actions("p1") if isinstance(c, HydratedAddPainting)}
    assert offered == {1}
