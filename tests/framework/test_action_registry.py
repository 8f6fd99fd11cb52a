"""Less ceremony per concept: what a definition derives, staying in a state, per-action targets.

The dice tray fixture (``tabletop_fixtures.dice_tray``) is a game in the workspace layout whose
definition names no action classes, no enums and no config type, and whose actions are
deliberately not alphabetical: ``ActionType`` declares Roll, Hold, Bank; the modules are
``bank``, ``hold``, ``roll``.
"""

from __future__ import annotations

import itertools
import json
from enum import StrEnum
from typing import cast

import pytest
from tabletop import (
    AnyState,
    GameAction,
    GameConfig,
    GameDefinition,
    GameDefinitionError,
    IllegalActionError,
    StateHandler,
)
from tabletop.adapters import ActionCodec
from tabletop.clocks import TimeExpired
from tabletop.schemas import render_schemas
from tabletop.testing import GameHarness, make_game
from tabletop_fixtures.dice_tray import definition
from tabletop_fixtures.dice_tray.actions.bank import HydratedBank
from tabletop_fixtures.dice_tray.actions.hold import HydratedHold
from tabletop_fixtures.dice_tray.actions.roll import HydratedRoll
from tabletop_fixtures.dice_tray.definition.actions import ActionType
from tabletop_fixtures.dice_tray.definition.state_handlers import state_handlers
from tabletop_fixtures.dice_tray.definition.states import MachineState
from tabletop_fixtures.dice_tray.model.game_state import HydratedTrayState, TrayConfig

AnyDefinition = GameDefinition[AnyState, GameConfig]
ACTIONS = [HydratedRoll, HydratedHold, HydratedBank]


def _definition(actions: list[type[object]] | None = None, **changes: object) -> AnyDefinition:
    arguments: dict[str, object] = {
        "name": "dice-tray",
        "state_type": HydratedTrayState,
        "initial_state": MachineState.ROLLING,
        "handlers": state_handlers,
        "min_players": 2,
        "max_players": 4,
    }
    if actions is not None:
        arguments["actions"] = actions
    return GameDefinition(**(arguments | changes))  # type: ignore[arg-type, type-var]


def test_the_definition_finds_its_actions_enums_and_config() -> None:
    *own, framework = definition.actions
    assert own == [HydratedRoll, HydratedHold, HydratedBank]  # ActionType order
    assert issubclass(cast(type, framework), TimeExpired)  # then the framework's own
    assert definition.action_types is ActionType
    assert definition.machine_states is MachineState
    assert definition.config_type is TrayConfig
    assert set(definition.action_by_type) == {"Roll", "Hold", "Bank", "TimeExpired"}


@pytest.mark.parametrize("order", list(itertools.permutations(ACTIONS)))
def test_listed_actions_follow_the_action_type_order_whatever_order_they_are_given(
    order: tuple[type[object], ...],
) -> None:
    assert _definition(list(order)).actions == definition.actions


def test_an_action_type_without_a_module_is_named() -> None:
    with pytest.raises(GameDefinitionError) as caught:
        _definition([HydratedRoll, HydratedBank])
    assert "action type 'Hold' has no model" in str(caught.value)


def test_an_action_tagged_outside_the_action_types_is_named() -> None:
    class OtherKind(StrEnum):
        ROLL = "Roll"
        HOLD = "Hold"

    with pytest.raises(GameDefinitionError) as caught:
        _definition(action_types=OtherKind)
    assert "has type 'Bank', not an action type" in str(caught.value)


@pytest.mark.parametrize("order", list(itertools.permutations(ACTIONS)))
def test_the_schema_export_does_not_depend_on_the_order_of_the_actions(
    order: tuple[type[object], ...],
) -> None:
    files = render_schemas([_definition(list(order))], producers=())
    assert files == render_schemas([cast(AnyDefinition, definition)], producers=())
    for union, tags in (
        ("action", ["Bank", "Hold", "Roll", "TimeExpired"]),
        ("request", ["Bank", "Hold", "Roll"]),
    ):
        document = json.loads(files[f"dice-tray/{union}.json"])
        mapping = document["discriminator"]["mapping"]
        assert list(mapping) == tags  # sorted tags, as the file is written (the framework's in the log only)
        assert [branch["$ref"] for branch in document["oneOf"]] == list(mapping.values())


