"""What a due clock does: a timeout's forfeit, or the pass or bot move played for the seat (once);
a low point's ``clock-low`` events."""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from datetime import datetime

from tabletop.bots._hosted import DecisionRequest, decide
from tabletop.clocks import BotMove, ClockState, PassMove, TimeExpired, TimeoutPolicy

from tabletop_server._api_models import BotKind, BotSpec
from tabletop_server._clock_low import low_seats
from tabletop_server._clock_time import TIMEOUT_PREFIX, KnownClock, state_text, to_ms
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._outbox import queue_clock_low
from tabletop_server._play import record_host, submit
from tabletop_server._runtime import request_body
from tabletop_server._service import MatchService
from tabletop_server._submission import Submission
from tabletop_server.storage import Store, TimeoutRow

__all__ = ["announce_low", "away_after_timeouts", "forfeit", "play_for"]

logger = logging.getLogger("tabletop_server.clocks")


def forfeit(service: MatchService, match: LoadedMatch, entry: TimeoutRow) -> bool:
    """Record the seat's loss on time as the framework's ``TimeExpired`` action (once, with its
    timeout record; the game's forfeit rule ends the game): False if the match moved on."""
    action = TimeExpired(
        id=TIMEOUT_PREFIX + secrets.token_urlsafe(12),
        game_id=match.row.id,
        player_id=entry.player_id,
        due_at=entry.due_at,
        observed_at=entry.observed_at,
        index=match.row.head,
    )
    return record_host(service, match, action, replace(entry, outcome="forfeit", action_id=action.id))


def play_for(
    service: MatchService, match: LoadedMatch, entry: TimeoutRow, outcome: PassMove | BotMove
) -> bool:
    """Record the timeout (once), then play the pass or the bot's move for the seat."""
    player_id = entry.player_id
    kind = "pass" if isinstance(outcome, PassMove) else "bot"
    if not service.store.record_timeout(match.row.id, replace(entry, outcome=kind)):
        return False  # another worker handled this very timeout
    if isinstance(outcome, PassMove):
        body: dict[str, object] = dict(outcome.body)
    else:
        request = DecisionRequest(
            game=match.entry.name,
            state_json=match.row.state_json,
            game_json=match.game.model_dump_json(),
            player_id=player_id,
            kind=BotKind.RANDOM.value,
            iterations=1,
            time_limit=1.0,
            seed=secrets.randbits(64),
        )
        action = decide(match.entry.engine, match.state, match.game, request)
        if action is None:
            service.store.settle_timeout(match.row.id, entry.index, player_id, "superseded", None)
            return False
        body = dict[str, object](request_body(action))
    action_id = TIMEOUT_PREFIX + secrets.token_urlsafe(12)
    body.update(id=action_id, player_id=player_id, game_id=match.row.id, index=match.row.head)
    try:
        submit(service, match.row.id, player_id, str(body["type"]), Submission(body, match.row.head))
    except ApiError as error:
        logger.info("timeout move of %s in %s refused: %s", player_id, match.row.id, error.code)
        service.store.settle_timeout(match.row.id, entry.index, player_id, "superseded", None)
        return False
    service.store.settle_timeout(match.row.id, entry.index, player_id, kind, action_id)
    return True


def away_after_timeouts(
    service: MatchService, match_id: str, player_id: str, policy: TimeoutPolicy, clock: ClockState
) -> bool:
    """After the policy's ``away_after`` consecutive timeouts (``clock`` is the clock before the
    latest), a bot takes the seat over: True if it just did."""
    limit = policy.away_after
    if limit is None:
        return False
    seat = clock.seats.get(player_id)
    count = (0 if seat is None else seat.timeouts) + 1
    return count >= limit and service.store.put_stand_in(
        match_id, player_id, BotSpec().model_dump(mode="json"), "timeouts"
    )


def announce_low(
    store: Store,
    match: LoadedMatch,
    known: KnownClock,
    fraction: float,
    stored_due: datetime,
    now_ms: int,
    due_next: datetime | None,
) -> None:
    """The clock's due time was a low point: queue ``clock-low`` for the seats whose clock ran low
    since, and move the due time on to ``due_next`` (one transaction, once per seat and turn)."""
    control, clock = known.settings.control, known.clock
    seats = low_seats(control, clock, fraction, to_ms(stored_due), now_ms)
    if not seats:
        store.save_clock(match.row.id, state_text(clock), known.head, due_next)
    elif not queue_clock_low(
        store, match.row.id, known.head, match.row.revision, seats, due_was=stored_due, due_next=due_next
    ):
        store.release_clock(match.row.id)  # the clock moved on meanwhile
