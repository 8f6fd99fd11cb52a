"""Goofspiel against OpenSpiel's ``goofspiel``, move for move, driven with the same chance outcomes.

OpenSpiel's bids are simultaneous (a joint action); ours are two ``Bid`` actions, either order.
At every round the prize up, each player's legal bids (OpenSpiel's action ``c`` is our card
``c + 1``) and, with ``points_order`` random, the chance outcomes of the next prize (our
``RevealPrize`` outcome ``p + 1``, equally likely) are compared. OpenSpiel plays the last round
itself (one card and one prize left: no choice); we play it with the only legal bids. At the end
the prize sequence, the points and the returns (``win_loss``: 1, -1, or 0 for a draw) are compared.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

import pyspiel
import pytest
from tabletop import GameDefinition, GameEngine
from tabletop.testing import TEST_PRNG_KEY, ForcedChance, make_game
from tabletop_goofspiel import definition
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig, PointsOrder
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.bidding import Bidding

GoofspielDefinition = GameDefinition[HydratedGoofspielGameState, GoofspielConfig]
SEATS = ("p1", "p2")


@dataclass(frozen=True)
class Parameters:
    """OpenSpiel's ``goofspiel`` parameters, and how many random games to cross-check with them."""

    num_cards: int
    points_order: PointsOrder
    games: int

    def config(self) -> GoofspielConfig:
        return GoofspielConfig(cards=self.num_cards, points_order=self.points_order)


PARAMETERS = [
    Parameters(num_cards=13, points_order="random", games=150),  # OpenSpiel's defaults
    Parameters(num_cards=5, points_order="random", games=150),
    Parameters(num_cards=4, points_order="descending", games=50),
    Parameters(num_cards=6, points_order="ascending", games=50),
]


def _openspiel_table(state: pyspiel.State) -> tuple[list[int], list[int]]:
    """OpenSpiel's prize sequence so far and the points, read from the state's string."""
    lines = {
        line.split(":")[0]: line.split(":")[1].split() for line in str(state).splitlines() if ":" in line
    }
    return [int(card) for card in lines["Point card sequence"]], [int(p) for p in lines["Points"]]


def _returns(state: HydratedGoofspielGameState) -> list[float]:
    if not state.winning_player_ids:
        return [0.0, 0.0]
    return [1.0 if seat in state.winning_player_ids else -1.0 for seat in SEATS]


