"""Backgammon's state, its behaviour, and its initializer."""

from functools import lru_cache
from typing import Annotated, Literal

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, StateHandler

from tabletop_backgammon.components.rules import (
    BAR,
    CHECKERS,
    HOME,
    POINTS,
    START,
    START_COUNTS,
    Step,
    legal_steps,
)
from tabletop_backgammon.definition.states import MachineState
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.player_state import BackgammonPlayerState

Face = Annotated[int, Field(ge=1, le=6)]
"""A die's face."""
WinKind = Literal["single", "gammon", "backgammon"]
"""How a game was won: the loser bore off some checker (single), none (gammon), or none and still
has one on the bar or in the winner's home board (backgammon)."""


class BackgammonGameState(GameState[BackgammonPlayerState, MachineState]):
    """Backgammon's state: the board is in the players' states, the dice and the turn here."""

    mover: str | None = None
    """The player moving with the dice; null before the opening roll."""
    dice: Annotated[list[Face], Field(max_length=2)] = Field(default_factory=list)
    """The two dice of the last roll, as rolled; empty before the opening roll."""
    unused: Annotated[list[Face], Field(max_length=2)] = Field(default_factory=list)
    """The dice still to play in the current half of the turn (a double is played as two halves
    of two); empty once the turn is over."""
    double_half: bool = False
    """True while the second half of a double is played."""
    turns: int = Field(default=0, ge=0)
    """Turns played so far (a pass is a turn; a double's second half is not a new one)."""
    win_kind: WinKind | None = None
    """How the game was won, once it is: single, gammon or backgammon."""
    win_points: int = Field(default=0, ge=0, le=3)
    """What the win is worth under the config's ``scoring_type``: 1, 2 or 3; 0 until a win (and in
    a draw at the turn limit)."""


def _absolute(seat: int, index: int) -> int:
    """The absolute point index (0..23) of a seat's own index (its mover coordinates)."""
    return POINTS - 1 - index if seat == 0 else index


Board = tuple[int, ...]
"""One player's checkers on the 24 points, as the state holds them."""


@lru_cache(maxsize=8192)
def _legal(
    seat: int,
    own: tuple[int, ...],
    own_bar: int,
    other: tuple[int, ...],
    other_bar: int,
    unused: tuple[int, ...],
) -> tuple[Step, ...]:
    """``rules.legal_steps`` keyed by the board as the state holds it (no view is built on a hit)."""
    if seat == 0:
        return legal_steps((*own[::-1], own_bar), (*other[::-1], other_bar), unused)
    return legal_steps((*own, own_bar), (*other, other_bar), unused)


class HydratedBackgammonGameState(BackgammonGameState, Hydrated[BackgammonGameState]):
    """Backgammon's state with its rules: coordinates, legal steps, playing a step, the outcome."""

    def seat(self, player_id: str) -> int:
        """0 for White (the first seat), 1 for Black."""
        return 0 if self.players[0].player_id == player_id else 1

    def opponent(self, player_id: str) -> str:
        """The other player."""
        return self.players[1 - self.seat(player_id)].player_id

    def view(self, player_id: str) -> tuple[list[int], list[int]]:
        """``(mine, theirs)``: the board in ``player_id``'s own coordinates (see ``rules``)."""
        seat = self.seat(player_id)
        own, other = self.players[seat], self.players[1 - seat]
        if seat == 0:
            mine, theirs = own.points[::-1], other.points[::-1]
        else:
            mine, theirs = list(own.points), list(other.points)
        mine.append(own.bar)
        theirs.append(other.bar)
        return mine, theirs

    def point_of(self, player_id: str, index: int) -> int | None:
        """The point number (1..24) of ``player_id``'s own index, or None for the bar."""
        return None if index == BAR else _absolute(self.seat(player_id), index) + 1

    def index_of(self, player_id: str, point: int | None) -> int:
        """``player_id``'s own index of a point number (1..24), or ``BAR`` for None."""
        return BAR if point is None else _absolute(self.seat(player_id), point - 1)

    def legal_steps(self, player_id: str) -> list[Step]:
        """The steps ``player_id`` may make now, in their own coordinates; empty to pass."""
        if player_id != self.mover or not self.unused:
            return []
        seat = self.seat(player_id)
        own, other = self.players[seat], self.players[1 - seat]
        return list(
            _legal(seat, tuple(own.points), own.bar, tuple(other.points), other.bar, tuple(self.unused))
        )

    def play(self, player_id: str, step: Step) -> tuple[int | None, bool]:
        """Make a step on the board and use its die: ``(target point or None if borne off, hit)``."""
        seat = self.seat(player_id)
        own, other = self.players[seat], self.players[1 - seat]
        origin, die = step
        if origin == BAR:
            own.bar -= 1
        else:
            own.points[_absolute(seat, origin)] -= 1
        self.unused.remove(die)
        target = origin - die
        if target < 0:
            own.off += 1
            return None, False
        at = _absolute(seat, target)
        own.points[at] += 1
        if other.points[at] == 1:
            other.points[at] = 0
            other.bar += 1
            return at + 1, True
        return at + 1, False

    def end_half_if_done(self, player_id: str) -> None:
        """After a step or a pass: end the half if nothing more can be played in it.

        Ending a half ends the turn (counted in ``turns``), except after a double's first half
        that used both dice: the same dice are played once more.
        """
        if self.unused:
            mine, theirs = self.view(player_id)
            if legal_steps(tuple(mine), tuple(theirs), tuple(self.unused)):  # memoized: asked next
                return
        used = 2 - len(self.unused)
        if not self.double_half:
            self.turns += 1
        if not self.double_half and self.dice[0] == self.dice[1] and used == 2:
            self.double_half = True
            self.unused = list(self.dice)
        else:
            self.double_half = False
            self.unused = []

    def winner(self) -> str | None:
        """The player who has borne off all 15 checkers, if any."""
        for player in self.players:
            if player.off == CHECKERS:
                return player.player_id
        return None

    def loss_kind(self, loser: str) -> WinKind:
        """How badly ``loser`` lost (see ``WinKind``), as OpenSpiel's ``IsGammoned``/``IsBackgammoned``."""
        player = self.player(loser)
        if player.off:
            return "single"
        mine, _ = self.view(loser)
        if player.bar or any(mine[POINTS - HOME : POINTS]):
            return "backgammon"
        return "gammon"

    def returns(self) -> list[float]:
        """Each seat's return in seating order: +points to the winner, -points to the loser, 0 each
        in a draw or while the game is in play (OpenSpiel's ``Returns``)."""
        winner = self.winner()
        if winner is None:
            return [0.0, 0.0]
        sign = [1.0 if player.player_id == winner else -1.0 for player in self.players]
        return [value * self.win_points for value in sign]


Ctx = MachineContext[HydratedBackgammonGameState, BackgammonConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedBackgammonGameState, BackgammonConfig]
"""The base class of every state handler of Backgammon."""


def setup(ctx: Ctx) -> None:
    """Set up the board: each side has 2, 5, 3 and 5 checkers on its 24, 13, 8 and 6 points."""
    for seat, player in enumerate(ctx.state.players):
        player.points = [0] * POINTS
        for index, count in zip(START, START_COUNTS, strict=True):
            player.points[index if seat == 0 else POINTS - 1 - index] = count
