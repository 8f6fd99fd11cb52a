"""Reveal: with both bids in, the system shows them; the higher card takes the prize, a tie discards it."""

from collections.abc import Callable, Mapping

import pytest
from tabletop import ActionSource, IllegalActionError
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal, RevealMetadata
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState, PrizeRound

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
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


def test_scores_accumulate_over_rounds(harness: Harness, play_round: PlayRound) -> None:
    prizes: list[int] = []
    for p1, p2 in [(13, 1), (2, 12), (11, 3)]:
        prizes.append(harness.state.prize or 0)
        play_round(harness, {"p1": p1, "p2": p2})
    state = harness.state
    assert (state.player("p1").score, state.player("p2").score) == (prizes[0] + prizes[2], prizes[1])
    last = harness.log[-1]
    assert isinstance(last, HydratedReveal) and last.metadata is not None
    assert last.metadata.scores == {"p1": prizes[0] + prizes[2], "p2": prizes[1]}
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


def test_the_second_bid_brings_a_system_reveal_in_the_same_run(harness: Harness) -> None:
    prize = harness.state.prize
    first = harness.run(harness.action(HydratedBid, "p2", card=5))
    assert len(first.actions) == 1
    result = harness.run(harness.action(HydratedBid, "p1", card=6))
    bid, reveal = result.actions
    assert isinstance(reveal, HydratedReveal)
    assert (reveal.source, reveal.player_id, reveal.reveals_info) == (ActionSource.SYSTEM, None, True)
    assert (bid.index, reveal.index) == (1, 2)
    assert reveal.id and reveal.id != bid.id
    assert reveal.metadata is not None
    assert (reveal.metadata.prize, reveal.metadata.bids, reveal.metadata.winner_id) == (
        prize,
        {"p1": 6, "p2": 5},
        "p1",
    )
    assert harness.state.action_count == 3
