"""EndGame, the starter action: the player on turn ends the game and wins.

Delete this file together with ``actions/end_game.py`` when you replace the starter action.
"""

from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_hearts.actions.end_game import HydratedEndGame
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]


def test_apply_records_who_ended_the_game(harness: Harness) -> None:
    ctx = harness.context()
    player = ctx.state.active_player_ids[0]
    harness.action(HydratedEndGame, player).apply(ctx)
    assert ctx.state.ended_by == player
    assert harness.state.ended_by is None


def test_only_the_player_on_turn_may_end_the_game(harness: Harness) -> None:
    assert "EndGame" in harness.engine.valid_action_types(harness.state, "p1", harness.game)
    ending = [action for action in harness.legal_actions("p1") if isinstance(action, HydratedEndGame)]
    assert [action.player_id for action in ending] == ["p1"]
    assert harness.legal_actions("p2") == []


def test_ending_the_game_makes_the_player_on_turn_the_winner(harness: Harness) -> None:
    result = harness.run(harness.action(HydratedEndGame, "p1"))
    state = result.state
    assert state.machine_state is MachineState.GAME_OVER
    assert (state.result, state.winning_player_ids) == (GameResult.WIN, ["p1"])
    assert [action.index for action in harness.log] == [0]
    assert harness.last(HydratedEndGame).player_id == "p1"


def test_the_action_space_holds_every_legal_action(harness: Harness) -> None:
    assert HydratedEndGame.action_space(harness.game) == [{}]  # no payload: one integer code
