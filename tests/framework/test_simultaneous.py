"""Simultaneous groups: opening and closing them, recording actions in them, lagging indexes."""

import pytest
from tabletop import UNKEYED, GameEngine, IllegalActionError, Prng, PrngState, SimultaneousGroup
from tabletop.testing import GameHarness
from tabletop_fixtures.counter import HydratedIncrement
from tabletop_fixtures.counter import make_definition as make_counter
from tabletop_fixtures.sealed_bids import (
    HydratedBid,
    Phase,
    SealedBidsConfig,
    SealedBidsState,
    make_definition,
)

Harness = GameHarness[SealedBidsState, SealedBidsConfig]


@pytest.fixture
def harness() -> Harness:
    return GameHarness(make_definition(), players=3, seed=11, prng_key=UNKEYED)  # the reference stream


def bid(harness: Harness, player_id: str, **fields: object) -> HydratedBid:
    card = harness.state.player(player_id).hand[0]
    return harness.action(HydratedBid, player_id, card=card, **fields)


def test_a_handler_opens_a_group_with_a_prng_drawn_id_at_the_action_count(harness: Harness) -> None:
    group = harness.state.simultaneous_group
    assert group is not None
    assert group.start_index == 0
    # setup draws the deck (51), the tie-break (1), three targets (3); the state id drew 35 before
    prng = Prng(PrngState(seed=11, invocations=35 + 51 + 1 + 3))
    assert group.id == prng.rand_id()
    assert harness.state.active_player_ids == ["p1", "p2", "p3"]


def test_the_same_seed_gives_the_same_group_ids() -> None:
    first = GameHarness(make_definition(), players=2, seed=5).state.simultaneous_group
    again = GameHarness(make_definition(), players=2, seed=5).state.simultaneous_group
    other = GameHarness(make_definition(), players=2, seed=6).state.simultaneous_group
    assert first == again
    assert first != other


def test_a_user_action_is_recorded_with_the_open_group_id(harness: Harness) -> None:
    group = harness.state.simultaneous_group
    assert group is not None
    (recorded,) = harness.run(bid(harness, "p1")).actions
    assert recorded.simultaneous_group_id == group.id
    (named,) = harness.run(bid(harness, "p2", simultaneous_group_id=group.id)).actions
    assert named.simultaneous_group_id == group.id


def test_an_action_naming_another_group_is_refused(harness: Harness) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.run(bid(harness, "p1", simultaneous_group_id="not-the-group"))
    assert caught.value.code == "wrong-simultaneous-group"
    assert caught.value.path == "simultaneous_group_id"


def test_naming_a_group_when_none_is_open_is_refused() -> None:
    counter = GameHarness(make_counter(), players=2, seed=1)
    assert counter.state.simultaneous_group is None
    with pytest.raises(IllegalActionError) as caught:
        counter.run(counter.action(HydratedIncrement, "p1", simultaneous_group_id="g"))
    assert caught.value.code == "wrong-simultaneous-group"
    (recorded,) = counter.run(counter.action(HydratedIncrement, "p1")).actions
    assert recorded.simultaneous_group_id is None


def test_a_lagging_index_is_accepted_inside_the_open_group(harness: Harness) -> None:
    group = harness.state.simultaneous_group
    assert group is not None
    seen = harness.state.action_count  # both players saw this state
    harness.run(bid(harness, "p1", index=seen))
    (late,) = harness.run(bid(harness, "p2", index=seen, simultaneous_group_id=group.id)).actions
    assert late.index == seen + 1  # recorded where it landed
    assert harness.state.player("p2").bid is not None


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"index": 0}, "stale-index"),  # lagging, but does not name the group
        ({"index": 5}, "stale-index"),  # ahead of the count
    ],
)
def test_other_index_mismatches_are_stale(harness: Harness, fields: dict[str, object], code: str) -> None:
    harness.run(bid(harness, "p1", index=0))
    with pytest.raises(IllegalActionError) as caught:
        harness.run(bid(harness, "p2", **fields))
    assert (caught.value.code, caught.value.path) == (code, "index")


def test_an_index_from_before_the_group_opened_is_stale(harness: Harness) -> None:
    for player_id in ("p1", "p2", "p3"):
        harness.run(bid(harness, player_id))
    group = harness.state.simultaneous_group
    assert group is not None and group.start_index == harness.state.action_count > 3
    with pytest.raises(IllegalActionError) as caught:
        harness.run(bid(harness, "p1", index=2, simultaneous_group_id=group.id))
    assert caught.value.code == "stale-index"


def test_the_last_bid_closes_the_group_and_the_next_round_opens_a_new_one(harness: Harness) -> None:
    first = harness.state.simultaneous_group
    harness.run(bid(harness, "p1"))
    harness.run(bid(harness, "p2"))
    result = harness.run(bid(harness, "p3"))
    assert [action.type for action in result.actions] == ["Bid", "Reveal", "Draw", "Draw", "Draw"]
    assert first is not None
    assert result.actions[0].simultaneous_group_id == first.id
    assert all(action.simultaneous_group_id is None for action in result.actions[1:])
    assert result.actions[1].reveals_info is True
    second = harness.state.simultaneous_group
    assert second is not None and second.id != first.id
    assert second.start_index == harness.state.action_count == 7
    assert harness.state.machine_state is Phase.BIDDING


def test_a_whole_game_records_each_round_in_its_own_group() -> None:
    harness: Harness = GameHarness(make_definition(), players=2, seed=3)
    groups: list[str] = []
    while harness.state.result is None:
        group = harness.state.simultaneous_group
        assert group is not None
        groups.append(group.id)
        for player_id in list(harness.state.active_player_ids):
            harness.run(bid(harness, player_id))
    bids = [action for action in harness.log if action.type == "Bid"]
    assert [action.simultaneous_group_id for action in bids] == [g for g in groups for _ in range(2)]
    assert len(set(groups)) == len(groups) == 7 + (52 - 2 - 14) // 2
    assert harness.state.simultaneous_group is None


def test_a_group_opens_once_and_closes_once(harness: Harness) -> None:
    ctx = harness.context()
    with pytest.raises(ValueError, match="already open"):
        ctx.open_simultaneous_group()
    closed = ctx.close_simultaneous_group()
    assert isinstance(closed, SimultaneousGroup)
    assert ctx.state.simultaneous_group is None
    with pytest.raises(ValueError, match="no simultaneous group is open"):
        ctx.close_simultaneous_group()
    reopened = ctx.open_simultaneous_group()
    assert reopened.start_index == ctx.state.action_count
    assert reopened.id != closed.id


def test_the_engine_never_mutates_the_input_state_when_a_group_changes(harness: Harness) -> None:
    engine = GameEngine(make_definition())
    before = harness.state.model_dump_json()
    for player_id in ("p1", "p2", "p3"):
        state = harness.state
        engine.run(bid(harness, player_id), state, harness.game)
        assert state.model_dump_json() == before
        harness.run(bid(harness, player_id))
        before = harness.state.model_dump_json()
