"""The server's subcommands of the ``tabletop`` command (placeholder until the server lands)."""

from __future__ import annotations

from tabletop._cli._commands import Commands

__all__ = ["register"]


def register(commands: Commands) -> None:
    """Add the server's subcommands to the ``tabletop`` command."""
