"""The schema documents of projected views, added to every game's export.

:mod:`tabletop.schemas` registers :func:`view_documents` as a document producer, so every
export includes them (the views know nothing of the schemas: the dependency runs one way).
"""

from __future__ import annotations

from pydantic import BaseModel

from tabletop._definition import GameDefinition
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop.views._analysis import declares_visibility
from tabletop.views._projection import action_plan, view_type

__all__ = ["view_documents"]


def view_documents(definition: GameDefinition[AnyState, GameConfig]) -> dict[str, type[BaseModel]]:
    """The view documents of one game, by path under ``schemas/<game>/``.

    - ``views/player.json`` and ``views/spectator.json``: the state as a player and as a
      spectator sees it, when the game's models declare hidden information;
    - otherwise ``views/state.json``: the one view everybody gets (the state without ``prng``);
    - ``views/actions/<Type>.json`` for each action type that hides a payload or metadata field.
    """
    state_type = definition.state_type
    documents: dict[str, type[BaseModel]] = {}
    if declares_visibility(state_type):
        documents["views/player.json"] = view_type(state_type)
        documents["views/spectator.json"] = view_type(state_type, spectator=True)
    else:
        documents["views/state.json"] = view_type(state_type)
    for tag, action in definition.action_by_type.items():
        plan = action_plan(action)
        if plan is not None:
            documents[f"views/actions/{tag}.json"] = plan.view_type
    return documents
