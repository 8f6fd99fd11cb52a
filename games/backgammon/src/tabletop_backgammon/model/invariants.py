"""Backgammon's invariants: 15 checkers a side, no shared point, dice that fit the turn."""

from collections.abc import Iterator

from tabletop_backgammon.components.rules import CHECKERS
from tabletop_backgammon.model.game_state import BackgammonGameState


def invariants(state: BackgammonGameState) -> Iterator[str]:
    """One line per broken rule."""
    if len(state.players) != 2:
        yield f"backgammon has 2 players, not {len(state.players)}"
        return
    for player in state.players:
        total = sum(player.points) + player.bar + player.off
        if total != CHECKERS:
            yield f"{player.player_id} has {total} checkers, not {CHECKERS}"
    white, black = state.players
    for index, (mine, theirs) in enumerate(zip(white.points, black.points, strict=True)):
        if mine and theirs:
            yield f"point {index + 1} holds checkers of both players"
    if state.dice and len(state.dice) != 2:
        yield f"a roll is two dice, not {len(state.dice)}"
    remaining = list(state.dice)
    for die in state.unused:
        if die not in remaining:
            yield f"unused die {die} is not one of the dice {state.dice}"
            break
        remaining.remove(die)
    if state.double_half and (len(state.dice) != 2 or state.dice[0] != state.dice[1]):
        yield "a second half without a double"
    if state.mover is not None and state.mover not in {white.player_id, black.player_id}:
        yield f"the mover {state.mover} is not a player"
    if state.result is None and any(player.off == CHECKERS for player in state.players):
        yield "a player bore off every checker, yet the game goes on"
