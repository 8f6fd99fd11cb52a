"""Bot seats: the server plays them as soon as it is their turn, off the event loop.

A bot reads only its seat's view (a search bot projects the state for its seat and samples
worlds from that view; a random bot picks among the legal actions of a world sampled from its
view when the game hides information). Each move is submitted pinned to the head the bot saw, so
a move is played exactly once per turn even if two runners (or two workers) see the same turn:
the second write finds the head moved. A move's action id is unguessable (and action ids are
scoped to the seat that sends them); a move refused for its id is chosen and sent again with a
new one. An ended match's bots stop.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tabletop import GameAction
from tabletop.bots import MctsBot
from tabletop.views import project

from tabletop_server._api_models import BotKind, BotSpec
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._metrics import bot_decided, bot_queue
from tabletop_server._play import Submission, submit
from tabletop_server._runtime import Action
from tabletop_server._service import MatchService
from tabletop_server.storage import StorageError

__all__ = ["BotRunner", "bot_action_id", "choose_action"]

logger = logging.getLogger("tabletop_server.bots")

_ENVELOPE = {
    "source",
    "index",
    "created_at",
    "reveals_info",
    "metadata",
    "simultaneous_group_id",
    "id",
    "game_id",
}


def choose_action(match: LoadedMatch, player_id: str, spec: BotSpec, rng: random.Random) -> Action | None:
    """The bot's move for ``player_id`` in ``match``, or None if it has none."""
    entry = match.entry
    engine = entry.engine
    state = match.state
    if spec.kind is BotKind.MCTS:
        bot = MctsBot(engine, iterations=spec.iterations, seed=rng.getrandbits(32), pause_gc=False)
        return bot.choose(state, player_id, match.game)
    world = state
    determinizer = entry.definition.determinizer
    if entry.hidden_information and determinizer is not None:  # pick from what the seat may see
        world = entry.definition.state_type.model_validate(
            determinizer(project(state, player_id), player_id, rng)
        )
    legal = engine.legal_actions(world, player_id, match.game)
    return rng.choice(legal) if legal else None


_RETRY = frozenset(("stale-index", "idempotency-key-reused", "duplicate-action-id", "conflict"))
"""Refusals after which the bot looks at the match again and sends a new move (with a new id)."""


def bot_action_id() -> str:
    """A bot move's action id: unguessable, so no client can take it first."""
    return "bot-" + secrets.token_urlsafe(16)


def _body(action: GameAction) -> dict[str, object]:
    return action.model_dump(mode="json", exclude=_ENVELOPE)


class BotRunner:
    """Plays the bot seats of matches in a small thread pool.

    Args:
        service: The matches service (the runner registers itself for its change notices).
        delay: Seconds to wait before each move.
        workers: Threads searching at once.
    """

    def __init__(self, service: MatchService, *, delay: float = 0.0, workers: int = 2) -> None:
        self.service = service
        self.delay = delay
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tabletop-bot")
        self._lock = threading.Lock()
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._closed = False
        self._rng = random.Random(secrets.randbits(64))
        service.on_change.append(self.poke)

    def poke(self, match_id: str) -> None:
        """The match changed: play its bots if one is to move (from any thread)."""
        with self._lock:
            if self._closed:
                return
            if match_id in self._running:
                self._again.add(match_id)
                return
            self._running.add(match_id)
            bot_queue(len(self._running))
        self._pool.submit(self._run, match_id)

    def close(self) -> None:
        """Stop taking work and wait for running moves."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)

    def idle(self) -> bool:
        """True when no bot is thinking."""
        with self._lock:
            return not self._running

    def _run(self, match_id: str) -> None:
        try:
            while True:
                while self._move(match_id):
                    pass
                with self._lock:
                    if match_id in self._again and not self._closed:
                        self._again.discard(match_id)
                        continue
                    self._running.discard(match_id)
                    bot_queue(len(self._running))
                    return
        except Exception:  # a bot must never take the server down; the match stays playable
            logger.exception("bot of match %s failed", match_id)
            with self._lock:
                self._running.discard(match_id)
                self._again.discard(match_id)
                bot_queue(len(self._running))

    def _move(self, match_id: str) -> bool:
        """Play one bot move if a bot is to act; True if one was played (or should be retried)."""
        if self._closed:
            return False
        try:
            match = self.service.load(match_id)
        except (ApiError, StorageError):
            return False
        if match.row.status != "in_progress" or match.unavailable is not None:
            return False
        bots = match.bot_seats()
        state = match.state
        for player_id in state.active_player_ids:
            spec = bots.get(player_id)
            if spec is None:
                continue
            with self._lock:
                rng = random.Random(self._rng.getrandbits(64))
            started = time.perf_counter()
            action = choose_action(match, player_id, spec, rng)
            bot_decided(spec.kind.value, time.perf_counter() - started)
            if action is None:
                continue
            if self.delay:
                time.sleep(self.delay)
            body = _body(action)
            head = match.row.head
            body.update(
                id=bot_action_id(),
                player_id=player_id,
                game_id=match_id,
                index=head,
            )
            try:
                submit(self.service, match_id, player_id, action.type, Submission(body, head))
            except ApiError as error:
                if error.code not in _RETRY:
                    logger.warning("bot %s of match %s was refused: %s", player_id, match_id, error)
                    return False
            return True
        return False
