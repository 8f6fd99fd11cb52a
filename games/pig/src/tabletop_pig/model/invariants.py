"""Pig's invariants: the config's die, and no game in play that someone has already won."""

from collections.abc import Iterator

from tabletop_pig.model.config import MAX_DICE_OUTCOMES, MAX_TARGET, PigConfig
from tabletop_pig.model.game_state import PigGameState


def invariants(state: PigGameState) -> Iterator[str]:
    """One line per broken rule: a die no config has, a game won but in play."""
    if state.die.sides > MAX_DICE_OUTCOMES:
        yield f"the die has {state.die.sides} sides, more than any config's {MAX_DICE_OUTCOMES}"
    if state.result is None:
        for player in state.players:
            if player.score >= MAX_TARGET:  # a game in play has no score that high, whatever its config
                yield f"{player.player_id} has banked {player.score}, above any target, yet plays on"


def config_invariants(state: PigGameState, config: PigConfig) -> Iterator[str]:
    """The die has the config's faces; while the game is in play, nobody has banked the target
    and the moves are within the horizon."""
    if state.die.sides != config.dice_outcomes:
        yield f"the die has {state.die.sides} sides, the config {config.dice_outcomes}"
    if state.result is not None:
        return
    for player in state.players:
        if player.score >= config.target:
            yield f"{player.player_id} has banked {player.score} of a target of {config.target}, yet plays on"
    if 0 < config.horizon <= state.moves:
        yield f"{state.moves} moves were played, the horizon is {config.horizon}, yet the game plays on"
