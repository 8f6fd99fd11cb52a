"""``assert_deterministic``: passes for every kind of game, and says what differs and why when not."""

from __future__ import annotations

import itertools
from enum import StrEnum
from typing import Literal, Self

import pytest
from tabletop import (
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    HydratedAction,
    MachineContext,
    PlayerState,
    StateHandler,
    TerminalHandler,
    games,
)
from tabletop.testing import assert_deterministic


@pytest.mark.parametrize("name", ["pig", "go-fish", "goofspiel", "sample", "tic-tac-toe"])
def test_shipped_games_with_chance_and_hidden_information_pass(name: str) -> None:
    definition = games.load(name)
    assert_deterministic(definition, players=definition.min_players, seed=11)


class Phase(StrEnum):
    PLAYING = "Playing"
    OVER = "Over"


class Kind(StrEnum):
    TAKE = "Take"


class LeakyState(GameState[PlayerState, Phase]):
    taken: list[int] = []
    """What was taken, in order."""


Ctx = MachineContext[LeakyState, GameConfig]
_COUNTER = itertools.count()  # outlives one game: the bug the check finds
_GAMES_STARTED = [0]  # also outlives one game


class Take(GameAction):
    type: Literal[Kind.TAKE] = Kind.TAKE
    """Tag."""
    player_id: str
    """Who takes."""
    amount: int
    """How much."""


def _make(*, leak_in_apply: bool) -> GameDefinition[LeakyState, GameConfig]:
    class HydratedTake(Take, HydratedAction[Take, LeakyState, GameConfig]):
        def apply(self, ctx: Ctx) -> None:
            ctx.state.taken.append(next(_COUNTER) if leak_in_apply else self.amount)

        @classmethod
        def enumerate(cls, state: LeakyState, player_id: str) -> list[Self]:
            amounts = [1, 2, 3]
            if not leak_in_apply and _GAMES_STARTED[0] % 2:
                amounts.reverse()  # another order in every other game: the bot's choice changes
            return [cls.candidate(state, player_id, amount=amount) for amount in amounts]

    class Playing(StateHandler[LeakyState, GameConfig]):
        accepts = (Kind.TAKE,)
        transitions_to = (Phase.PLAYING, Phase.OVER)

        def enter(self, ctx: Ctx) -> None:
            ctx.start_next_turn()

        def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
            return Phase.OVER if len(ctx.state.taken) >= 4 else Phase.PLAYING

    class Over(TerminalHandler[LeakyState, GameConfig]):
        def enter(self, ctx: Ctx) -> None:
            ctx.end_game([])

    def setup(ctx: Ctx) -> None:
        _GAMES_STARTED[0] += 1

    return GameDefinition(
        name="leaky",
        setup=setup,
        state_type=LeakyState,
        machine_states=Phase,
        initial_state=Phase.PLAYING,
        action_types=Kind,
        actions=[HydratedTake],
        handlers={Phase.PLAYING: Playing(), Phase.OVER: Over()},
        min_players=2,
        max_players=2,
    )


def test_randomness_outside_the_prng_is_reported_with_the_paths_that_differ_and_why() -> None:
    with pytest.raises(AssertionError) as failure:
        assert_deterministic(_make(leak_in_apply=True), seed=1)
    message = str(failure.value)
    assert "differ at step 1 (after 1 submitted actions)" in message
    assert "/taken/0: first run" in message and "second run" in message
    assert "outside ctx.prng" in message


def test_legal_actions_in_a_changing_order_are_reported_as_different_choices() -> None:
    with pytest.raises(AssertionError) as failure:
        assert_deterministic(_make(leak_in_apply=False), seed=1)
    message = str(failure.value)
    assert "the bots submitted different actions:\n    /amount: first run" in message
    assert "iterates a set" in message
