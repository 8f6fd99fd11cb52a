"""The framework's exceptions: author mistakes and illegal play."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["GameDefinitionError", "IllegalActionError", "TabletopError"]


class TabletopError(Exception):
    """Base class of every error the framework raises on purpose."""


class GameDefinitionError(TabletopError):
    """A game author's mistake, naming every culprit at once.

    Raised when a game definition is assembled (missing handlers, unknown states, unreachable
    states, ...) and at play time when a handler breaks its own declaration (an undeclared
    transition, a runaway cascade of system actions).

    Attributes:
        game: The name of the game whose definition is wrong.
        problems: One human-readable line per culprit.
    """

    def __init__(self, game: str, problems: Sequence[str]) -> None:
        self.game = game
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"game {game!r} is not well defined ({len(self.problems)} problem(s)):\n{lines}")


class IllegalActionError(TabletopError):
    """An action that may not be played, or could not even be read.

    Attributes:
        code: A stable, kebab-case identifier a client can switch on (e.g. ``"player-not-active"``).
        message: A human-readable explanation.
        path: The dotted path of the offending field, where there is one (e.g. ``"amount"``).
    """

    def __init__(self, code: str, message: str, *, path: str | None = None) -> None:
        self.code = code
        self.message = message
        self.path = path
        where = f" at {path!r}" if path else ""
        super().__init__(f"[{code}]{where} {message}")
