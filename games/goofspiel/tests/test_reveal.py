"""Reveal: with both bids in, the system shows them; the higher card takes the prize, a tie discards it."""

from collections.abc import Callable, Mapping

import pytest
from tabletop import ActionSource, IllegalActionError
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal, RevealMetadata
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState, PrizeRound

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def _sealed(harness: Harness, cards: Mapping[str, int]) -> Ctx:
    """A context over the current state with ``cards`` sealed in this round's auction."""
    ctx = harness.context()
    for player_id, card in cards.items():
        ctx.state.current_auction().bid(player_id, card)
    return ctx


@pytest.mark.parametrize(
    ("p1", "p2", "winner"),
    [(9, 4, "p1"), (1, 13, "p2"), (7, 7, None), (13, 12, "p1"), (1, 1, None)],
)
def test_apply_awards_the_prize_to_the_higher_bid_or_discards_it_on_a_tie(
    harness: Harness, p1: int, p2: int, winner: str | None
) -> None:
    ctx = _sealed(harness, {"p2": p2, "p1": p1})
    prize = ctx.state.prize
    assert prize is not None
    action = harness.action(HydratedReveal)
    action.apply(ctx)
    state = ctx.state
    scores = {player.player_id: player.score for player in state.players}
    assert scores == {"p1": prize if winner == "p1" else 0, "p2": prize if winner == "p2" else 0}
    assert state.discarded == ([] if winner else [prize])
    assert state.player("p1").hand == [card for card in range(1, 14) if card != p1]
    assert state.player("p2").hand == [card for card in range(1, 14) if card != p2]
    record = PrizeRound(round=1, prize=prize, bids={"p1": p1, "p2": p2}, winner_id=winner)
    assert state.rounds == [record]
    assert list(state.rounds[0].bids) == ["p1", "p2"]  # seating order, whoever bid first
    assert (state.prize, state.auction, state.round_number) == (None, None, 1)
    assert action.metadata == RevealMetadata(**record.model_dump(), scores=scores)


def test_scores_accumulate_over_rounds(make_harness: MakeHarness, play_round: PlayRound) -> None:
    harness = make_harness(prizes=[4, 10, 7, 1])
    for p1, p2 in [(13, 1), (2, 12), (11, 3)]:
        play_round(harness, {"p1": p1, "p2": p2})
    state = harness.state
    assert (state.player("p1").score, state.player("p2").score) == (4 + 7, 10)
    last = [action for action in harness.log if isinstance(action, HydratedReveal)][-1]
    assert last.metadata is not None
    assert last.metadata.scores == {"p1": 4 + 7, "p2": 10}
    assert [record.round for record in state.rounds] == [1, 2, 3]


@pytest.mark.parametrize("cards", [{}, {"p1": 3}, {"p2": 3}])
def test_check_refuses_to_reveal_before_both_bids_are_in(harness: Harness, cards: dict[str, int]) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.action(HydratedReveal).check(_sealed(harness, cards))
    assert caught.value.code == "bids-missing"


def test_check_refuses_to_reveal_between_rounds(harness: Harness) -> None:
    ctx = harness.context()
    ctx.state.auction = None
    with pytest.raises(IllegalActionError) as caught:
        harness.action(HydratedReveal).check(ctx)
    assert caught.value.code == "bids-missing"


def test_the_second_bid_brings_a_system_reveal_in_the_same_run(make_harness: MakeHarness) -> None:
    harness = make_harness(prizes=[12, 3])
    first = harness.run(harness.action(HydratedBid, "p2", card=5))
    assert len(first.actions) == 1
    count = harness.state.action_count
    result = harness.run(harness.action(HydratedBid, "p1", card=6))
    bid, reveal, next_prize = result.actions
    assert isinstance(reveal, HydratedReveal)
    assert (reveal.source, reveal.player_id, reveal.reveals_info) == (ActionSource.SYSTEM, None, True)
    assert (bid.index, reveal.index, next_prize.index) == (count, count + 1, count + 2)
    assert reveal.id and reveal.id != bid.id
    assert reveal.metadata is not None
    assert (reveal.metadata.prize, reveal.metadata.bids, reveal.metadata.winner_id) == (
        12,
        {"p1": 6, "p2": 5},
        "p1",
    )
    assert isinstance(next_prize, HydratedRevealPrize) and next_prize.source is ActionSource.SYSTEM
    assert (next_prize.outcome, harness.state.prize) == (3, 3)  # the next round's prize, recorded
    assert harness.state.action_count == count + 3


def test_the_last_reveal_ends_the_game_without_another_prize(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=2, prizes=[2, 1])
    harness.run(harness.action(HydratedBid, "p1", card=2))
    harness.run(harness.action(HydratedBid, "p2", card=1))
    harness.run(harness.action(HydratedBid, "p1", card=1))
    result = harness.run(harness.action(HydratedBid, "p2", card=2))
    assert [action.type for action in result.actions] == ["Bid", "Reveal"]
    assert harness.state.is_over and harness.state.prizes_left == []
    assert [record.prize for record in harness.state.rounds] == [2, 1]
