"""Declared chance points: the engine decides, records and hides their outcomes; tests force them."""

from __future__ import annotations

from typing import Literal

import pytest
from tabletop import (
    UNKEYED,
    ChanceAction,
    ChanceOutcomes,
    GameDefinition,
    GameDefinitionError,
    GameEngine,
    HydratedChanceAction,
    IllegalActionError,
    Prng,
    PrngState,
    dump_json,
)
from tabletop._chance import draw_outcome
from tabletop._engine import resume_paused, run_paused, start_paused
from tabletop.testing import TEST_PRNG_KEY, ForcedChance, GameHarness, make_game
from tabletop.views import SPECTATOR, project, project_action
from tabletop_fixtures import chance_deal
from tabletop_fixtures.chance_deal import (
    DealConfig,
    DealState,
    HydratedDealCard,
    HydratedRoll,
    HydratedRollDie,
)

Engine = GameEngine[DealState, DealConfig]


@pytest.fixture
def engine() -> Engine:
    return GameEngine(chance_deal.definition)


def _roll(n: int = 1) -> dict[str, str]:
    return {"id": f"r{n}", "game_id": "game-1", "type": "Roll", "player_id": "p1"}


def test_a_game_with_chance_points_declares_chance_and_needs_a_key() -> None:
    definition = chance_deal.definition
    assert definition.chance and definition.requires_prng_key
    assert definition.chance_actions == (HydratedDealCard, HydratedRollDie)


def test_the_engine_draws_each_outcome_from_the_state_prng_and_records_it(engine: Engine) -> None:
    game = make_game(engine.definition, players=2, seed=5)
    started = engine.start(game, prng_key=TEST_PRNG_KEY)
    deals = [action for action in started.actions if isinstance(action, HydratedDealCard)]
    assert [deal.to for deal in deals] == ["p1", "p2", "p1", "p2"]
    dealt = [deal.outcome for deal in deals]
    assert sorted(card for card in dealt if card is not None) == [1, 2, 3, 4]
    state = started.state
    assert [state.player("p1").hand, state.player("p2").hand] == [dealt[0::2], dealt[1::2]]
    again = engine.start(game, prng_key=TEST_PRNG_KEY)
    assert dump_json(again.state) == dump_json(state)  # same seed and key: the same deal


def test_a_draw_is_one_rand_int_of_the_weights_sum() -> None:
    outcomes = [(1, 1), (2, 1), (3, 2)]
    for seed in range(50):
        prng, twin = Prng(PrngState(seed=seed)), Prng(PrngState(seed=seed))
        position = twin.rand_int(4)
        assert draw_outcome(prng, outcomes, "g") == (1, 2, 3, 3)[position]
        assert prng.state.invocations == twin.state.invocations == 1


@pytest.mark.parametrize("outcomes", [[], [(1, 0)], [(1, 1), (2, -1)]])
def test_empty_or_badly_weighted_chances_are_a_definition_error(outcomes: ChanceOutcomes) -> None:
    with pytest.raises(GameDefinitionError):
        draw_outcome(Prng(PrngState(seed=1)), outcomes, "g")


def test_forced_outcomes_decide_the_deal_and_the_die() -> None:
    harness = GameHarness(chance_deal.definition, chance=ForcedChance([4, 3, 2, 1, 3]))
    assert harness.state.player("p1").hand == [4, 2]
    assert harness.state.player("p2").hand == [3, 1]
    recorded = harness.run(_roll()).actions
    assert [action.type for action in recorded] == ["Roll", "RollDie"]
    assert harness.last(HydratedRollDie).outcome == 3 and harness.state.winning_player_ids == ["p1"]
    assert isinstance(harness.chance, ForcedChance) and harness.chance.remaining == []


@pytest.mark.parametrize("impossible", [4, 0, "1"])
def test_an_impossible_forced_outcome_is_refused_and_changes_nothing(impossible: object) -> None:
    harness = GameHarness(chance_deal.definition, chance=ForcedChance([4, 3, 2, 1]))
    before = dump_json(harness.state)
    harness.chance = ForcedChance([impossible])
    with pytest.raises(IllegalActionError) as caught:
        harness.run(_roll())
    assert (caught.value.code, caught.value.path) == ("impossible-chance-outcome", "outcome")
    assert dump_json(harness.state) == before


def test_a_card_dealt_twice_is_impossible() -> None:
    with pytest.raises(IllegalActionError, match="impossible"):
        GameHarness(chance_deal.definition, chance=ForcedChance([4, 4]))


def test_running_out_of_forced_outcomes_says_so() -> None:
    with pytest.raises(LookupError, match="no forced outcome left for DealCard"):
        GameHarness(chance_deal.definition, chance=ForcedChance([1, 2]))


