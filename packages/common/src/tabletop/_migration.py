"""A game's declared migrations: typed steps from one logic version to the next."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from tabletop._errors import TabletopError

__all__ = ["Document", "Migration", "MigrationError"]

Document = dict[str, JsonValue]
"""A stored JSON document: a state, or a recorded action, as ``orjson.loads`` reads it."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of a game's logic versions, declared by the game (like an Alembic revision).

    A running match created under ``from_version`` is moved to ``to_version`` by rewriting its
    stored documents; the rewritten state must validate against the new state schema and pass
    the game's invariants, or nothing is changed.

    Args:
        from_version: The logic version the step starts from, ``MAJOR.MINOR.PATCH``.
        to_version: The logic version it produces.
        state: The stored state document under ``from_version`` to the state document under
            ``to_version``. It may mutate and return its argument. It must be deterministic.
            None when stored states read as they are (a step that only adds what a newer
            version may record, such as a new action type).
        action: For a step whose action schema changed: one recorded action document (metadata
            included) to its form under ``to_version``. None when recorded actions read as they are.
        description: One line on what changed, for operators (``tabletop db matches --outdated``).
    """

    from_version: str
    to_version: str
    state: Callable[[Document], Document] | None = None
    action: Callable[[Document], Document] | None = None
    description: str = ""


class MigrationError(TabletopError):
    """A stored match that cannot be moved to the installed logic version.

    Attributes:
        code: ``"logic-version-unavailable"`` (no declared path from the match's version to the
            installed one), ``"migration-failed"`` (a migration step raised) or
            ``"migration-invalid"`` (its result fails the new state schema or the game's
            invariants; ``problems`` names each).
        message: A human-readable explanation naming both versions (never quoting the state).
        problems: What was wrong with a migrated state, one line each (empty otherwise).
    """

    def __init__(self, code: str, message: str, problems: Sequence[str] = ()) -> None:
        self.code = code
        self.message = message
        self.problems = tuple(problems)
        super().__init__(f"[{code}] {message}")
