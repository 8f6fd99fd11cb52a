"""One match as read from storage at one revision, with what the engine needs to run it."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import cast

from pydantic import JsonValue
from tabletop import Game, GameConfig, TabletopError
from tabletop._machine import AnyState
from tabletop.views import HiddenValues

from tabletop_server._api_models import BotSpec
from tabletop_server._errors import ApiError
from tabletop_server._fair import fairness_json
from tabletop_server._registry import GameEntry
from tabletop_server._runtime import JsonDict, build_game, load_state
from tabletop_server.storage import MatchRow, MatchUpdate, SeatRow

__all__ = ["LoadedMatch", "match_info", "status_of_state", "stored_update"]


def status_of_state(state: AnyState) -> str:
    """The stored status of a state: ``finished`` once it has a result."""
    return "finished" if state.result is not None else "in_progress"


def stored_update(state: AnyState) -> MatchUpdate:
    """What a write stores of a state: its JSON, checksum, status, result and winners."""
    return MatchUpdate(
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status=status_of_state(state),
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
    )


@dataclass
class LoadedMatch:
    """A match row, its seats and game, and (on first use) its hydrated state.

    ``entry`` is the code the match runs: the installed game, or a frozen copy of the version
    it was created with. ``unavailable`` is set when no code can run it (its logic version has
    no migration path to the installed one, or its migration failed): every write is refused
    with that error, and reads use the installed game's models as far as they can read it.
    """

    row: MatchRow
    seats: list[SeatRow]
    entry: GameEntry
    game: Game[GameConfig]
    _state: AnyState | None = field(default=None, repr=False)
    unavailable: ApiError | None = None
    _hidden: HiddenValues | None = field(default=None, repr=False)

    @classmethod
    def of(
        cls, row: MatchRow, seats: list[SeatRow], entry: GameEntry, *, unavailable: ApiError | None = None
    ) -> LoadedMatch:
        """Wrap rows read from the store."""
        seat_list = [(seat.player_id, seat.name, seat.bot is None) for seat in seats]
        game = build_game(entry, row.id, seat_list, row.config, row.seed)
        return cls(row, seats, entry, game, unavailable=unavailable)

    @property
    def state(self) -> AnyState:
        """The current state (hydrated once, then shared: never mutate it).

        Raises:
            ApiError: The match is ``unavailable`` and the installed game cannot read its state.
        """
        if self._state is None:
            try:
                self._state = load_state(self.entry, self.row.state_json)
            except (ValueError, TabletopError):
                if self.unavailable is None:
                    raise
                raise self.unavailable from None
        return self._state

    @property
    def hidden(self) -> HiddenValues:
        """What the current state hides from each perspective (counted once per perspective asked,
        then kept with the state: the next action's undo barrier starts from it)."""
        if self._hidden is None:
            self._hidden = HiddenValues(self.state, self.row.state_json)
        return self._hidden

    def check_writable(self) -> None:
        """Refuse a write to a match no installed code can run.

        Raises:
            ApiError: ``logic-version-unavailable`` (or the failed migration's code).
        """
        if self.unavailable is not None:
            raise self.unavailable

    def reread(self, row: MatchRow, seats: list[SeatRow]) -> LoadedMatch:
        """This match as read again: its game and hydrated state are kept if ``row`` is at the
        same revision and the seats still name the same players, else built anew."""
        same = row.revision == self.row.revision and [_player(s) for s in seats] == [
            _player(s) for s in self.seats
        ]
        if same:
            return LoadedMatch(row, seats, self.entry, self.game, self._state, self.unavailable, self._hidden)
        return LoadedMatch.of(row, seats, self.entry, unavailable=self.unavailable)

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


def match_info(
    row: MatchRow, seats: list[SeatRow], links: tuple[str | None, str | None] = (None, None)
) -> JsonDict:
    """The ``MatchInfo`` JSON of a match (``links``: the match it is the rematch of, and its
    rematch, see ``_rematch``)."""
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
        "migrated_from": row.migrated_from,
        "migrated_at": None if row.migrated_at is None else row.migrated_at.isoformat(),
        "replay_base": row.base_index,
        "clock": None,
        "fairness": fairness_json(row),
        "rematch": {"previous": links[0], "next": links[1]},
    }
