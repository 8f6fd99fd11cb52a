"""Each round's bids form one simultaneous group: both players may bid on the state they saw."""

from collections.abc import Callable, Mapping

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.bidding import Bidding

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def group_id(harness: Harness) -> str:
    group = harness.state.simultaneous_group
    assert group is not None
    return group.id


def test_a_round_opens_a_group_once_its_prize_is_up(harness: Harness, play_round: PlayRound) -> None:
    first = harness.state.simultaneous_group
    (prize,) = harness.log
    assert prize.type == "RevealPrize" and prize.simultaneous_group_id is None  # the start's chance point
    assert first is not None and first.start_index == harness.state.action_count == 1
    play_round(harness, {"p1": 3, "p2": 5})
    second = harness.state.simultaneous_group
    assert second is not None and second.id != first.id
    assert [action.type for action in harness.log[1:]] == ["Bid", "Bid", "Reveal", "RevealPrize"]
    assert second.start_index == harness.state.action_count == 5  # after the next prize came up


def test_both_bids_are_recorded_in_the_group_and_it_closes_before_the_reveal(harness: Harness) -> None:
    group = group_id(harness)
    (first,) = harness.run(harness.action(HydratedBid, "p2", card=4)).actions
    second, reveal, prize = harness.run(harness.action(HydratedBid, "p1", card=6)).actions
    assert (first.simultaneous_group_id, second.simultaneous_group_id) == (group, group)
    assert (reveal.type, reveal.simultaneous_group_id, reveal.reveals_info) == ("Reveal", None, True)
    assert (prize.type, prize.simultaneous_group_id) == ("RevealPrize", None)
    assert group_id(harness) != group  # the next round's


def test_a_lagging_index_naming_the_group_is_accepted(harness: Harness) -> None:
    seen, group = harness.state.action_count, group_id(harness)  # both players saw this state
    harness.run(harness.action(HydratedBid, "p1", card=2, index=seen))
    second, *_ = harness.run(
        harness.action(HydratedBid, "p2", card=9, index=seen, simultaneous_group_id=group)
    ).actions
    assert (second.index, second.simultaneous_group_id) == (seen + 1, group)  # recorded where it landed
    assert harness.state.rounds[-1].bids == {"p1": 2, "p2": 9}


@pytest.mark.parametrize(
    ("index", "names_group"),
    [(0, False), (-1, True), (2, True)],
    ids=["lagging-without-the-group", "from-before-the-group", "ahead"],
)
def test_other_index_mismatches_are_stale(
    harness: Harness, play_round: PlayRound, index: int, names_group: bool
) -> None:
    play_round(harness, {"p1": 1, "p2": 2})
    opened = harness.state.action_count  # the second round's group opened here
    harness.run(harness.action(HydratedBid, "p1", card=3, index=opened))
    index += opened
    named = {"simultaneous_group_id": group_id(harness)} if names_group else {}
    with pytest.raises(IllegalActionError) as caught:
        harness.run(harness.action(HydratedBid, "p2", card=4, index=index, **named))
    assert (caught.value.code, caught.value.path) == ("stale-index", "index")


@pytest.mark.parametrize("which", ["unknown", "last round's"])
def test_a_bid_naming_another_group_is_refused(harness: Harness, play_round: PlayRound, which: str) -> None:
    old = group_id(harness)
    play_round(harness, {"p1": 1, "p2": 2})
    named = "not-a-group" if which == "unknown" else old
    with pytest.raises(IllegalActionError) as caught:
        harness.run(harness.action(HydratedBid, "p1", card=5, simultaneous_group_id=named))
    assert (caught.value.code, caught.value.path) == ("wrong-simultaneous-group", "simultaneous_group_id")


def test_enter_opens_a_group_only_when_none_is_open(harness: Harness) -> None:
    ctx = harness.context()
    open_group = ctx.state.simultaneous_group
    Bidding().enter(ctx)
    assert ctx.state.simultaneous_group == open_group
    ctx.close_simultaneous_group()
    Bidding().enter(ctx)
    reopened = ctx.state.simultaneous_group
    assert reopened is not None and open_group is not None and reopened.id != open_group.id
    assert reopened.start_index == ctx.state.action_count


def test_every_round_has_its_own_group_and_none_is_open_at_the_end(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=5, seed=3)
    groups = []
    for card in range(1, 6):
        groups.append(group_id(harness))
        harness.play(
            harness.action(HydratedBid, "p2", card=card), harness.action(HydratedBid, "p1", card=card)
        )
    assert len(set(groups)) == 5
    bids = [action.simultaneous_group_id for action in harness.log if action.type == "Bid"]
    assert bids == [group for group in groups for _ in range(2)]
    assert harness.state.is_over and harness.state.simultaneous_group is None
