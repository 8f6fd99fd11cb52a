"""One match as read from storage at one revision, with what the engine needs to run it."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import cast

import orjson
from pydantic import JsonValue
from tabletop import Game, GameConfig
from tabletop._machine import AnyState

from tabletop_server._api_models import BotSpec
from tabletop_server._registry import GameEntry
from tabletop_server._runtime import JsonDict, build_game, load_state
from tabletop_server.storage import ActionRow, MatchRow, SeatRow

__all__ = ["LoadedMatch", "UndoCheck", "match_info", "status_of_state", "undo_check"]

UNDO_WINDOW = 64
"""How many of the latest actions an undo looks back over for the seat's last action."""


def status_of_state(state: AnyState) -> str:
    """The stored status of a state: ``finished`` once it has a result."""
    return "finished" if state.result is not None else "in_progress"


@dataclass
class LoadedMatch:
    """A match row, its seats and game, and (on first use) its hydrated state."""

    row: MatchRow
    seats: list[SeatRow]
    entry: GameEntry
    game: Game[GameConfig]
    _state: AnyState | None = field(default=None, repr=False)

    @classmethod
    def of(cls, row: MatchRow, seats: list[SeatRow], entry: GameEntry) -> LoadedMatch:
        """Wrap rows read from the store."""
        seat_list = [(seat.player_id, seat.name, seat.bot is None) for seat in seats]
        game = build_game(entry, row.id, seat_list, row.config, row.seed)
        return cls(row, seats, entry, game)

    @property
    def state(self) -> AnyState:
        """The current state (hydrated once, then shared: never mutate it)."""
        if self._state is None:
            self._state = load_state(self.entry, self.row.state_json)
        return self._state

    def reread(self, row: MatchRow, seats: list[SeatRow]) -> LoadedMatch:
        """This match as read again: its game and hydrated state are kept if ``row`` is at the
        same revision and the seats still name the same players, else built anew."""
        same = row.revision == self.row.revision and [_player(s) for s in seats] == [
            _player(s) for s in self.seats
        ]
        if same:
            return LoadedMatch(row, seats, self.entry, self.game, self._state)
        return LoadedMatch.of(row, seats, self.entry)

    def holder(self, token_hash: str) -> str | None:
        """The player id of the seat the token hashing to ``token_hash`` holds, or None
        (compared in constant time)."""
        found: str | None = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, token_hash):
                found = seat.player_id
        return found

    def seat(self, player_id: str) -> SeatRow | None:
        """The seat with this player id, or None."""
        return next((seat for seat in self.seats if seat.player_id == player_id), None)

    def bot_seats(self) -> dict[str, BotSpec]:
        """The bot seats and their settings."""
        return {
            seat.player_id: BotSpec.model_validate(seat.bot) for seat in self.seats if seat.bot is not None
        }


def _player(seat: SeatRow) -> tuple[str, str, bool]:
    return seat.player_id, seat.name, seat.bot is None


def match_info(row: MatchRow, seats: list[SeatRow]) -> JsonDict:
    """The ``MatchInfo`` JSON of a match."""
    parent: JsonValue = None
    if row.parent_id is not None and row.parent_index is not None:
        parent = {"match_id": row.parent_id, "index": row.parent_index}
    return {
        "id": row.id,
        "game": row.game,
        "logic_version": row.logic_version,
        "status": row.status,
        "visibility": row.visibility,
        "config": cast(JsonValue, row.config),
        "index": row.head,
        "checksum": row.checksum,
        "seats": [
            {
                "player_id": seat.player_id,
                "name": seat.name,
                "bot": cast(JsonValue, seat.bot),
                "occupied": seat.occupied,
            }
            for seat in seats
        ],
        "result": row.result,
        "winners": list(row.winners),
        "parent": parent,
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }


@dataclass(frozen=True, slots=True)
class UndoCheck:
    """Whether a seat may undo now, and to which index the log would be cut."""

    allowed: bool
    to_index: int
    reason: str


def undo_check(row: MatchRow, tail: list[ActionRow], player_id: str | None) -> UndoCheck:
    """The seed's undo rule over the latest actions of a match.

    A player may undo their own last user action unless a later action (or the action itself, or
    a system action it caused) revealed information, or another player acted since, except
    within the same simultaneous group. A finished match is not undone.
    """
    if player_id is None:
        return UndoCheck(False, row.head, "a spectator has nothing to undo")
    if row.status != "in_progress":
        return UndoCheck(False, row.head, "the match is over")
    later: list[ActionRow] = []
    for action in reversed(tail):
        if action.source == "user" and action.player_id == player_id:
            return _judge(action, later)
        later.append(action)
    return UndoCheck(False, row.head, f"{player_id} has no recent action to undo")


def _group(action: ActionRow) -> str | None:
    value = orjson.loads(action.json).get("simultaneous_group_id")
    return value if isinstance(value, str) else None


def _judge(mine: ActionRow, later: list[ActionRow]) -> UndoCheck:
    if mine.reveals_info:
        return UndoCheck(False, mine.index, "that action revealed information")
    group = _group(mine)
    for action in later:
        if action.reveals_info:
            return UndoCheck(False, mine.index, "a later action revealed information")
        other = action.source == "user" and action.player_id != mine.player_id
        if other and (group is None or _group(action) != group):
            return UndoCheck(False, mine.index, "another player acted since")
    return UndoCheck(True, mine.index, "")
