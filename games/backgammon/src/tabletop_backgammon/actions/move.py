"""Move: the player on turn moves one checker by one die."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model

from tabletop_backgammon.definition.actions import ActionType
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import Ctx, HydratedBackgammonGameState


class MoveMetadata(Model):
    """What a Move did, filled in by the game."""

    to: int | None = Field(ge=1, le=24)
    """The point the checker landed on (1..24); null if it was borne off."""
    hit: bool
    """True if it hit an opposing blot, which went to the bar."""
    turn_over: bool
    """True if this step ended the turn (the dice pass to the opponent or the game ends)."""


class Move(GameAction):
    """Move one checker by one die: from a point, or in from the bar, towards home (or off)."""

    type: Literal[ActionType.MOVE] = ActionType.MOVE
    """The action tag."""
    player_id: str
    """The acting player."""
    point: int | None = Field(default=None, ge=1, le=24)
    """The point (1..24) the checker leaves; null to enter a checker from the bar."""
    die: int = Field(ge=1, le=6)
    """The die played: the checker moves this many points."""
    metadata: MoveMetadata | None = None
    """Where it landed; set by the game when the action is applied."""


class HydratedMove(Move, HydratedAction[Move, HydratedBackgammonGameState, BackgammonConfig]):
    """Move's rules: the step must be one of the legal steps (bar first, both dice if possible,
    else the larger, bearing off only with every checker home)."""

    def check(self, ctx: Ctx) -> None:
        state = ctx.state
        if self.die not in state.unused:
            raise IllegalActionError("die-not-available", f"no unused {self.die} to play", path="die")
        step = (state.index_of(self.player_id, self.point), self.die)
        if step not in state.legal_steps(self.player_id):
            where = "the bar" if self.point is None else f"point {self.point}"
            message = f"no legal move from {where} with a {self.die}"
            raise IllegalActionError("illegal-move", message, path="point")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        to, hit = state.play(self.player_id, (state.index_of(self.player_id, self.point), self.die))
        state.end_half_if_done(self.player_id)
        over = not state.unused or state.winner() is not None or state.turns > ctx.config.max_player_turns
        self.metadata = MoveMetadata(to=to, hit=hit, turn_over=over)

    @classmethod
    def enumerate(cls, state: HydratedBackgammonGameState, player_id: str) -> list[Self]:
        return [
            cls.candidate(state, player_id, point=state.point_of(player_id, origin), die=die)
            for origin, die in state.legal_steps(player_id)
        ]

    @classmethod
    def action_space(cls, game: Game[BackgammonConfig]) -> list[dict[str, JsonValue]]:
        points: list[int | None] = [None, *range(1, 25)]
        return [{"point": point, "die": die} for point in points for die in range(1, 7)]
