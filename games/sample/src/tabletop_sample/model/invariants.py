"""The sample game's invariants: amounts within a turn's allowance, and the stop the config sets."""

from collections.abc import Iterator

from tabletop_sample.components.colors import AMOUNT_PER_TURN, BIG_MAX_TOTAL, DEFAULT_MAX_TOTAL
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import SampleGameState


def invariants(state: SampleGameState) -> Iterator[str]:
    """One line per broken rule: an amount left over a turn's allowance, a total that is not the scores'."""
    for player in state.players:
        if player.amount > AMOUNT_PER_TURN:
            yield f"{player.player_id} has {player.amount} left to add, more than a turn's {AMOUNT_PER_TURN}"
    scores = sum(player.score for player in state.players)
    if state.total != scores:
        yield f"the total is {state.total} but the scores add up to {scores}"
    if state.max_total not in (DEFAULT_MAX_TOTAL, BIG_MAX_TOTAL):
        yield f"the game stops at {state.max_total}, neither {DEFAULT_MAX_TOTAL} nor {BIG_MAX_TOTAL}"


def config_invariants(state: SampleGameState, config: SampleConfig) -> Iterator[str]:
    """The state stops where its config says (``big_totals_allowed``)."""
    expected = BIG_MAX_TOTAL if config.big_totals_allowed else DEFAULT_MAX_TOTAL
    if state.max_total != expected:
        yield f"the state stops at {state.max_total}, its config at {expected}"
