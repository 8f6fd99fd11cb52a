"""An independent check of the server's storage: rebuild a match's state from its log and seed."""

from __future__ import annotations

import orjson
from tabletop import UNKEYED, AnyState, GameEngine, Player
from tabletop.games import load
from tabletop_server.storage import Store

__all__ = ["replayed_state"]

_NOT_SUBMITTED = {"source", "created_at", "reveals_info", "metadata", "index", "simultaneous_group_id"}


def replayed_state(store: Store, match_id: str, stop: int | None = None) -> tuple[AnyState, str]:
    """The state a replay of the stored log from the seed gives (of its first ``stop`` actions,
    default all), and the state stored now (JSON)."""
    row, seats = store.get_match_and_seats(match_id)
    definition = load(row.game)
    game = definition.game_type(
        id=row.id,
        type_id=row.game,
        players=[Player(id=s.player_id, name=s.name, is_human=s.bot is None) for s in seats],
        config=definition.config_type.model_validate(row.config),
        seed=row.seed,
    )

    engine = GameEngine(definition)
    state = engine.start(game, prng_key=row.prng_key if row.prng_key is not None else UNKEYED).state
    for action in store.actions(match_id):
        if stop is not None and action.index >= stop:
            break
        data = orjson.loads(action.json)
        if data["source"] != "user":
            continue
        state = engine.run({k: v for k, v in data.items() if k not in _NOT_SUBMITTED}, state, game).state
    return state, row.state_json