def test_a_client_cannot_submit_a_chance_point(engine: Engine) -> None:
    harness = GameHarness(chance_deal.definition)
    body = {"id": "x", "game_id": "game-1", "type": "RollDie", "player_id": "p1", "outcome": 3}
    with pytest.raises(IllegalActionError) as caught:
        engine.run(body, harness.state, harness.game)
    assert caught.value.code == "system-only"


def test_a_hidden_outcome_is_seen_only_by_its_owner_in_the_log_and_the_view() -> None:
    harness = GameHarness(chance_deal.definition, chance=ForcedChance([4, 3, 2, 1]))
    first = harness.recorded(HydratedDealCard)[0]
    assert (first.to, first.outcome) == ("p1", 4)
    assert project_action(first, "p1").outcome == 4
    assert project_action(first, "p2").outcome is None
    assert project_action(first, SPECTATOR).outcome is None  # a spectator
    view = project(harness.state, "p2")
    assert [player["hand"] for player in view.model_dump(mode="json")["players"]] == [None, [3, 1]]


def test_a_public_outcome_is_in_every_log() -> None:
    harness = GameHarness(chance_deal.definition, chance=ForcedChance([4, 3, 2, 1, 2]))
    harness.run(_roll())
    assert project_action(harness.last(HydratedRollDie), "p2").outcome == 2


def test_replaying_the_user_actions_from_the_seed_gives_the_same_outcomes(engine: Engine) -> None:
    game = make_game(engine.definition, players=2, seed=11)
    first = engine.start(game, prng_key=UNKEYED)
    played = engine.run(_roll(), first.state, game)
    replayed = engine.run(_roll(), engine.start(game, prng_key=UNKEYED).state, game)
    assert dump_json(replayed.state) == dump_json(played.state)
    assert [a.model_dump() for a in replayed.actions] == [a.model_dump() for a in played.actions]


def test_a_paused_run_stops_at_each_chance_point_and_resumes_with_the_outcome(engine: Engine) -> None:
    game = make_game(engine.definition, players=2, seed=2)
    paused = start_paused(engine, game, UNKEYED)
    state, pending = paused.state, paused.pending
    assert paused.actions == ()
    for card in (4, 3, 2, 1):
        assert isinstance(pending[0], HydratedDealCard) and pending[0].outcome is None
        paused = resume_paused(engine, pending, card, state, game)
        dealt = paused.actions[0]
        assert (dealt.type, getattr(dealt, "outcome", None)) == ("DealCard", card)
        pending = paused.pending
    assert pending == [] and state.machine_state == "Playing"
    roll = HydratedRoll.candidate(state, "p1").with_id("r1")
    paused = run_paused(engine, roll, state, game)
    pending = paused.pending
    assert [a.type for a in paused.actions] == ["Roll"] and [a.type for a in pending] == ["RollDie"]
    assert state.bonus is None
    before = dump_json(state)
    with pytest.raises(IllegalActionError) as caught:
        resume_paused(engine, [pending[0].with_id(pending[0].id)], 7, state, game)
    assert caught.value.code == "impossible-chance-outcome" and dump_json(state) == before
    assert resume_paused(engine, pending, 1, state, game).pending == []
    script = ForcedChance([4, 3, 2, 1, 1])
    forced = GameHarness(chance_deal.definition, seed=2, prng_key=UNKEYED, chance=script)
    forced.run({**_roll(), "id": "r1"})
    assert dump_json(state) == dump_json(forced.state)  # pausing changes nothing but who decides
    with pytest.raises(IllegalActionError) as nothing:
        resume_paused(engine, [], 1, state, game)
    assert nothing.value.code == "not-a-chance-node"


class NoOutcome(ChanceAction):
    type: Literal["NoOutcome"] = "NoOutcome"
    """Tag."""


class HydratedNoOutcome(NoOutcome, HydratedChanceAction[NoOutcome, DealState, DealConfig]):
    pass


def test_a_chance_point_without_outcome_chances_or_space_is_a_definition_error() -> None:
    base = chance_deal.definition
    with pytest.raises(GameDefinitionError) as caught:
        GameDefinition(
            name="broken",
            state_type=DealState,
            config_type=DealConfig,
            machine_states=chance_deal.Phase,
            initial_state=chance_deal.Phase.DEALING,
            actions=[*base.actions, HydratedNoOutcome],
            handlers=base.handlers,
        )
    problems = caught.value.problems
    assert any("NoOutcome does not declare 'outcome" in problem for problem in problems), problems
    assert any("NoOutcome does not implement chances" in problem for problem in problems), problems
    assert any("NoOutcome does not implement chance_space" in problem for problem in problems), problems
