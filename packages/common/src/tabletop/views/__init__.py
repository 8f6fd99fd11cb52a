"""Hidden information: who may see which field, and the views each perspective receives.

Declare visibility on the models with ``Annotated`` metadata (public is the default):

- :class:`OwnerOnly`: only the owner (the enclosing player state's player, the model's
  :class:`Owner` field, or an action's ``player_id``) sees it;
- :class:`HostOnly`: nobody does (``GameState.prng`` is host-only);
- :class:`CountOnly`: others see ``<name>_count`` instead of the items;
- :class:`OrderOnly`: others see a list of nulls of the same length;
- a subclass of :class:`CustomVisibility`: the game decides per :class:`Viewer`.

:func:`project` builds a state's view for a player id or :data:`SPECTATOR`, as an instance of a
frozen type derived from the state type (:func:`view_type`, tuples for lists, so the seats'
views may share their immutable parts), and :func:`project_seats` the views of
several perspectives at once (every seat after an action, say); :func:`project_action` and
:func:`project_log` redact actions the same way; :func:`find_leaks` checks a serialized view for
hidden values (a :class:`LeakChecker` checks several views of one subject); :func:`find_reveals`
tells which perspectives a step showed a value hidden from them before (what makes an undo
unsafe). Importing
:mod:`tabletop.schemas` registers :func:`view_documents`, which exports the view schemas under
``schemas/<game>/views/``.

Example:
    >>> from enum import StrEnum
    >>> from typing import Annotated
    >>> from tabletop import GameState, PlayerState, PrngState
    >>> class Phase(StrEnum):
    ...     PLAY = "Play"
    >>> class Seat(PlayerState):
    ...     hand: Annotated[list[int], CountOnly()] = []
    >>> class Table(GameState[Seat, Phase]):
    ...     pass
    >>> table = Table(
    ...     id="t", game_id="g", players=[Seat(player_id="a", hand=[3, 9])],
    ...     prng=PrngState(seed=1), machine_state=Phase.PLAY,
    ... )
    >>> view = project(table, SPECTATOR).model_dump()
    >>> view["players"][0]["hand_count"], "hand" in view["players"][0], "prng" in view
    (2, False, False)
"""

from tabletop._visibility import (
    SPECTATOR,
    CountOnly,
    CustomVisibility,
    HostOnly,
    OrderOnly,
    Owner,
    OwnerOnly,
    Perspective,
    Public,
    Spectator,
    Viewer,
    Visibility,
)
from tabletop.views._analysis import declares_visibility
from tabletop.views._documents import view_documents
from tabletop.views._hydrated import HydratedStateView, hydrated_view_type
from tabletop.views._leaks import LeakChecker, find_leaks
from tabletop.views._projection import (
    action_view_type,
    project,
    project_action,
    project_log,
    project_seats,
    view_type,
)
from tabletop.views._reveals import HiddenValues, find_reveals

__all__ = [
    "SPECTATOR",
    "CountOnly",
    "CustomVisibility",
    "HiddenValues",
    "HostOnly",
    "HydratedStateView",
    "LeakChecker",
    "OrderOnly",
    "Owner",
    "OwnerOnly",
    "Perspective",
    "Public",
    "Spectator",
    "Viewer",
    "Visibility",
    "action_view_type",
    "declares_visibility",
    "find_leaks",
    "find_reveals",
    "hydrated_view_type",
    "project",
    "project_action",
    "project_log",
    "project_seats",
    "view_documents",
    "view_type",
]
