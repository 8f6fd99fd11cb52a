"""The round manager: round spans, numbering, a fixed number of rounds, misuse, JSON round trips."""

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, ValidationError
from tabletop import Hydrated, Model
from tabletop.components import HydratedRoundManager, Round, RoundManager, _round_manager


@pytest.fixture
def rounds() -> HydratedRoundManager:
    return HydratedRoundManager()


@pytest.fixture
def three_rounds() -> HydratedRoundManager:
    return HydratedRoundManager(max_rounds=3)


def spans(manager: RoundManager | HydratedRoundManager) -> list[tuple[int, int, int | None]]:
    return [(r.number, r.start_index, r.end_index) for r in manager.past_rounds]


def test_starting_a_round_ends_the_current_one_at_the_same_index(rounds: HydratedRoundManager) -> None:
    first = rounds.start_round(0)
    second = rounds.start_round(4)
    assert (first.number, first.start_index, first.end_index) == (1, 0, 4)
    assert (second.number, second.start_index, second.end_index) == (2, 4, None)
    assert rounds.current_round == second
    assert rounds.round_number == 2
    assert rounds.round_count == 2
    assert rounds.last_round == first
    assert [r.number for r in rounds.rounds] == [1, 2]


def test_end_round_records_the_span_and_returns_it(rounds: HydratedRoundManager) -> None:
    rounds.start_round(2)
    ended = rounds.end_round(7)
    assert ended is not None
    assert (ended.number, ended.start_index, ended.end_index) == (1, 2, 7)
    assert rounds.current_round is None
    assert rounds.round_number is None
    assert spans(rounds) == [(1, 2, 7)]


def test_end_round_without_a_round_does_nothing(rounds: HydratedRoundManager) -> None:
    assert rounds.end_round(3) is None
    assert rounds.current_round is None
    assert rounds.past_rounds == []
    assert rounds.round_count == 0


def test_an_unbounded_manager_has_no_rounds_left_count(rounds: HydratedRoundManager) -> None:
    rounds.start_round(0)
    assert rounds.rounds_left is None
    assert not rounds.is_last_round
    rounds.end_round(1)
    assert not rounds.is_complete


@pytest.mark.parametrize(
    ("started", "running", "rounds_left", "is_last", "is_complete"),
    [
        (0, False, 3, False, False),
        (1, True, 2, False, False),
        (2, True, 1, False, False),
        (3, True, 0, True, False),
        (3, False, 0, False, True),
    ],
)
def test_a_fixed_number_of_rounds_counts_down(
    three_rounds: HydratedRoundManager,
    started: int,
    running: bool,
    rounds_left: int,
    is_last: bool,
    is_complete: bool,
) -> None:
    for number in range(started):
        three_rounds.start_round(number * 10)
    if not running:
        three_rounds.end_round(started * 10)
    assert three_rounds.rounds_left == rounds_left
    assert three_rounds.is_last_round is is_last
    assert three_rounds.is_complete is is_complete


def test_starting_a_round_after_the_last_one_fails(three_rounds: HydratedRoundManager) -> None:
    for index in (0, 5, 9):
        three_rounds.start_round(index)
    with pytest.raises(ValueError, match="all 3 rounds have been played"):
        three_rounds.start_round(12)
    assert three_rounds.round_number == 3
    assert three_rounds.current_round is not None and three_rounds.current_round.end_index is None


@pytest.mark.parametrize(
    ("setup", "call", "index"),
    [
        ([("start", 5)], "start", 4),
        ([("start", 5)], "end", 4),
        ([("start", 5), ("end", 8)], "start", 7),
        ([("start", 5), ("end", 8)], "end", 7),
        ([], "start", -1),
        ([], "end", -1),
    ],
)
def test_action_indexes_never_go_back(
    rounds: HydratedRoundManager, setup: list[tuple[str, int]], call: str, index: int
) -> None:
    for operation, at in setup:
        (rounds.start_round if operation == "start" else rounds.end_round)(at)
    before = rounds.model_dump()
    with pytest.raises(ValueError, match="action index"):
        (rounds.start_round if call == "start" else rounds.end_round)(index)
    assert rounds.model_dump() == before


@pytest.mark.parametrize(
    ("index", "expected"), [(0, None), (1, 1), (3, 1), (4, 2), (5, 2), (6, None), (8, 3), (100, 3)]
)
def test_round_at_finds_the_round_an_action_was_taken_in(
    rounds: HydratedRoundManager, index: int, expected: int | None
) -> None:
    rounds.start_round(1)
    rounds.start_round(4)
    rounds.end_round(6)
    rounds.start_round(8)
    found = rounds.round_at(index)
    assert (None if found is None else found.number) == expected


def test_a_round_count_beyond_max_rounds_is_rejected() -> None:
    with pytest.raises(ValidationError, match="exceeds max_rounds"):
        RoundManager(max_rounds=2, round_count=3)


@settings(max_examples=80, deadline=None)
@given(
    max_rounds=st.none() | st.integers(min_value=1, max_value=6),
    operations=st.lists(st.tuples(st.booleans(), st.integers(min_value=0, max_value=5)), max_size=25),
)
def test_rounds_are_numbered_consecutively_and_their_spans_never_overlap(
    max_rounds: int | None, operations: list[tuple[bool, int]]
) -> None:
    rounds = HydratedRoundManager(max_rounds=max_rounds)
    index = 0
    for start, gap in operations:
        index += gap
        if start and not (max_rounds is not None and rounds.round_count == max_rounds):
            rounds.start_round(index)
        elif start:
            with pytest.raises(ValueError, match="rounds have been played"):
                rounds.start_round(index)
        else:
            rounds.end_round(index)
    every = rounds.rounds
    assert [r.number for r in every] == list(range(1, rounds.round_count + 1))
    assert all(r.end_index is not None and r.start_index <= r.end_index for r in rounds.past_rounds)
    for earlier, later in itertools.pairwise(every):
        assert earlier.end_index is not None and earlier.end_index <= later.start_index
    if max_rounds is not None:
        assert rounds.rounds_left == max_rounds - rounds.round_count >= 0


class Holder(Model):
    rounds: RoundManager = Field(default_factory=RoundManager)
    """The game's rounds."""


class HydratedHolder(Holder, Hydrated[Holder]):
    pass


def test_a_round_manager_round_trips_through_json_and_comes_back_hydrated() -> None:
    holder = HydratedHolder(rounds=HydratedRoundManager(max_rounds=4))
    assert isinstance(holder.rounds, HydratedRoundManager)
    holder.rounds.start_round(0)
    holder.rounds.start_round(3)
    text = holder.model_dump_json()

    plain = Holder.model_validate_json(text)
    assert plain == holder.dehydrate()
    assert plain.rounds.past_rounds == [Round(number=1, start_index=0, end_index=3)]
    assert type(plain.rounds) is RoundManager
    assert Holder.model_validate_json(plain.model_dump_json()) == plain

    hydrated = HydratedHolder.hydrate(text)
    assert isinstance(hydrated.rounds, HydratedRoundManager)
    assert hydrated.model_dump_json() == text
    assert hydrated.rounds.round_number == 2 and hydrated.rounds.rounds_left == 2
    hydrated.rounds.end_round(5)
    assert holder.rounds.current_round is not None  # the hydrated copy does not alias the original


def test_the_module_examples_run() -> None:
    result = doctest.testmod(_round_manager)
    assert result.attempted > 0 and result.failed == 0
