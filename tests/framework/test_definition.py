"""Assembling a definition checks everything at once and names every culprit."""

from enum import StrEnum

import pytest
from tabletop import GameConfig, GameDefinitionError, StateHandler
from tabletop_fixtures.counter import (
    ACTIONS,
    HANDLERS,
    CounterConfig,
    CounterState,
    HydratedIncrement,
    Kind,
    Phase,
    make_definition,
)


class Phase2(StrEnum):
    COUNTING = "Counting"
    PAUSED = "Paused"
    DONE = "Done"
    LIMBO = "Limbo"


class Kind2(StrEnum):
    INCREMENT = "Increment"
    CASCADE = "Cascade"
    TICK = "Tick"
    PAUSE = "Pause"
    RESUME = "Resume"
    FINISH = "Finish"
    BAD_MOVE = "BadMove"
    EXPLODE = "Explode"
    TELEPORT = "Teleport"


class Wanders(StateHandler[CounterState, CounterConfig]):
    accepts = (Kind.INCREMENT,)
    transitions_to = ("Nowhere",)  # type: ignore[assignment]


class NeedsValue(GameConfig):
    value: int
    """No default: a definition error."""


def test_a_well_formed_definition_assembles() -> None:
    definition = make_definition()
    assert set(definition.action_by_type) == {kind.value for kind in Kind} | {"TimeExpired"}
    assert definition.edges[Phase.COUNTING] == (Phase.COUNTING, Phase.PAUSED, Phase.DONE)


def test_every_problem_is_reported_at_once() -> None:
    handlers: dict[object, object] = {**HANDLERS}  # type: ignore[dict-item]
    handlers[Phase2.LIMBO] = Wanders()
    with pytest.raises(GameDefinitionError) as caught:
        make_definition(
            machine_states=Phase2,
            action_types=Kind2,
            actions=[*ACTIONS, HydratedIncrement],
            handlers={k: v for k, v in handlers.items() if k != Phase.PAUSED},
            config_type=NeedsValue,
        )
    problems = "\n".join(caught.value.problems)
    assert "state 'Paused' has no handler" in problems
    assert "action type 'Teleport' has no model" in problems
    assert "action type 'Increment' has two models" in problems
    assert "state 'Limbo' declares an edge to unknown state 'Nowhere'" in problems
    assert "state 'Limbo' is unreachable from 'Counting'" in problems
    assert "config option 'value' has no default" in problems
    assert len(caught.value.problems) >= 6
    assert caught.value.game == "counter"


def test_unknown_states_in_handlers_and_bad_player_ranges_are_reported() -> None:
    ghost: dict[object, object] = {**HANDLERS}  # type: ignore[dict-item]
    ghost["Ghost"] = HANDLERS[Phase.DONE]
    with pytest.raises(GameDefinitionError) as caught:
        make_definition(handlers=ghost, min_players=3, max_players=2)
    assert any("unknown state 'Ghost'" in p for p in caught.value.problems)
    assert any("player range 3..2 is empty" in p for p in caught.value.problems)


def test_an_action_model_without_a_literal_tag_is_reported() -> None:
    from tabletop import GameAction, HydratedAction

    class Untagged(GameAction):
        pass

    class HydratedUntagged(Untagged, HydratedAction[Untagged, CounterState, CounterConfig]):
        pass

    with pytest.raises(GameDefinitionError, match="does not narrow 'type'"):
        make_definition(actions=[*ACTIONS, HydratedUntagged])


def test_the_diagram_is_mermaid_with_every_declared_edge() -> None:
    diagram = make_definition().diagram()
    assert "stateDiagram-v2" in diagram
    assert "[*] --> Counting" in diagram
    assert "Counting --> Paused" in diagram
    assert "Paused --> Counting" in diagram
    assert "Done -->" not in diagram


def test_metadata_defaults_and_example_configs_of_another_game_are_refused() -> None:
    from tabletop import GameDefinition
    from tabletop_sample.definition.game import definition as sample
    from tabletop_sample.model.config import SampleConfig
    from tabletop_sample.model.game_state import HydratedSampleGameState

    def rebuilt(**extra: object) -> GameDefinition[HydratedSampleGameState, SampleConfig]:
        return GameDefinition(
            name="dice-duel",
            state_type=sample.state_type,
            config_type=SampleConfig,
            initial_state=sample.initial_state,
            handlers=sample.handlers,
            setup=sample.setup,
            **extra,  # type: ignore[arg-type]
        )

    assert (rebuilt().title, rebuilt().description, rebuilt().example_configs) == ("Dice duel", "", ())
    assert sample.title == "Sample" and sample.example_configs == (SampleConfig(big_totals_allowed=True),)
    with pytest.raises(GameDefinitionError, match="example config 0 is a GameConfig, not a SampleConfig"):
        rebuilt(example_configs=[GameConfig()])
