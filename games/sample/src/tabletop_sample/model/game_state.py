"""The sample game's state, its behaviour, and its initializer."""

from tabletop import GameState, Hydrated, MachineContext

from tabletop_sample.components.colors import BIG_MAX_TOTAL, COLORS, DEFAULT_MAX_TOTAL
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.player_state import SamplePlayerState


class SampleGameState(GameState[SamplePlayerState, MachineState]):
    """The sample game's state: a shared running total and where it stops."""

    total: int = 0
    """Sum of every amount added so far."""
    max_total: int = DEFAULT_MAX_TOTAL
    """The game ends once the total reaches this."""


class HydratedSampleGameState(SampleGameState, Hydrated[SampleGameState]):
    """Sample-game state with its queries."""

    def leaders(self) -> list[str]:
        """Ids of the players with the highest score, in seating order."""
        best = max(player.score for player in self.players)
        return [player.player_id for player in self.players if player.score == best]


Ctx = MachineContext[HydratedSampleGameState, SampleConfig]


def setup(ctx: Ctx) -> None:
    """Shuffle the colours and deal one per seat, then shuffle the turn order (in that order)."""
    state = ctx.state
    state.max_total = BIG_MAX_TOTAL if ctx.config.big_totals_allowed else DEFAULT_MAX_TOTAL
    colors = ctx.prng.shuffled(COLORS)
    for player, color in zip(state.players, colors, strict=False):
        player.color = color
    ctx.turns = ctx.turns.with_order(ctx.prng.shuffled(ctx.turns.turn_order))
