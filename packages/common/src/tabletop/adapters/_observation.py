"""What one perspective observes, as JSON: the single source of every adapter observation.

Every adapter observation is a projected view from :mod:`tabletop.views`, never the state itself:

- a player's observation is :func:`tabletop.views.project` of the state for that player (other
  players' secrets are null or counts; ``prng`` and host-only fields are left out);
- what a player learns from the actions recorded is :func:`tabletop.views.project_log` of them for
  that player (hidden payload and metadata fields are null);
- a spectator's observation (PettingZoo's ``"ansi"`` rendering) is the
  :data:`~tabletop.views.SPECTATOR` view.

So the adapters show a player exactly what the framework sends that player, and nothing the
views hide; a game keeps a secret from learning agents by declaring it, on its state and on the
actions that carry it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop._action import GameAction
from tabletop._machine import AnyState
from tabletop._visibility import Perspective
from tabletop.views import project, project_log

__all__ = ["log_json", "observation_json"]


def observation_json(state: AnyState, perspective: Perspective) -> bytes:
    """The view of ``state`` that ``perspective`` (a player id or ``SPECTATOR``) may see, as compact JSON.

    Raises:
        ValueError: ``perspective`` is not one of the state's players.
    """
    return project(state, perspective).model_dump_json().encode()


def log_json(actions: Iterable[GameAction], perspective: Perspective) -> bytes:
    """The actions as ``perspective`` receives them (``project_log``), as a compact JSON array."""
    views = [action.model_dump_json().encode() for action in project_log(actions, perspective)]
    return b"[" + b",".join(views) + b"]"
