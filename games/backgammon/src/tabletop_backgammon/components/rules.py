"""Backgammon's move rules as pure functions on one player's view of the board.

The rules work in the mover's own coordinates: ``mine[0..23]`` are the mover's checkers on their
points counted from their home (index 0 is the point next to bearing off, index 23 the farthest),
``mine[24]`` is the mover's bar, and ``theirs[0..23]`` are the opponent's checkers on the same
points. A step is ``(origin, die)``: the checker leaves ``origin`` (24 for the bar) and moves
``die`` points towards home; below index 0 it is borne off.

They follow OpenSpiel's ``backgammon`` (``LegalCheckerMoves``, ``RecLegalMoves``,
``ProcessLegalMoves``): a turn is played in halves of up to two steps; a half must use both dice
if it can, else the larger die if either can be used alone; a double gives a second half only
when the first one used both dice.
"""

from collections.abc import Sequence
from functools import lru_cache

CHECKERS = 15
"""Checkers per player."""
POINTS = 24
"""Points on the board."""
BAR = 24
"""The bar's index in a player's own coordinates (``mine[BAR]``)."""
HOME = 6
"""Points in a home board: the mover's own indexes 0..5."""
START = (0, 11, 16, 18)
"""The first player's starting points (absolute indexes), with ``START_COUNTS`` checkers each."""
START_COUNTS = (2, 5, 3, 5)
"""How many checkers start on each of ``START``."""

Step = tuple[int, int]
"""``(origin, die)`` in the mover's coordinates: origin 0..23, or ``BAR``."""

ORDERED_ROLLS: tuple[tuple[int, int], ...] = (
    *((pair) for low in range(1, 7) for high in range(low + 1, 7) for pair in ((low, high), (high, low))),
    *((face, face) for face in range(1, 7)),
)
"""Every roll of two dice in OpenSpiel's chance-outcome order: 30 non-doubles (each pair as
``(low, high)`` then ``(high, low)``), then the 6 doubles. A roll's outcome is its index here."""
OPENING_OUTCOMES = 30
"""The opening roll's outcomes: the first 30 of ``ORDERED_ROLLS`` (no doubles); an even outcome
gives the first seat the first move, an odd one the second seat."""
ROLL_OUTCOMES = 36
"""A regular roll's outcomes: all of ``ORDERED_ROLLS``, equally likely."""


def checker_steps(mine: Sequence[int], theirs: Sequence[int], dice: Sequence[int]) -> list[Step]:
    """Every single step the mover can make with one of ``dice`` (duplicates removed).

    A checker on the bar must enter first (on point ``24 - die``, unless the opponent holds it
    with two or more). Bearing off needs every checker home: with the exact die, or with a larger
    one from the checker farthest from home.
    """
    faces = (dice[0],) if len(dice) == 1 or dice[0] == dice[1] else tuple(sorted(dice))
    steps: list[Step] = []
    if mine[BAR]:
        for die in faces:
            if theirs[BAR - die] <= 1:
                steps.append((BAR, die))
        return steps
    furthest = -1
    for index in range(POINTS - 1, -1, -1):
        if mine[index]:
            furthest = index
            break
    home = furthest < HOME
    for origin in range(furthest + 1):
        if not mine[origin]:
            continue
        for die in faces:
            target = origin - die
            if target < 0:
                if home and (target == -1 or origin == furthest):
                    steps.append((origin, die))
            elif theirs[target] <= 1:
                steps.append((origin, die))
    return steps


def _can_step(mine: Sequence[int], theirs: Sequence[int], die: int) -> bool:
    """True if some checker can move with ``die`` (``checker_steps`` is not empty), found early."""
    if mine[BAR]:
        return theirs[BAR - die] <= 1
    furthest = -1
    for index in range(POINTS - 1, -1, -1):
        if mine[index]:
            furthest = index
            break
    for origin in range(furthest, -1, -1):
        if not mine[origin]:
            continue
        target = origin - die
        if target < 0:
            if furthest < HOME and (target == -1 or origin == furthest):  # bearing off
                return True
        elif theirs[target] <= 1:
            return True
    return False


def play_step(mine: list[int], theirs: list[int], step: Step) -> bool:
    """Move one checker in place (``theirs[BAR]`` counts the opponent's bar); True if it hit."""
    origin, die = step
    mine[origin] -= 1
    target = origin - die
    if target < 0:
        return False
    mine[target] += 1
    if theirs[target] == 1:
        theirs[target] = 0
        theirs[BAR] += 1
        return True
    return False


def without(dice: Sequence[int], die: int) -> list[int]:
    """``dice`` with one ``die`` used."""
    rest = list(dice)
    rest.remove(die)
    return rest


def first_steps(mine: Sequence[int], theirs: Sequence[int], dice: Sequence[int]) -> list[Step]:
    """The steps that may open a half played with both ``dice``.

    A step is legal if a second step can follow it; if no step can be followed by another, only
    the steps with the largest die that can be used at all. Empty when nothing can move (a pass).
    """
    followed: list[Step] = []
    alone: list[Step] = []
    for step in checker_steps(mine, theirs, dice):
        after_mine, after_theirs = list(mine), list(theirs)
        play_step(after_mine, after_theirs, step)
        other = dice[1] if step[1] == dice[0] else dice[0]
        if _can_step(after_mine, after_theirs, other):
            followed.append(step)
        else:
            alone.append(step)
    if followed:
        return followed
    if not alone:
        return []
    largest = max(die for _, die in alone)
    return [step for step in alone if step[1] == largest]


def pip_count(mine: Sequence[int]) -> int:
    """Pips the mover still has to travel to bear every checker off."""
    return sum((index + 1) * count for index, count in enumerate(mine[:POINTS])) + (BAR + 1) * mine[BAR]


@lru_cache(maxsize=8192)
def legal_steps(mine: tuple[int, ...], theirs: tuple[int, ...], unused: tuple[int, ...]) -> tuple[Step, ...]:
    """The steps the mover may make now with the dice ``unused`` in the current half (memoized:
    the engine asks once to list the moves and once more to check each one).

    Both dice left: :func:`first_steps`; one die left (the second step of a half): every
    :func:`checker_steps` with it.
    """
    if not unused:
        return ()
    if len(unused) == 2:
        return tuple(first_steps(mine, theirs, unused))
    return tuple(checker_steps(mine, theirs, unused))
