"""Dice and dice pools whose faces live in the state, rolled with the state's PRNG."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Self

from pydantic import Field, model_validator

from tabletop._copier import only_checks
from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop._prng import Prng

__all__ = ["DicePool", "Die", "HydratedDicePool", "HydratedDie"]


class Die(Model):
    """One die: how many faces it has and the face it shows."""

    sides: int = Field(default=6, ge=2)
    """How many faces the die has, numbered from 1."""
    face: int | None = Field(default=None, ge=1)
    """The face showing (from 1 to ``sides``); None before the first roll."""

    @model_validator(mode="after")
    def _check_face(self) -> Self:
        if self.face is not None and self.face > self.sides:
            msg = f"face {self.face} is not on a {self.sides}-sided die"
            raise ValueError(msg)
        return self


only_checks(Die, "_check_face")


def _roll(die: Die, prng: Prng) -> int:
    """Roll ``die`` with one draw from ``prng`` and record the face on it."""
    die.face = prng.die_roll(die.sides)
    return die.face


def _set_face(die: Die, face: int) -> None:
    if not 1 <= face <= die.sides:
        msg = f"face {face} is not on a {die.sides}-sided die"
        raise ValueError(msg)
    die.face = face


class HydratedDie(Die, Hydrated[Die]):
    """Die behaviour: roll it with the state's PRNG, or turn it to a face.

    Example:
        >>> from tabletop import Prng, PrngState
        >>> die = HydratedDie(sides=20)
        >>> die.roll(Prng(PrngState(seed=42))), die.face
        (3, 3)
    """

    @property
    def is_rolled(self) -> bool:
        """True once the die shows a face."""
        return self.face is not None

    def roll(self, prng: Prng) -> int:
        """Roll the die (exactly one PRNG draw) and return the face it now shows."""
        return _roll(self, prng)

    def set_face(self, face: int) -> None:
        """Turn the die to ``face`` (for effects that change a die without rolling it).

        Raises:
            ValueError: ``face`` is not between 1 and :attr:`sides`.
        """
        _set_face(self, face)


class DicePool(Model):
    """Dice rolled together, in a fixed order; each die keeps its own sides and face."""

    dice: list[Die] = Field(default_factory=list)
    """The dice, in order; indexes into this list name a die."""


class HydratedDicePool(DicePool, Hydrated[DicePool]):
    """Dice pool behaviour: roll all, reroll some, totals, face counts, keep highest/lowest.

    Every roll draws exactly one number from the PRNG per die rolled, in index order (or the
    order the indexes are given to :meth:`reroll`). Reading results (``faces``, ``total`` and
    the rest) before every die was rolled raises ``ValueError``, as do bad indexes and counts.

    Example:
        >>> from tabletop import Prng, PrngState
        >>> prng = Prng(PrngState(seed=7))
        >>> pool = HydratedDicePool.of(4, sides=6)
        >>> pool.roll(prng)
        [6, 6, 2, 3]
        >>> pool.total, pool.counts(), pool.keep_highest(3), pool.lowest_indexes(1)
        (17, {2: 1, 3: 1, 6: 2}, 15, [2])
        >>> pool.reroll(prng, [2, 3]), pool.faces, prng.state.invocations
        ([3, 6], [6, 6, 3, 6], 6)
    """

    @classmethod
    def of(cls, count: int, sides: int = 6) -> Self:
        """A pool of ``count`` unrolled dice with ``sides`` faces each.

        Raises:
            ValueError: ``count`` is negative or ``sides`` is below 2.
        """
        if count < 0:
            msg = f"a pool needs a count >= 0, got {count}"
            raise ValueError(msg)
        return cls(dice=[Die(sides=sides) for _ in range(count)])

    def __len__(self) -> int:
        return len(self.dice)

    @property
    def is_rolled(self) -> bool:
        """True if every die shows a face."""
        return all(die.face is not None for die in self.dice)

    @property
    def faces(self) -> list[int]:
        """The face each die shows, in order.

        Raises:
            ValueError: Some die has not been rolled yet.
        """
        faces = [die.face for die in self.dice]
        unrolled = [index for index, face in enumerate(faces) if face is None]
        if unrolled:
            msg = f"dice {unrolled} have not been rolled"
            raise ValueError(msg)
        return [face for face in faces if face is not None]

    @property
    def total(self) -> int:
        """The sum of the faces (0 for an empty pool).

        Raises:
            ValueError: Some die has not been rolled yet.
        """
        return sum(self.faces)

    def roll(self, prng: Prng) -> list[int]:
        """Roll every die, in order, and return the faces."""
        return [_roll(die, prng) for die in self.dice]

    def reroll(self, prng: Prng, indexes: Sequence[int]) -> list[int]:
        """Roll the dice at ``indexes``, in the order given, and return their new faces.

        Raises:
            ValueError: An index is out of range (negative indexes are not allowed) or repeated.
        """
        self._check_indexes(indexes)
        return [_roll(self.dice[index], prng) for index in indexes]

    def set_face(self, index: int, face: int) -> None:
        """Turn die ``index`` to ``face`` without rolling.

        Raises:
            ValueError: ``index`` is out of range or ``face`` is not on that die.
        """
        self._check_indexes([index])
        _set_face(self.dice[index], face)

    def add_die(self, sides: int = 6) -> None:
        """Add an unrolled die with ``sides`` faces at the end of the pool."""
        self.dice.append(Die(sides=sides))

    def remove_die(self, index: int) -> Die:
        """Remove die ``index`` from the pool and return it (later dice move down one index).

        Raises:
            ValueError: ``index`` is out of range.
        """
        self._check_indexes([index])
        return self.dice.pop(index)

    def count(self, face: int) -> int:
        """How many dice show ``face``.

        Raises:
            ValueError: Some die has not been rolled yet.
        """
        return self.faces.count(face)

    def counts(self) -> dict[int, int]:
        """How many dice show each face, for the faces showing, by face ascending.

        Raises:
            ValueError: Some die has not been rolled yet.
        """
        return dict(sorted(Counter(self.faces).items()))

    def highest_indexes(self, n: int) -> list[int]:
        """Indexes of the ``n`` dice with the highest faces, ascending (ties: lower index first).

        Raises:
            ValueError: ``n`` is negative or larger than the pool, or a die is unrolled.
        """
        return self._ranked_indexes(n, highest=True)

    def lowest_indexes(self, n: int) -> list[int]:
        """Indexes of the ``n`` dice with the lowest faces, ascending (ties: lower index first).

        Raises:
            ValueError: ``n`` is negative or larger than the pool, or a die is unrolled.
        """
        return self._ranked_indexes(n, highest=False)

    def keep_highest(self, n: int) -> int:
        """The total of the ``n`` highest faces (dice notation ``kh``, e.g. 4d6kh3).

        Raises:
            ValueError: ``n`` is negative or larger than the pool, or a die is unrolled.
        """
        faces = self.faces
        return sum(faces[index] for index in self.highest_indexes(n))

    def keep_lowest(self, n: int) -> int:
        """The total of the ``n`` lowest faces (dice notation ``kl``).

        Raises:
            ValueError: ``n`` is negative or larger than the pool, or a die is unrolled.
        """
        faces = self.faces
        return sum(faces[index] for index in self.lowest_indexes(n))

    def _ranked_indexes(self, n: int, *, highest: bool) -> list[int]:
        if not 0 <= n <= len(self.dice):
            msg = f"cannot keep {n} of {len(self.dice)} dice"
            raise ValueError(msg)
        faces = self.faces
        sign = -1 if highest else 1
        ranked = sorted(range(len(faces)), key=lambda index: (sign * faces[index], index))
        return sorted(ranked[:n])

    def _check_indexes(self, indexes: Sequence[int]) -> None:
        bad = [index for index in indexes if not 0 <= index < len(self.dice)]
        if bad:
            msg = f"dice indexes {bad} are out of range for a pool of {len(self.dice)}"
            raise ValueError(msg)
        if len(set(indexes)) != len(indexes):
            msg = f"dice indexes {list(indexes)} repeat a die"
            raise ValueError(msg)