@pytest.mark.parametrize("order", list(itertools.permutations(ACTIONS)))
def test_the_codec_numbers_actions_in_action_type_order(order: tuple[type[object], ...]) -> None:
    reordered = _definition(list(order))
    codec = ActionCodec(reordered, make_game(reordered, players=2))
    assert [codec.describe(i) for i in range(codec.size)] == [
        'Roll {"pips":1}',
        'Roll {"pips":2}',
        'Roll {"pips":3}',
        "Hold {}",  # no payload fields: the action space [{}] is the default
        "Bank {}",
    ]


def test_an_action_without_payload_has_a_default_action_space() -> None:
    game = make_game(definition, players=2)
    assert HydratedHold.has_action_space() and HydratedHold.action_space(game) == [{}]
    assert HydratedRoll.has_action_space() and len(HydratedRoll.action_space(game)) == 3


# -- several actions in one turn ------------------------------------------------------------------


@pytest.fixture
def harness() -> GameHarness[HydratedTrayState, TrayConfig]:
    return GameHarness(definition, players=2, seed=1)


Harness = GameHarness[HydratedTrayState, TrayConfig]


def test_returning_none_stays_without_entering_again(harness: Harness) -> None:
    for pips in (3, 2, 1):
        harness.play(harness.action(HydratedRoll, "p1", pips=pips))
    state = harness.state
    assert state.active_player_ids == ["p1"] and state.turn_manager.turn_count == 1
    assert (state.at_risk, state.rolls, state.machine_state) == (6, 3, MachineState.ROLLING)
    harness.play(harness.action(HydratedBank, "p1"))  # a self-transition: enter() runs, next turn
    assert harness.state.active_player_ids == ["p2"] and harness.state.rolls == 0
    assert harness.state.player("p1").banked == 6


def test_the_harness_gives_typed_access_to_recorded_actions(harness: Harness) -> None:
    harness.play(harness.action(HydratedRoll, "p1", pips=2), harness.action(HydratedRoll, "p1", pips=3))
    rolls = harness.recorded(HydratedRoll)
    assert [roll.metadata.at_risk for roll in rolls if roll.metadata is not None] == [2, 5]
    last = harness.last(HydratedRoll).metadata
    assert last is not None and last.at_risk == 5
    assert [action.index for action in harness.log] == [0, 1]
    with pytest.raises(LookupError, match="no HydratedHold was recorded"):
        harness.last(HydratedHold)


def test_a_game_plays_to_its_end(harness: Harness) -> None:
    while harness.state.result is None:
        player = harness.state.active_player_ids[0]
        harness.play(harness.action(HydratedRoll, player, pips=3), harness.action(HydratedBank, player))
    assert harness.state.winning_player_ids == ["p1"] and harness.state.machine_state is MachineState.DONE


# -- per-action targets ---------------------------------------------------------------------------


def test_the_diagram_labels_an_edge_only_with_the_actions_that_can_take_it() -> None:
    diagram = definition.diagram()
    assert "Rolling --> Rolling: Bank/Hold" in diagram
    assert "Rolling --> Done: Bank" in diagram


def test_a_handler_moving_where_its_action_may_not_go_is_a_definition_error(harness: Harness) -> None:
    class Leaky(type(state_handlers[MachineState.ROLLING])):  # type: ignore[misc]
        def on_action(self, action: GameAction, ctx: object) -> MachineState | None:
            return MachineState.DONE  # Hold declares only Rolling

    leaky = _definition(handlers={**state_handlers, MachineState.ROLLING: Leaky()})
    leaking = GameHarness(leaky, players=2)
    with pytest.raises(GameDefinitionError, match="'Rolling' moved to 'Done' after Hold, which it does not"):
        leaking.play(leaking.action(HydratedHold, "p1"))


def test_targets_must_be_declared_edges_of_accepted_actions() -> None:
    class Sloppy(StateHandler[HydratedTrayState, TrayConfig]):
        accepts = (ActionType.ROLL, ActionType.HOLD, ActionType.BANK)
        transitions_to = (MachineState.ROLLING,)
        action_targets = {ActionType.BANK: (MachineState.DONE,), ActionType("Hold"): ()}

    handlers = {MachineState.ROLLING: Sloppy(), MachineState.DONE: state_handlers[MachineState.DONE]}
    with pytest.raises(GameDefinitionError) as caught:
        _definition(handlers=handlers)
    assert "lets 'Bank' move to 'Done', not in its transitions_to" in str(caught.value)


# -- make_game --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5])
def test_make_game_refuses_a_player_count_the_game_does_not_take(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        make_game(definition, players=players)
    assert caught.value.code == "invalid-game"
    assert f"{players} players; dice-tray takes 2..4" in str(caught.value)
