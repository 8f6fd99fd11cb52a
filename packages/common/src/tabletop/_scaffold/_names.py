"""The spellings of one name: a game's (kebab, snake, Pascal, title) or a part's (Pascal, enum member)."""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

from tabletop._errors import TabletopError

__all__ = ["GameNames", "PartNames", "ScaffoldError", "words_of"]

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


class ScaffoldError(TabletopError, ValueError):
    """A generator cannot do what was asked (bad name, missing game, existing file or member)."""


def words_of(name: str) -> list[str]:
    """Split ``name`` into lowercase words: ``"PlaceMark"``, ``"place-mark"``, ``"Place mark"``.

    Raises:
        ScaffoldError: ``name`` has no letters, starts with a digit, or holds other characters.
    """
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", name.strip()):
        msg = (
            f"{name!r} is not a usable name: use letters, digits, spaces, '-' or '_', starting with a letter"
        )
        raise ScaffoldError(msg)
    return [word.lower() for word in _WORD.findall(name)]


@dataclass(frozen=True, slots=True)
class GameNames:
    """How one game is spelled in each place.

    Attributes:
        kebab: Entry-point name and folder, ``tic-tac-toe``.
        snake: Import-name suffix, ``tic_tac_toe`` (the package is ``tabletop_tic_tac_toe``).
        pascal: Class-name prefix, ``TicTacToe``.
        title: Human title, ``Tic Tac Toe``.
    """

    kebab: str
    snake: str
    pascal: str
    title: str

    @classmethod
    def parse(cls, name: str) -> GameNames:
        """Spell a game name given in any style (``tic-tac-toe``, ``TicTacToe``, ``Tic tac toe``)."""
        words = words_of(name)
        return cls(
            kebab="-".join(words),
            snake="_".join(words),
            pascal="".join(word.capitalize() for word in words),
            title=" ".join(word.capitalize() for word in words),
        )

    @property
    def package(self) -> str:
        """The import package, ``tabletop_<snake>``."""
        return f"tabletop_{self.snake}"


@dataclass(frozen=True, slots=True)
class PartNames:
    """How one action or machine state is spelled in each place.

    Attributes:
        pascal: Class name and enum value, ``PlaceMark``.
        member: Enum member, ``PLACE_MARK``.
        snake: Function suffix (``can_place_mark``), ``place_mark``.
        module: Module and test-file stem, the snake name (suffixed with the kind if it is a
            Python keyword: ``pass_action``).
    """

    pascal: str
    member: str
    snake: str
    module: str

    @classmethod
    def parse(cls, name: str, kind: str) -> PartNames:
        """Spell the name of an action or state (``kind`` is ``"action"`` or ``"state"``)."""
        words = words_of(name)
        snake = "_".join(words)
        return cls(
            pascal="".join(word.capitalize() for word in words),
            member=snake.upper(),
            snake=snake,
            module=f"{snake}_{kind}" if keyword.iskeyword(snake) else snake,
        )
