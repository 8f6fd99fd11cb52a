"""The once-around auction: each participant bids once or passes, in bid order; the highest bid wins."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop import Hydrated, IllegalActionError, Model
from tabletop.components import AuctionResult, HydratedOnceAroundAuction, OnceAroundAuction


class Table(Model):
    """A model holding an auction, as a game state would."""

    auction: OnceAroundAuction | None = None
    """The auction in progress, if any."""


class HydratedTable(Table, Hydrated[Table]):
    pass


@pytest.fixture
def auction() -> HydratedOnceAroundAuction:
    return HydratedOnceAroundAuction(participants=["a", "b", "c"], minimum_bid=2)


def _act(auction: HydratedOnceAroundAuction, participant: str, amount: int | None) -> None:
    if amount is None:
        auction.pass_(participant)
    else:
        auction.bid(participant, amount)


def test_each_participant_acts_once_in_bid_order(auction: HydratedOnceAroundAuction) -> None:
    seen = []
    for amount in [2, None, 5]:
        seen.append(auction.to_act)
        assert not auction.is_over
        _act(auction, auction.to_act or "", amount)
    assert seen == ["a", "b", "c"]
    assert (auction.is_over, auction.to_act) == (True, None)
    assert auction.result == AuctionResult(winner_id="c", winning_bid=5, tie=False, tied_ids=["c"])


def test_the_lead_is_visible_while_the_auction_runs(auction: HydratedOnceAroundAuction) -> None:
    auction.bid("a", 4)
    assert (auction.high_bid, auction.high_bidder, auction.minimum_next_bid) == (4, "a", 5)
    assert (auction.winner, auction.winning_bid, auction.result) == (None, None, None)


def test_nobody_wins_if_everyone_passes(auction: HydratedOnceAroundAuction) -> None:
    for participant in ["a", "b", "c"]:
        auction.pass_(participant)
    assert auction.is_over
    assert auction.result == AuctionResult()
    assert auction.tied_ids == []


@pytest.mark.parametrize(
    ("amounts", "winner", "winning_bid", "tied"),
    [
        ([3, 3, None], "a", 3, ["a", "b"]),
        ([None, 4, 4], "b", 4, ["b", "c"]),
        ([5, 5, 5], "a", 5, ["a", "b", "c"]),
        ([2, 6, 3], "b", 6, ["b"]),
    ],
)
def test_without_must_exceed_the_first_of_equal_bids_wins(
    amounts: list[int | None], winner: str, winning_bid: int, tied: list[str]
) -> None:
    auction = HydratedOnceAroundAuction(participants=["a", "b", "c"], must_exceed=False)
    for participant, amount in zip(["a", "b", "c"], amounts, strict=True):
        _act(auction, participant, amount)
    result = auction.result
    assert result == AuctionResult(
        winner_id=winner, winning_bid=winning_bid, tie=len(tied) > 1, tied_ids=tied
    )
    assert (auction.winner, auction.winning_bid) == (winner, winning_bid)


def test_without_must_exceed_a_lower_bid_is_allowed() -> None:
    auction = HydratedOnceAroundAuction(participants=["a", "b"], minimum_bid=1, must_exceed=False)
    auction.bid("a", 5)
    assert auction.minimum_next_bid == 1
    auction.bid("b", 1)
    assert auction.winner == "a"


@pytest.mark.parametrize(
    ("setup", "participant", "amount", "expected"),
    [
        ([], "z", 3, ("not-participant", None)),
        ([], "z", None, ("not-participant", None)),
        ([2, None, 3], "c", 9, ("auction-over", None)),
        ([2, None, 3], "a", None, ("auction-over", None)),
        ([2], "a", 9, ("already-bid", None)),
        ([2], "a", None, ("already-bid", None)),
        ([None], "a", 9, ("already-passed", None)),
        ([None, 3], "a", None, ("already-passed", None)),
        ([], "b", 3, ("not-your-turn-to-bid", None)),
        ([2], "c", None, ("not-your-turn-to-bid", None)),
        ([], "a", 1, ("bid-too-low", "amount")),
        ([4], "b", 4, ("bid-too-low", "amount")),
        ([4, None], "c", 3, ("bid-too-low", "amount")),
    ],
)
def test_every_illegal_bid_or_pass_is_refused_with_its_code_and_changes_nothing(
    auction: HydratedOnceAroundAuction,
    setup: list[int | None],
    participant: str,
    amount: int | None,
    expected: tuple[str, str | None],
) -> None:
    for who, how_much in zip(["a", "b", "c"], setup, strict=False):
        _act(auction, who, how_much)
    before = auction.model_dump()
    with pytest.raises(IllegalActionError) as caught:
        _act(auction, participant, amount)
    assert (caught.value.code, caught.value.path) == expected
    assert auction.model_dump() == before


@pytest.mark.parametrize("participants", [[], ["a", "a"]])
def test_participants_must_be_a_non_empty_list_of_distinct_ids(participants: list[str]) -> None:
    with pytest.raises(ValidationError):
        OnceAroundAuction(participants=participants)


def test_an_auction_round_trips_through_json_inside_a_hydrated_model(
    auction: HydratedOnceAroundAuction,
) -> None:
    auction.bid("a", 3)
    table = HydratedTable(auction=auction)
    back = HydratedTable.hydrate(table.model_dump_json())
    assert isinstance(back.auction, HydratedOnceAroundAuction)
    assert back == table
    assert (back.auction.to_act, back.auction.high_bidder) == ("b", "a")
    plain = back.dehydrate()
    assert type(plain.auction) is OnceAroundAuction
    assert HydratedTable.hydrate({"auction": None}).auction is None


@given(
    amounts=st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=20)), min_size=1, max_size=6),
)
def test_the_winner_is_the_first_highest_bid_and_legal_bids_keep_rising(amounts: list[int | None]) -> None:
    ids = [f"p{n}" for n in range(len(amounts))]
    relaxed = HydratedOnceAroundAuction(participants=ids, must_exceed=False)
    classic = HydratedOnceAroundAuction(participants=ids)
    classic_bids: list[int] = []
    for participant, amount in zip(ids, amounts, strict=True):
        _act(relaxed, participant, amount)
        if amount is not None and amount >= classic.minimum_next_bid:
            classic.bid(participant, amount)
            classic_bids.append(amount)
        else:
            classic.pass_(participant)
    bids = [amount for amount in amounts if amount is not None]
    if not bids:
        assert relaxed.winner is None and relaxed.result == AuctionResult()
    else:
        assert relaxed.winning_bid == max(bids)
        assert relaxed.winner == ids[amounts.index(max(bids))]
        assert relaxed.tied_ids == [p for p, a in zip(ids, amounts, strict=True) if a == max(bids)]
    assert classic_bids == sorted(set(classic_bids))  # strictly rising
    assert classic.tied_ids == ([] if not classic_bids else [classic.winner])
    assert classic.winning_bid == (classic_bids[-1] if classic_bids else None)
