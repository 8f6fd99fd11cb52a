"""The open ascending auction: raise in turn or pass and drop out; the last bidder standing wins."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop import Hydrated, IllegalActionError, Model
from tabletop.components import AuctionEntry, AuctionResult, HydratedOpenAuction, OpenAuction


class Table(Model):
    """A model holding an auction, as a game state would."""

    auction: OpenAuction
    """The auction in progress."""


class HydratedTable(Table, Hydrated[Table]):
    pass


@pytest.fixture
def auction() -> HydratedOpenAuction:
    return HydratedOpenAuction(participants=["a", "b", "c"], minimum_bid=10, minimum_increment=5)


def _code(excinfo: pytest.ExceptionInfo[IllegalActionError]) -> tuple[str, str | None]:
    return excinfo.value.code, excinfo.value.path


def test_a_fresh_auction_opens_with_the_first_participant(auction: HydratedOpenAuction) -> None:
    assert auction.to_act == "a"
    assert (auction.high_bid, auction.high_bidder, auction.minimum_next_bid) == (None, None, 10)
    assert auction.remaining == ["a", "b", "c"]
    assert not auction.is_over
    assert (auction.winner, auction.winning_bid, auction.result) == (None, None, None)


def test_the_last_bidder_standing_wins(auction: HydratedOpenAuction) -> None:
    auction.bid("a", 10)
    assert (auction.to_act, auction.high_bid, auction.minimum_next_bid) == ("b", 10, 15)
    assert auction.high_bidder == "a"
    auction.bid("b", 20)
    auction.pass_("c")
    assert auction.remaining == ["a", "b"]
    assert auction.passed_ids == ["c"]
    assert (auction.to_act, auction.is_over) == ("a", False)
    auction.bid("a", 25)
    assert (auction.to_act, auction.is_over) == ("b", False)  # c is out and skipped
    auction.pass_("b")
    assert (auction.is_over, auction.remaining) == (True, ["a"])
    assert (auction.to_act, auction.winner, auction.winning_bid) == (None, "a", 25)
    assert auction.result == AuctionResult(winner_id="a", winning_bid=25, tied_ids=["a"])
    assert [(e.participant_id, e.amount) for e in auction.history] == [
        ("a", 10),
        ("b", 20),
        ("c", None),
        ("a", 25),
        ("b", None),
    ]


def test_nobody_wins_when_everyone_passes_without_a_bid(auction: HydratedOpenAuction) -> None:
    for participant in ["a", "b", "c"]:
        assert not auction.is_over
        auction.pass_(participant)
    assert auction.is_over
    assert auction.remaining == []
    assert auction.result == AuctionResult(winner_id=None, winning_bid=None, tie=False, tied_ids=[])


def test_the_last_participant_left_without_a_bid_may_still_open(auction: HydratedOpenAuction) -> None:
    auction.pass_("a")
    auction.pass_("b")
    assert (auction.is_over, auction.to_act) == (False, "c")
    auction.bid("c", 10)
    assert (auction.is_over, auction.winner, auction.winning_bid) == (True, "c", 10)


def test_the_turn_wraps_around_the_bid_order(auction: HydratedOpenAuction) -> None:
    auction.pass_("a")
    auction.bid("b", 10)
    auction.bid("c", 15)
    assert auction.to_act == "b"  # after c comes a, who is out, so b
    auction.pass_("b")
    assert auction.winner == "c"


@pytest.mark.parametrize(
    ("minimum_bid", "increment", "bids", "lowest_next"),
    [(0, 1, [], 0), (10, 1, [], 10), (0, 1, [3], 4), (0, 7, [3], 10), (20, 1, [20], 21)],
)
def test_minimum_next_bid_combines_the_opening_minimum_and_the_increment(
    minimum_bid: int, increment: int, bids: list[int], lowest_next: int
) -> None:
    auction = HydratedOpenAuction(
        participants=["a", "b"], minimum_bid=minimum_bid, minimum_increment=increment
    )
    for amount in bids:
        auction.bid(auction.to_act or "", amount)
    assert auction.minimum_next_bid == lowest_next
    with pytest.raises(IllegalActionError) as caught:
        auction.check_bid(auction.to_act or "", lowest_next - 1)
    assert _code(caught) == ("bid-too-low", "amount")
    auction.check_bid(auction.to_act or "", lowest_next)


def test_a_single_participant_auction_ends_on_their_first_action() -> None:
    auction = HydratedOpenAuction(participants=["solo"])
    auction.bid("solo", 0)
    assert (auction.is_over, auction.winner, auction.winning_bid) == (True, "solo", 0)


def _act(auction: HydratedOpenAuction, participant: str, amount: int | None) -> None:
    if amount is None:
        auction.pass_(participant)
    else:
        auction.bid(participant, amount)


@pytest.mark.parametrize(
    ("setup", "participant", "amount", "expected"),
    [
        ([], "z", 10, ("not-participant", None)),
        ([], "z", None, ("not-participant", None)),
        ([("a", 10), ("b", None), ("c", None)], "a", 50, ("auction-over", None)),
        ([("a", 10), ("b", None), ("c", None)], "b", None, ("auction-over", None)),
        ([("a", None)], "a", 10, ("already-passed", None)),
        ([("a", None)], "a", None, ("already-passed", None)),
        ([], "b", 10, ("not-your-turn-to-bid", None)),
        ([("a", 10)], "c", None, ("not-your-turn-to-bid", None)),
        ([("a", 10)], "a", 30, ("not-your-turn-to-bid", None)),
        ([], "a", 9, ("bid-too-low", "amount")),
        ([("a", 10)], "b", 14, ("bid-too-low", "amount")),
        ([("a", 10)], "b", 10, ("bid-too-low", "amount")),
    ],
)
def test_every_illegal_bid_or_pass_is_refused_with_its_code_and_changes_nothing(
    auction: HydratedOpenAuction,
    setup: list[tuple[str, int | None]],
    participant: str,
    amount: int | None,
    expected: tuple[str, str | None],
) -> None:
    for who, how_much in setup:
        _act(auction, who, how_much)
    before = auction.model_dump()
    with pytest.raises(IllegalActionError) as caught:
        _act(auction, participant, amount)
    assert _code(caught) == expected
    assert auction.model_dump() == before


@pytest.mark.parametrize("participants", [[], ["a", "a"], ["a", "b", "a"]])
def test_participants_must_be_a_non_empty_list_of_distinct_ids(participants: list[str]) -> None:
    with pytest.raises(ValidationError):
        OpenAuction(participants=participants)


@pytest.mark.parametrize(("field", "value"), [("minimum_bid", -1), ("minimum_increment", 0)])
def test_settings_are_bounded(field: str, value: int) -> None:
    with pytest.raises(ValidationError):
        OpenAuction.model_validate({"participants": ["a"], field: value})


def test_an_auction_round_trips_through_json_inside_a_hydrated_model(auction: HydratedOpenAuction) -> None:
    auction.bid("a", 10)
    auction.pass_("b")
    table = HydratedTable(auction=auction)
    assert isinstance(table.auction, HydratedOpenAuction)
    back = HydratedTable.hydrate(table.model_dump_json())
    assert isinstance(back.auction, HydratedOpenAuction)
    assert back == table
    assert (back.auction.to_act, back.auction.high_bid, back.auction.remaining) == ("c", 10, ["a", "c"])
    plain = back.dehydrate()
    assert type(plain.auction) is OpenAuction
    assert plain.model_dump(mode="json")["auction"] == {
        "kind": "open",
        "participants": ["a", "b", "c"],
        "minimum_bid": 10,
        "minimum_increment": 5,
        "history": [{"participant_id": "a", "amount": 10}, {"participant_id": "b", "amount": None}],
    }


@given(
    participants=st.integers(min_value=1, max_value=5),
    increment=st.integers(min_value=1, max_value=4),
    data=st.data(),
)
def test_any_sequence_of_legal_actions_ends_with_at_most_one_bidder_left(
    participants: int, increment: int, data: st.DataObject
) -> None:
    ids = [f"p{n}" for n in range(participants)]
    auction = HydratedOpenAuction(participants=ids, minimum_increment=increment)
    bids: list[int] = []
    for step in range(60):
        if auction.is_over:
            break
        to_act = auction.to_act
        assert to_act is not None and to_act in auction.remaining
        assert to_act != auction.high_bidder
        for other in ids:
            if other != to_act:
                with pytest.raises(IllegalActionError) as caught:
                    auction.check_pass(other)
                assert caught.value.code in {"already-passed", "not-your-turn-to-bid"}
        if step >= 40 or data.draw(st.booleans()):
            auction.pass_(to_act)
        else:
            amount = auction.minimum_next_bid + data.draw(st.integers(min_value=0, max_value=3))
            auction.bid(to_act, amount)
            bids.append(amount)
    assert auction.is_over
    assert len(auction.remaining) <= 1
    assert all(later - earlier >= increment for earlier, later in itertools.pairwise(bids))
    if bids:
        assert auction.remaining == [auction.winner]
        assert auction.winning_bid == bids[-1] == max(bids)
    else:
        assert auction.remaining == [] and auction.winner is None


def test_entries_record_bids_and_passes() -> None:
    assert AuctionEntry(participant_id="a").amount is None
    assert AuctionEntry(participant_id="a", amount=3).amount == 3
