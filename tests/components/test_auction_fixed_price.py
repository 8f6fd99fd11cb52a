"""The fixed-price offer: in bid order each participant buys at the price or passes; the first buyer wins."""

import pytest
from pydantic import ValidationError
from tabletop import Hydrated, IllegalActionError, Model
from tabletop.components import AuctionResult, FixedPriceAuction, HydratedFixedPriceAuction, bidding_order


class Table(Model):
    """A model holding an offer, as a game state would."""

    auction: FixedPriceAuction | None = None
    """The offer in progress, if any."""


class HydratedTable(Table, Hydrated[Table]):
    pass


@pytest.fixture
def offer() -> HydratedFixedPriceAuction:
    return HydratedFixedPriceAuction(participants=["a", "b", "c"], price=15)


def test_the_first_buyer_in_order_wins_and_the_offer_ends(offer: HydratedFixedPriceAuction) -> None:
    answers = [(offer.to_act, offer.is_over)]
    offer.pass_("a")
    answers.append((offer.to_act, offer.is_over))
    assert offer.result is None
    offer.buy("b")
    answers.append((offer.to_act, offer.is_over))
    assert answers == [("a", False), ("b", False), (None, True)]
    assert (offer.winner, offer.winning_bid) == ("b", 15)
    assert offer.result == AuctionResult(winner_id="b", winning_bid=15, tied_ids=["b"])


def test_nobody_wins_if_everyone_passes(offer: HydratedFixedPriceAuction) -> None:
    for participant in ["a", "b", "c"]:
        offer.pass_(participant)
    assert (offer.is_over, offer.winner, offer.winning_bid) == (True, None, None)
    assert offer.result == AuctionResult()


@pytest.mark.parametrize(
    ("answers", "who", "code"),
    [
        ([], "z", "not-participant"),
        ([], "b", "not-your-turn-to-bid"),
        (["a"], "a", "already-passed"),
        (["a", "b!"], "c", "auction-over"),
    ],
)
def test_out_of_turn_answers_are_refused_and_change_nothing(
    offer: HydratedFixedPriceAuction, answers: list[str], who: str, code: str
) -> None:
    for answer in answers:
        if answer.endswith("!"):
            offer.buy(answer[:-1])
        else:
            offer.pass_(answer)
    before = offer.model_dump()
    for attempt in (offer.buy, offer.pass_):
        with pytest.raises(IllegalActionError) as caught:
            attempt(who)
        assert caught.value.code == code
    assert offer.model_dump() == before


def test_a_state_holding_an_offer_round_trips_hydrated() -> None:
    table = HydratedTable(auction=FixedPriceAuction(participants=["a", "b"], price=3))
    assert isinstance(table.auction, HydratedFixedPriceAuction)
    table.auction.buy("a")
    plain = table.dehydrate()
    assert type(plain.auction) is FixedPriceAuction
    assert HydratedTable.hydrate(plain.model_dump_json()) == table


@pytest.mark.parametrize("data", [{"participants": [], "price": 1}, {"participants": ["a"], "price": -1}])
def test_bad_offers_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        FixedPriceAuction.model_validate(data)


@pytest.mark.parametrize(
    ("seller", "seller_bids", "order"),
    [
        ("a", True, ["b", "c", "d", "a"]),
        ("c", True, ["d", "a", "b", "c"]),
        ("d", False, ["a", "b", "c"]),
        ("b", False, ["c", "d", "a"]),
    ],
)
def test_bidding_order_starts_left_of_the_seller(seller: str, seller_bids: bool, order: list[str]) -> None:
    assert bidding_order(["a", "b", "c", "d"], seller, seller_bids=seller_bids) == order


def test_bidding_order_refuses_an_unknown_seller() -> None:
    with pytest.raises(ValueError, match="not one of the seats"):
        bidding_order(["a", "b"], "z")
