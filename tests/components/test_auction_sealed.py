"""The sealed-bid auction: everyone bids once in secret; the highest bid wins, a tie rule breaks ties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop import Hydrated, IllegalActionError, Model
from tabletop.components import (
    AuctionResult,
    HydratedSealedBidAuction,
    SealedBid,
    SealedBidAuction,
    TieBreak,
)


class Table(Model):
    """A model holding an auction, as a game state would."""

    auction: SealedBidAuction
    """The auction in progress."""


class HydratedTable(Table, Hydrated[Table]):
    pass


@pytest.fixture
def auction() -> HydratedSealedBidAuction:
    return HydratedSealedBidAuction(participants=["a", "b", "c"], minimum_bid=1)


def test_bids_stay_secret_until_all_are_in(auction: HydratedSealedBidAuction) -> None:
    auction.bid("b", 7)
    auction.bid("a", 3)
    assert (auction.has_bid("a"), auction.has_bid("c"), auction.bid_of("b"), auction.bid_of("c")) == (
        True,
        False,
        7,
        None,
    )
    assert (auction.waiting_for, auction.is_over) == (["c"], False)
    assert (auction.winner, auction.winning_bid, auction.result, auction.tied_ids, auction.tie) == (
        None,
        None,
        None,
        [],
        False,
    )
    with pytest.raises(ValueError, match="secret"):
        auction.revealed_bids()
    auction.bid("c", 5)
    assert auction.is_over
    assert auction.waiting_for == []
    assert auction.revealed_bids() == {"a": 3, "b": 7, "c": 5}
    assert list(auction.revealed_bids()) == ["a", "b", "c"]  # bid order, not submission order
    assert auction.result == AuctionResult(winner_id="b", winning_bid=7, tie=False, tied_ids=["b"])
    assert [bid.participant_id for bid in auction.bids] == ["b", "a", "c"]  # submission order kept


@pytest.mark.parametrize(
    ("tie_break", "amounts", "winner", "tied"),
    [
        (TieBreak.FIRST_IN_ORDER, [4, 4, 2], "a", ["a", "b"]),
        (TieBreak.LAST_IN_ORDER, [4, 4, 2], "b", ["a", "b"]),
        (TieBreak.FIRST_IN_ORDER, [1, 6, 6], "b", ["b", "c"]),
        (TieBreak.LAST_IN_ORDER, [6, 1, 6], "c", ["a", "c"]),
        (TieBreak.LAST_IN_ORDER, [3, 3, 3], "c", ["a", "b", "c"]),
        (TieBreak.FIRST_IN_ORDER, [3, 3, 3], "a", ["a", "b", "c"]),
    ],
)
def test_the_tie_rule_picks_among_everyone_who_bid_the_highest(
    tie_break: TieBreak, amounts: list[int], winner: str, tied: list[str]
) -> None:
    auction = HydratedSealedBidAuction(participants=["a", "b", "c"], tie_break=tie_break)
    for participant, amount in reversed(list(zip(["a", "b", "c"], amounts, strict=True))):
        auction.bid(participant, amount)  # submitted last-to-first: order of submission is irrelevant
    assert auction.tie
    assert auction.tied_ids == tied
    assert auction.result == AuctionResult(
        winner_id=winner, winning_bid=max(amounts), tie=True, tied_ids=tied
    )


def _act(auction: HydratedSealedBidAuction, participant: str, amount: int | None) -> None:
    if amount is None:
        auction.pass_(participant)
    else:
        auction.bid(participant, amount)


def _bid_all(auction: HydratedSealedBidAuction, amounts: dict[str, int]) -> None:
    for participant, amount in amounts.items():
        auction.bid(participant, amount)


@pytest.mark.parametrize(
    ("setup", "participant", "amount", "expected"),
    [
        ({}, "z", 3, ("not-participant", None)),
        ({"a": 1, "b": 1, "c": 1}, "a", 3, ("auction-over", None)),
        ({"a": 1}, "a", 3, ("already-bid", None)),
        ({}, "a", 0, ("bid-too-low", "amount")),
        ({}, "a", None, ("passing-not-allowed", None)),
        ({"a": 1}, "a", None, ("passing-not-allowed", None)),
        ({}, "z", None, ("not-participant", None)),
        ({"a": 1, "b": 1, "c": 1}, "b", None, ("auction-over", None)),
    ],
)
def test_every_illegal_bid_or_pass_is_refused_with_its_code_and_changes_nothing(
    auction: HydratedSealedBidAuction,
    setup: dict[str, int],
    participant: str,
    amount: int | None,
    expected: tuple[str, str | None],
) -> None:
    _bid_all(auction, setup)
    before = auction.model_dump()
    with pytest.raises(IllegalActionError) as caught:
        _act(auction, participant, amount)
    assert (caught.value.code, caught.value.path) == expected
    assert auction.model_dump() == before


def test_check_bid_accepts_a_legal_bid_without_recording_it(auction: HydratedSealedBidAuction) -> None:
    auction.check_bid("a", 1)
    assert auction.bids == []


@pytest.mark.parametrize("participants", [[], ["a", "b", "b"]])
def test_participants_must_be_a_non_empty_list_of_distinct_ids(participants: list[str]) -> None:
    with pytest.raises(ValidationError):
        SealedBidAuction(participants=participants)


def test_an_auction_round_trips_through_json_inside_a_hydrated_model(
    auction: HydratedSealedBidAuction,
) -> None:
    auction.bid("c", 2)
    table = HydratedTable(auction=auction)
    back = HydratedTable.hydrate(table.model_dump_json().encode())
    assert isinstance(back.auction, HydratedSealedBidAuction)
    assert back == table
    assert (back.auction.waiting_for, back.auction.bid_of("c")) == (["a", "b"], 2)
    plain = back.dehydrate()
    assert type(plain.auction) is SealedBidAuction
    assert plain.auction.bids == [SealedBid(participant_id="c", amount=2)]
    assert plain.model_dump(mode="json")["auction"]["tie_break"] == "first-in-order"


@given(
    amounts=st.lists(st.integers(min_value=0, max_value=10), min_size=1, max_size=6),
    tie_break=st.sampled_from(TieBreak),
    data=st.data(),
)
def test_the_winners_bid_is_the_highest_whatever_the_submission_order(
    amounts: list[int], tie_break: TieBreak, data: st.DataObject
) -> None:
    ids = [f"p{n}" for n in range(len(amounts))]
    bids = dict(zip(ids, amounts, strict=True))
    order = data.draw(st.permutations(ids))
    auction = HydratedSealedBidAuction(participants=ids, tie_break=tie_break)
    for participant in order:
        assert auction.result is None
        auction.bid(participant, bids[participant])
    result = auction.result
    assert result is not None and result.winner_id is not None
    assert result.winning_bid == max(amounts) == bids[result.winner_id]
    assert result.tied_ids == [p for p in ids if bids[p] == max(amounts)]
    assert result.tie is (len(result.tied_ids) > 1)
    expected = result.tied_ids[0] if tie_break is TieBreak.FIRST_IN_ORDER else result.tied_ids[-1]
    assert result.winner_id == expected