def cross_check(goofspiel: GoofspielDefinition, parameters: Parameters, seed: int) -> str | None:
    """Play ``parameters.games`` random games on both sides; the first divergence, or None."""
    rng = random.Random(seed)
    spiel = pyspiel.load_game(
        "goofspiel", {"num_cards": parameters.num_cards, "points_order": parameters.points_order}
    )
    engine = GameEngine(goofspiel)
    for number in range(parameters.games):
        game = make_game(goofspiel, players=2, seed=number, config=parameters.config())
        theirs = spiel.new_initial_state()
        first: list[int] = []
        if theirs.is_chance_node():
            first.append(rng.choice([o for o, _ in theirs.chance_outcomes()]))
            theirs.apply_action(first[0])
        script = ForcedChance([o + 1 for o in first])
        ours = engine.start(game, prng_key=TEST_PRNG_KEY, chance=script).state
        if script.remaining:
            return f"{parameters} game {number}: OpenSpiel turned up a prize by chance, ours did not"
        rounds = 0
        while not theirs.is_terminal():
            where = f"{parameters} game {number} round {rounds + 1}"
            sequence, _ = _openspiel_table(theirs)
            if ours.prize != sequence[-1]:
                return f"{where}: OpenSpiel's prize is {sequence[-1]}, ours {ours.prize}"
            joint = []
            for player, seat in enumerate(SEATS):
                legal = sorted(a.card for a in engine.legal_actions(ours, seat, game))  # type: ignore[attr-defined]
                expected = [action + 1 for action in theirs.legal_actions(player)]
                if legal != expected:
                    return f"{where}: OpenSpiel's legal bids for {seat} are {expected}, ours {legal}"
                joint.append(rng.choice(theirs.legal_actions(player)))
            theirs.apply_actions(joint)
            prizes: list[int] = []
            if theirs.is_chance_node():
                outcomes = theirs.chance_outcomes()
                if (
                    sorted(o + 1 for o, _ in outcomes) != ours.prizes_left
                    or len({p for _, p in outcomes}) != 1
                ):
                    return f"{where}: OpenSpiel's next prizes {outcomes}, ours {ours.prizes_left}, even"
                outcome = rng.choice([o for o, _ in outcomes])
                theirs.apply_action(outcome)
                prizes.append(outcome + 1)
            elif theirs.is_terminal() and parameters.points_order == "random":
                prizes = list(ours.prizes_left)  # OpenSpiel played the last round itself: one prize left
            script = ForcedChance(prizes)
            for seat, action in zip(SEATS, joint, strict=True):
                body = {"id": f"b{rounds}{seat}", "game_id": game.id, "type": "Bid", "player_id": seat}
                ours = engine.run(
                    {**body, "card": action + 1}, ours, game, in_place=True, chance=script
                ).state
            if script.remaining:
                return f"{where}: OpenSpiel turned up {prizes} by chance, ours {script.remaining} were left"
            rounds += 1
        if ours.result is None:  # the last round: one card each, which OpenSpiel plays itself
            for seat in SEATS:
                (bid,) = engine.legal_actions(ours, seat, game)
                ours = engine.run(
                    bid.model_copy(update={"id": f"last-{seat}"}), ours, game, in_place=True
                ).state
        sequence, points = _openspiel_table(theirs)
        mine = ([record.prize for record in ours.rounds], [ours.player(seat).score for seat in SEATS])
        if (ours.result is None, mine) != (False, (sequence, points)):
            ending = f"OpenSpiel ends with {sequence} {points}, ours {mine} {ours.result}"
            return f"{parameters} game {number}: {ending}"
        if _returns(ours) != pytest.approx(theirs.returns()):
            return f"{parameters} game {number}: returns {theirs.returns()} vs ours {_returns(ours)}"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("parameters", PARAMETERS, ids=lambda p: f"n{p.num_cards}-{p.points_order}")
def test_goofspiel_plays_like_openspiel(parameters: Parameters) -> None:
    assert sum(p.games for p in PARAMETERS) >= 300
    assert cross_check(definition, parameters, seed=parameters.num_cards) is None


class TieToFirstSeat(HydratedReveal):
    """A broken rule, in a test copy only: a tie gives the prize to the first seat."""

    def apply(self, ctx: Ctx) -> None:
        prize = ctx.state.prize
        auction = ctx.state.current_auction()
        tie = auction.result is not None and auction.result.tie
        super().apply(ctx)
        if tie and prize is not None:
            ctx.state.players[0].score += prize
            ctx.state.rounds[-1].winner_id = ctx.state.players[0].player_id


class BrokenBidding(Bidding):
    """The copy's Bidding queues the copy's Reveal."""

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        following = super().on_action(action, ctx)
        if following is MachineState.REVEALING:
            (queued,) = ctx.queue
            ctx.queue[0] = TieToFirstSeat.model_validate(queued.model_dump())
        return following


def _broken_copy() -> GoofspielDefinition:
    actions = [TieToFirstSeat if action is HydratedReveal else action for action in definition.actions]
    return GameDefinition(
        name=definition.name,
        state_type=definition.state_type,
        config_type=definition.config_type,
        initial_state=definition.initial_state,
        handlers={**definition.handlers, MachineState.BIDDING: BrokenBidding()},
        actions=cast(list[Any], actions),
        setup=definition.setup,
        min_players=definition.min_players,
        max_players=definition.max_players,
        logic_version=definition.logic_version,
        migrations=definition.migrations,
    )


def test_the_cross_check_catches_a_broken_rule() -> None:
    broken = _broken_copy()
    assert definition.action_by_type["Reveal"] is HydratedReveal  # the shipped game is untouched
    parameters = Parameters(num_cards=5, points_order="random", games=40)
    problem = cross_check(broken, parameters, seed=1)
    assert problem is not None and "OpenSpiel ends with" in problem, problem
    assert cross_check(definition, parameters, seed=1) is None  # and the real one passes the same games
