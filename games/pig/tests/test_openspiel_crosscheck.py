"""Pig against OpenSpiel's ``pig``, move for move, driven with the same chance outcomes.

At every decision the legal actions (by meaning: OpenSpiel's ``0`` is our ``Roll``, ``1`` our
``Hold``) and the player to move are compared; at the end, the returns (OpenSpiel's convention:
the winner 1, everyone else ``-1 / (players - 1)``; 0 to all when the horizon ends the game).
Our Pig plays OpenSpiel's rules with ``hold_without_points`` and ``must_hold_at_target``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

import pyspiel
import pytest
from tabletop import GameDefinition, GameEngine
from tabletop.testing import TEST_PRNG_KEY, ForcedChance, make_game
from tabletop_pig import definition
from tabletop_pig.actions.roll import HydratedRoll
from tabletop_pig.actions.roll_die import HydratedRollDie
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState

ROLL, STOP = 0, 1
"""OpenSpiel's ``pig`` actions."""
MEANING = {ROLL: "Roll", STOP: "Hold"}

PigDefinition = GameDefinition[HydratedPigGameState, PigConfig]


@dataclass(frozen=True)
class Parameters:
    """OpenSpiel's ``pig`` parameters, and how many random games to cross-check with them."""

    players: int
    horizon: int
    winscore: int
    diceoutcomes: int
    games: int

    def config(self) -> PigConfig:
        return PigConfig(
            target=self.winscore,
            dice_outcomes=self.diceoutcomes,
            horizon=self.horizon,
            hold_without_points=True,
            must_hold_at_target=True,
        )


PARAMETERS = [
    Parameters(players=2, horizon=1000, winscore=100, diceoutcomes=6, games=200),  # OpenSpiel's defaults
    Parameters(players=3, horizon=1000, winscore=30, diceoutcomes=6, games=120),
    Parameters(players=4, horizon=60, winscore=20, diceoutcomes=4, games=120),  # the horizon ends some
    Parameters(players=2, horizon=40, winscore=10, diceoutcomes=2, games=60),
]


def _openspiel_returns(state: HydratedPigGameState, players: int) -> list[float]:
    if not state.winning_player_ids:
        return [0.0] * players
    return [1.0 if p.player_id in state.winning_player_ids else -1.0 / (players - 1) for p in state.players]


def cross_check(pig: PigDefinition, parameters: Parameters, seed: int) -> str | None:
    """Play ``parameters.games`` random games on both sides; the first divergence, or None."""
    rng = random.Random(seed)
    spiel = pyspiel.load_game(
        "pig",
        {
            "players": parameters.players,
            "horizon": parameters.horizon,
            "winscore": parameters.winscore,
            "diceoutcomes": parameters.diceoutcomes,
        },
    )
    engine = GameEngine(pig)
    for number in range(parameters.games):
        game = make_game(pig, players=parameters.players, seed=number, config=parameters.config())
        ours = engine.start(game, prng_key=TEST_PRNG_KEY).state
        theirs = spiel.new_initial_state()
        ids = [seat.id for seat in game.players]
        moves = 0
        while True:
            where = f"{parameters} game {number} move {moves}"
            if theirs.is_terminal() or ours.result is not None:
                if theirs.is_terminal() != (ours.result is not None):
                    return f"{where}: terminal {theirs.is_terminal()} vs ours {ours.result}"
                returns = _openspiel_returns(ours, parameters.players)
                if returns != pytest.approx(theirs.returns()):
                    return f"{where}: returns {theirs.returns()} vs ours {returns}"
                break
            (player_id,) = ours.active_player_ids
            if theirs.current_player() != ids.index(player_id):
                return f"{where}: OpenSpiel moves player {theirs.current_player()}, ours {player_id}"
            legal = sorted(a.type for a in engine.legal_actions(ours, player_id, game))
            expected = sorted(MEANING[a] for a in theirs.legal_actions())
            if legal != expected:
                return f"{where}: OpenSpiel's legal actions mean {expected}, ours are {legal}"
            move = rng.choice(theirs.legal_actions())
            theirs.apply_action(move)
            faces: list[int] = []
            if theirs.is_chance_node():
                outcome = rng.choice([o for o, _ in theirs.chance_outcomes()])
                theirs.apply_action(outcome)
                faces.append(outcome + 1)  # OpenSpiel's outcome x is the face x + 1
            body = {"id": f"a{moves}", "game_id": game.id, "type": MEANING[move], "player_id": player_id}
            script = ForcedChance(faces)
            ours = engine.run(body, ours, game, in_place=True, chance=script).state
            if script.remaining:
                return f"{where}: OpenSpiel rolled {faces}, ours did not roll"
            moves += 1
    return None


@pytest.mark.slow
@pytest.mark.parametrize(
    "parameters", PARAMETERS, ids=lambda p: f"p{p.players}-h{p.horizon}-w{p.winscore}-d{p.diceoutcomes}"
)
def test_pig_plays_like_openspiel(parameters: Parameters) -> None:
    assert sum(p.games for p in PARAMETERS) >= 500
    assert cross_check(definition, parameters, seed=parameters.players) is None


class BustOnTwo(HydratedRollDie):
    """A broken rule, in a test copy only: a 2 busts too."""

    def apply(self, ctx: Ctx) -> None:
        super().apply(ctx)
        if self.outcome == 2:
            ctx.state.turn_total = 0


class RollsBustOnTwo(HydratedRoll):
    """The copy's Roll queues the copy's die."""

    def apply(self, ctx: Ctx) -> None:
        ctx.state.moves += 1
        if not ctx.state.over(ctx.config):
            ctx.add_system_action(BustOnTwo, player_id=self.player_id)


def _broken_copy() -> PigDefinition:
    swap = {HydratedRollDie: BustOnTwo, HydratedRoll: RollsBustOnTwo}
    actions = [swap.get(action, action) for action in definition.actions]
    return GameDefinition(
        name=definition.name,
        state_type=definition.state_type,
        config_type=definition.config_type,
        initial_state=definition.initial_state,
        handlers=definition.handlers,
        actions=cast(list[Any], actions),
        setup=definition.setup,
        min_players=definition.min_players,
        max_players=definition.max_players,
        logic_version=definition.logic_version,
        migrations=definition.migrations,
    )


def test_the_cross_check_catches_a_broken_rule() -> None:
    broken = _broken_copy()
    assert definition.action_by_type["RollDie"] is HydratedRollDie  # the shipped game is untouched
    parameters = Parameters(players=2, horizon=1000, winscore=20, diceoutcomes=6, games=20)
    problem = cross_check(broken, parameters, seed=1)
    assert problem is not None and ("legal actions" in problem or "moves player" in problem), problem
    assert cross_check(definition, parameters, seed=1) is None  # and the real one passes the same games
