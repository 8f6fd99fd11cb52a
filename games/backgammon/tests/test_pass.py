"""Pass: only when no checker can move; it ends the turn."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_backgammon.actions.pass_turn import HydratedPass
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]
Place = Callable[..., None]


def test_a_blocked_player_passes_and_the_dice_go_to_the_opponent(harness: Harness, place: Place) -> None:
    place(harness.state, {12: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, dice=(4, 4), bars=(1, 0))
    turns = harness.state.turns
    harness.run(harness.action(HydratedPass, "p1"))
    assert harness.state.mover == "p2" and harness.state.active_player_ids == ["p2"]
    assert harness.state.turns == turns + 1 and not harness.state.double_half  # a blocked double ends it


def test_passing_with_a_legal_move_is_refused(harness: Harness) -> None:
    player = str(harness.state.mover)
    with pytest.raises(IllegalActionError) as refused:
        harness.run(harness.action(HydratedPass, player))
    assert refused.value.code == "must-move"
    assert harness.legal_actions(player) and all(a.type == "Move" for a in harness.legal_actions(player))
