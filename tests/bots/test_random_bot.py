"""RandomBot: uniform legal choices with fresh ids, reproducible from its seed alone."""

from __future__ import annotations

import random

import pytest
from tabletop import (
    UNKEYED,
    AnyState,
    Game,
    GameAction,
    GameConfig,
    GameEngine,
    HydratedAction,
    IllegalActionError,
    MachineContext,
)
from tabletop.bots import RandomBot, new_action_id
from tabletop.games import available, load
from tabletop.testing import make_game
from tabletop_fixtures.seated import seated

AnyEngine = GameEngine[AnyState, GameConfig]
Action = HydratedAction[GameAction, AnyState, GameConfig]
ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_new_action_id_draws_the_ids_random_choices_draws(seed: int) -> None:
    ours, reference = random.Random(seed), random.Random(seed)
    for _ in range(50):
        assert new_action_id(ours) == "".join(reference.choices(ID_CHARS, k=21))
    assert ours.random() == reference.random()  # and leaves the generator where choices does


def _reference_candidates(
    engine: AnyEngine, state: AnyState, player_id: str, game: Game[GameConfig]
) -> tuple[list[Action], MachineContext[AnyState, GameConfig]]:
    """Every candidate the handler's own tests accept, unchecked, in the engine's order."""
    ctx: MachineContext[AnyState, GameConfig] = MachineContext(state, game)
    if state.result is not None or not state.is_active(player_id):
        return [], ctx
    handler = engine.definition.handlers[state.machine_state]
    candidates: list[Action] = []
    for action_type in handler.valid_actions_for_player(player_id, ctx):
        action_class = {str(t): c for t, c in engine.definition.action_by_type.items()}.get(action_type)
        if action_class is None or not action_class.is_enumerable():
            continue
        candidates += [c for c in action_class.enumerate(state, player_id) if handler.is_valid_action(c, ctx)]
    return candidates, ctx


def _passes(candidate: Action, ctx: MachineContext[AnyState, GameConfig]) -> bool:
    try:
        candidate.check(ctx)
    except IllegalActionError:
        return False
    return True


def _reference_pick(
    candidates: list[Action], ctx: MachineContext[AnyState, GameConfig], rng: random.Random
) -> Action | None:
    """A uniform draw among the legal candidates: draw one, check it, swap a failed one out for the last."""
    candidates = list(candidates)
    while candidates:
        index = rng.randrange(len(candidates))
        if _passes(candidates[index], ctx):
            return candidates[index]
        candidates[index] = candidates[-1]
        candidates.pop()
    return None


@pytest.mark.parametrize("name", available())
def test_legal_actions_and_choices_equal_the_reference_over_a_playout(name: str) -> None:
    engine, game = seated(name, 3)
    bot = RandomBot(engine, 3)
    reference_rng = random.Random(3)
    state = engine.start(game, prng_key=UNKEYED).state
    for _ in range(400):
        if state.result is not None:
            break
        for player_id in state.active_player_ids:
            legal = engine.legal_actions(state, player_id, game)
            candidates, ctx = _reference_candidates(engine, state, player_id, game)
            expected = [candidate for candidate in candidates if _passes(candidate, ctx)]
            assert [a.model_dump() for a in legal] == [a.model_dump() for a in expected]
            chosen = bot.choose(state, player_id, game)
            reference = _reference_pick(candidates, ctx, reference_rng)  # draws even when all fail
            if not expected:
                assert chosen is None and reference is None
                continue
            assert reference is not None
            picked = reference.with_id(new_action_id(reference_rng))
            assert chosen is not None
            assert chosen.model_dump() == picked.model_dump()
            assert chosen.model_fields_set == picked.model_fields_set
            break
        else:
            pytest.fail(f"nobody can act in {state.machine_state}")
        state = engine.run(chosen, state, game).state
    assert bot.rng.getstate() == reference_rng.getstate()


def test_a_chosen_action_is_the_callers_own(tic_tac_toe_engine: tuple[AnyEngine, Game[GameConfig]]) -> None:
    engine, game = tic_tac_toe_engine
    bot = RandomBot(engine, 5)
    state = engine.start(game, prng_key=UNKEYED).state
    player_id = state.active_player_ids[0]
    first = bot.choose(state, player_id, game)
    second = bot.choose(state, player_id, game)
    assert first is not None and second is not None
    assert first is not second and first.id != second.id
    assert len(first.id) == 21 and set(first.id) <= set(ID_CHARS)
    assert "id" in first.model_fields_set
    kept = first.id
    engine.run(second, state, game)
    assert first.id == kept  # choosing and running another action leaves this one alone


@pytest.fixture
def tic_tac_toe_engine() -> tuple[AnyEngine, Game[GameConfig]]:
    definition = load("tic-tac-toe")
    return GameEngine(definition), make_game(definition, players=2, seed=5)
