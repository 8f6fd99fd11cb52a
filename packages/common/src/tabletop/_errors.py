"""The framework's exceptions: author mistakes and illegal play."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["GameDefinitionError", "IllegalActionError", "InvalidStateError", "PrngKeyError", "TabletopError"]


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


class InvalidStateError(TabletopError):
    """A state a host loaded (or handed to the engine) that is not a valid state of the game.

    Raised by :meth:`tabletop.GameEngine.load_state` when the stored state fails its schema or
    the game's invariants (``GameDefinition(invariants=...)``), and by
    :meth:`tabletop.GameEngine.run` when the ``Game`` passed does not belong to the state. It is
    the host's problem (corrupt storage, a mix-up of matches), never a client's: nothing was
    changed, and the message may quote the state, so do not send it to players.

    Attributes:
        code: A stable, kebab-case identifier: ``"invalid-state"`` (schema or invariants) or
            ``"game-mismatch"`` (the game's id or seats are not the state's).
        problems: One human-readable line per problem found.
    """

    def __init__(self, problems: Sequence[str], *, code: str = "invalid-state") -> None:
        self.code = code
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"[{code}] the state is not valid ({len(self.problems)} problem(s)):\n{lines}")


class PrngKeyError(TabletopError):
    """A game started without the PRNG key it needs, or with a malformed one.

    Attributes:
        code: ``"prng-key-required"`` (the game has hidden information or chance, and neither a
            key nor :data:`tabletop.UNKEYED` was given) or ``"invalid-prng-key"``.
        message: A human-readable explanation (it never quotes the key).
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"[{code}] {message}")
