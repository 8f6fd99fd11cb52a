"""Matches of real games kept in a ``tabletop_server.storage.Store``, played the way the server does.

``StoredTable`` starts a game with the engine and stores it; ``submit`` is the server's write
path in miniature: read the match, run the engine on its state, append under the revision guard,
and on ``HeadMovedError`` re-read and re-run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import orjson
from pydantic import JsonValue
from tabletop import UNKEYED, AnyState, Game, GameConfig, GameEngine
from tabletop.games import load
from tabletop.schemas import request_model
from tabletop.testing import make_game
from tabletop_server.storage import (
    ActionRow,
    HeadMovedError,
    MatchRow,
    MatchUpdate,
    NewAction,
    NewMatch,
    NewSeat,
    Store,
)

__all__ = ["Choose", "StoredTable", "Submitted", "request_body", "update_of"]

Choose = Callable[[AnyState, str], dict[str, JsonValue]]
"""Picks an action for the player on turn: ``(state, player_id) -> request body without id``."""


def update_of(state: AnyState) -> MatchUpdate:
    """The ``MatchUpdate`` storing ``state``."""
    return MatchUpdate(
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status="finished" if state.is_over else "in_progress",
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
    )


def request_body(action_json: str, engine: GameEngine[AnyState, GameConfig]) -> dict[str, JsonValue]:
    """The request a client sent for a recorded user action (what a replay submits again)."""
    kind = str(orjson.loads(action_json)["type"])
    action = engine.definition.action_by_type[kind].model_validate_json(action_json)
    return action.model_dump(mode="json", include=set(request_model(type(action)).model_fields))


@dataclass(frozen=True)
class Submitted:
    """What one ``submit`` did: the match as stored afterwards and how many tries it took."""

    match: MatchRow
    attempts: int


class StoredTable:
    """One game definition, its engine, and matches of it in a store."""

    def __init__(self, store: Store, game: str, *, players: int = 2, seed: int = 7) -> None:
        self.store = store
        self.definition = load(game)
        self.engine: GameEngine[AnyState, GameConfig] = GameEngine(self.definition)
        self.name = game
        self.players = players
        self.seed = seed

    def game(self, match_id: str) -> Game[GameConfig]:
        """The engine's ``Game`` of a match."""
        return make_game(self.definition, players=self.players, seed=self.seed, game_id=match_id)

    def create(self, match_id: str, *, bots: Sequence[str] = ()) -> MatchRow:
        """Start a match with the engine, unkeyed, and store it (seats ``p1``..; ``bots`` are random bots)."""
        game = self.game(match_id)
        started = self.engine.start(game, prng_key=UNKEYED)  # a reproducible fixture
        seats = [NewSeat(p.id, p.name, {"kind": "random"} if p.id in bots else None) for p in game.players]
        update = update_of(started.state)
        new = NewMatch(
            id=match_id,
            game=self.name,
            logic_version=self.definition.logic_version,
            config=game.config.model_dump(mode="json"),
            seed=game.seed,
            prng_key=None,
            state_json=update.state_json,
            checksum=update.checksum,
            status=update.status,
        )
        return self.store.create_match(new, seats, [NewAction.from_action(a, None) for a in started.actions])

    def state(self, match: MatchRow) -> AnyState:
        """The hydrated state of a stored match."""
        return self.definition.state_type.model_validate_json(match.state_json)

    def submit(
        self, match_id: str, action_id: str, choose: Choose, *, max_attempts: int = 10_000
    ) -> Submitted:
        """Play one action chosen by ``choose`` for the (first) player on turn who can act; re-run on
        conflicts."""
        game = self.game(match_id)
        for attempt in range(1, max_attempts + 1):
            match = self.store.get_match(match_id)
            state = self.state(match)
            movers = [p for p in state.active_player_ids if self.engine.legal_actions(state, p, game)]
            player = (movers or state.active_player_ids)[0]  # simultaneous: one who has not acted
            body = {**choose(state, player), "id": action_id, "game_id": match_id, "player_id": player}
            result = self.engine.run(body, state, game)
            rows = [NewAction.from_action(a, action_id) for a in result.actions]
            try:
                stored = self.store.append(match, update_of(result.state), rows)
            except HeadMovedError:
                continue
            return Submitted(stored, attempt)
        msg = f"{action_id}: still conflicting after {max_attempts} attempts"
        raise AssertionError(msg)

    def replay(self, match_id: str, rows: Sequence[ActionRow]) -> AnyState:
        """The state after submitting the log's user actions again from the seed."""
        state = self.engine.start(self.game(match_id)).state
        for row in rows:
            if row.source == "user":
                state = self.engine.run(request_body(row.json, self.engine), state, self.game(match_id)).state
        return state
