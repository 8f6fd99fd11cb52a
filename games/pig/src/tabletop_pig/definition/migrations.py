"""Pig's migrations: how a match stored under an earlier logic version moves to this one."""

from tabletop import Migration
from tabletop.versions import Document


def count_the_moves(state: Document) -> Document:
    """1.0.0 -> 2.0.0: the state counts rolls and holds (``moves``).

    Every action 1.0.0 recorded was a player's roll or hold (it had no system actions), so the
    moves so far are its action count.
    """
    state["moves"] = state["action_count"]
    return state


def roll_without_metadata(action: Document) -> Document:
    """1.0.0 -> 2.0.0: a ``Roll`` no longer records the face (its ``RollDie`` does); drop it.

    The face a 1.0.0 roll showed stays in the state's die for the last roll only.
    """
    if action.get("type") == "Roll":
        action.pop("metadata", None)
    return action


migrations = [
    Migration(
        from_version="1.0.0",
        to_version="2.0.0",
        state=count_the_moves,
        action=roll_without_metadata,
        description="the die is a declared chance point (RollDie); the state counts moves",
    ),
    Migration(
        from_version="2.0.0",
        to_version="3.0.0",
        description=(
            "a seat that loses on time is recorded as the framework's TimeExpired action; "
            "stored states and actions read as they are"
        ),
    ),
]
"""Every declared step, oldest first."""
