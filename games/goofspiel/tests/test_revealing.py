"""Revealing: nobody acts while the system reveals; then the next round, or the end of the game."""

from collections.abc import Callable

import pytest
from tabletop.testing import GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.revealing import Revealing

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]


def test_enter_makes_nobody_active(harness: Harness) -> None:
    ctx = harness.context()
    Revealing().enter(ctx)
    assert ctx.state.active_player_ids == []
    assert harness.engine.valid_action_types(ctx.state, "p1", harness.game) == []


@pytest.mark.parametrize(
    ("rounds_before", "following"),
    [(0, MachineState.BIDDING), (1, MachineState.BIDDING), (2, MachineState.GAME_OVER)],
)
def test_on_action_plays_on_while_prizes_are_left(
    make_harness: MakeHarness, rounds_before: int, following: MachineState
) -> None:
    harness = make_harness(cards=3, prizes=[1, 2, 3])
    for card in range(1, rounds_before + 1):
        harness.run(harness.action(HydratedBid, "p1", card=card))
        harness.run(harness.action(HydratedBid, "p2", card=card))
    ctx = harness.context()
    card = rounds_before + 1
    for player_id in ("p1", "p2"):
        ctx.state.current_auction().bid(player_id, card)
    reveal = harness.action(HydratedReveal)
    reveal.apply(ctx)  # the round is resolved: 3 - rounds_before - 1 prizes are left
    assert len(ctx.state.prizes_left) == 2 - rounds_before
    assert Revealing().on_action(reveal, ctx) is following


def test_only_reveal_is_accepted() -> None:
    assert [str(action_type) for action_type in Revealing.accepts] == ["Reveal"]
