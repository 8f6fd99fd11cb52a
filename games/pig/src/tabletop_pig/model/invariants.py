"""Pig's invariants: a six-sided die, and no game in play that someone has already won."""

from collections.abc import Iterator

from tabletop_pig.model.config import MAX_TARGET, PigConfig
from tabletop_pig.model.game_state import PigGameState

SIDES = 6
"""Pig's die has six faces."""


def invariants(state: PigGameState) -> Iterator[str]:
    """One line per broken rule: a die that is not Pig's six-sided one, a game won but in play."""
    if state.die.sides != SIDES:
        yield f"the die has {state.die.sides} sides, not {SIDES}"
    if state.result is None:
        for player in state.players:
            if player.score >= MAX_TARGET:  # a game in play has no score that high, whatever its config
                yield f"{player.player_id} has banked {player.score}, above any target, yet plays on"


def config_invariants(state: PigGameState, config: PigConfig) -> Iterator[str]:
    """While the game is in play, nobody has banked the config's target yet."""
    if state.result is not None:
        return
    for player in state.players:
        if player.score >= config.target:
            yield f"{player.player_id} has banked {player.score} of a target of {config.target}, yet plays on"
