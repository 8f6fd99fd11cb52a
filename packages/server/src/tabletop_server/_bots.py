"""Bot seats: the server plays them as soon as it is their turn, one decision at a time, fairly.

Every match with a bot to move waits in one first-come-first-served queue (:class:`BotRunner`,
at most once per match). A turn of the queue is *one* decision: load the match, choose the bot's
action, submit it; the write's change notice puts the match at the back of the queue for its
next decision, so many matches interleave and none holds a worker for a whole game. A random
bot decides in one of the runner's threads (it is cheap); a search bot's decision runs in the
bot process pool (``bot_processes``), off the process that serves requests, under a budget in
iterations and in seconds (``bot_max_iterations``, ``bot_decision_seconds``).

A bot reads only its seat's view (see ``_bot_search.decide``). Each move is submitted pinned to
the head the bot saw, so a move is played exactly once per turn even if two runners (or two
workers) see the same turn: the second write finds the head moved. A move's action id is
unguessable (and action ids are scoped to the seat that sends them); a move refused for its id
or a moved head is decided again and sent with a new id. An ended match's bots stop.

A decision that fails is tried again later, never dropped: nothing else would wake the match,
whose players wait for the bot (see ``_bot_retries``).
"""

from __future__ import annotations

import logging
import multiprocessing
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from tabletop import GameAction
from tabletop.bots._hosted import (
    DecisionRequest,
    decide,
    decide_json,
    init_bot_process,
    pool_can_rebuild,
)

from tabletop_server._api_models import BotKind, BotSpec
from tabletop_server._bot_retries import TRANSIENT, RetrySchedule
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._metrics import bot_decided, bot_queue
from tabletop_server._play import submit
from tabletop_server._runtime import Action, load_action, request_body
from tabletop_server._service import MatchService
from tabletop_server._submission import Submission
from tabletop_server.storage import StorageError

__all__ = ["BotBudget", "BotRunner", "bot_action_id"]

logger = logging.getLogger("tabletop_server.bots")

DecisionListener = Callable[[str, float], None]
"""Told ``(bot kind, seconds)`` after each decision (a metrics hook)."""


_RETRY = frozenset(("stale-index", "idempotency-key-reused", "duplicate-action-id", "conflict"))
"""Refusals after which the bot looks at the match again and sends a new move (with a new id)."""


def bot_action_id() -> str:
    """A bot move's action id: unguessable, so no client can take it first."""
    return "bot-" + secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class BotBudget:
    """What one bot decision may spend, and how many decisions may wait.

    Attributes:
        max_iterations: The most MCTS iterations of one decision (a seat asking more gets this).
        decision_seconds: Wall-clock seconds one search may take; it then plays its best move so far.
        processes: Bot processes searching at once (0: search in the runner's threads, in the
            server's own process).
        queue_size: Matches that may wait for a bot decision before new bot work is refused
            (``503 bots-busy``).
        threads: Threads that load matches, run random bots and submit moves.
        delay: Seconds a bot waits before submitting its move.
    """

    max_iterations: int = 2_000
    decision_seconds: float = 1.0
    processes: int = 1
    queue_size: int = 256
    threads: int = 2
    delay: float = 0.0


class BotRunner:
    """Plays the bot seats of matches: a fair queue of one-decision turns.

    Args:
        service: The matches service (the runner registers itself for its change notices).
        budget: The budgets and sizes.
    """

    def __init__(self, service: MatchService, budget: BotBudget | None = None) -> None:
        self.service = service
        self.budget = budget or BotBudget()
        self._threads = ThreadPoolExecutor(
            max_workers=max(1, self.budget.threads), thread_name_prefix="tabletop-bot"
        )
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        """Matches with a decision queued or under way (the queue's depth)."""
        self._again: set[str] = set()
        """Pending matches that changed while their decision was under way: queued again after it."""
        self._closed = False
        self._rng = random.Random(secrets.randbits(64))
        self._pool_games: dict[str, bool] = {}
        self.retries = RetrySchedule(self.poke)
        """When failed decisions are tried again."""
        self.on_decision: list[DecisionListener] = []
        """Called after each decision with the bot's kind and the seconds it took (metrics)."""
        service.on_change.append(self.poke)

    # -- the queue ------------------------------------------------------------------------------

    def depth(self) -> int:
        """How many matches wait for a bot decision (queued or being decided): the bot queue depth."""
        with self._lock:
            return len(self._pending)

    def admit(self) -> None:
        """Check that new bot work fits in the queue (a match with bots being created).

        Raises:
            ApiError: The queue is full (``bots-busy``, 503): try again later.
        """
        with self._lock:
            full = len(self._pending) >= self.budget.queue_size
        if full:
            raise ApiError("bots-busy", "the server's bots are busy: try again later")

    def poke(self, match_id: str) -> None:
        """The match changed: queue its next bot decision (from any thread; never refused)."""
        with self._lock:
            if self._closed:
                return
            if match_id in self._pending:
                self._again.add(match_id)
                return
            self._pending.add(match_id)
            bot_queue(len(self._pending))
        self._spawn(self._start, match_id)

    def idle(self) -> bool:
        """True when no bot decision is queued or under way."""
        with self._lock:
            return not self._pending

    def close(self) -> None:
        """Stop taking work and wait for the decisions under way (each within its budget)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        self.retries.close()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self._threads.shutdown(wait=True, cancel_futures=True)

    def _spawn(self, work: Callable[..., None], *args: object) -> None:
        try:
            self._threads.submit(self._guarded, work, args)
        except RuntimeError:  # shut down: the server is stopping
            return

    def _guarded(self, work: Callable[..., None], args: tuple[object, ...]) -> None:
        match_id = str(args[0])
        try:
            work(*args)
        except StorageError as error:  # (reading the match's stand-ins)
            self.retries.failed(match_id, error.code, error.message)
            self._finished(match_id)
        except Exception:  # a bot must never take the server down; the match stays playable
            logger.exception("bot of match %s failed", match_id)
            self.retries.failed(match_id, "bot-failed", "see the traceback above")
            self._finished(match_id)

    def _finished(self, match_id: str) -> None:
        """The match's decision is over: queue it again (at the back) if it changed meanwhile."""
        with self._lock:
            again = match_id in self._again and not self._closed
            self._again.discard(match_id)
            if not again:
                self._pending.discard(match_id)
            bot_queue(len(self._pending))
        if again:  # still pending: its next decision goes to the back of the queue
            self._spawn(self._start, match_id)

    # -- one decision ---------------------------------------------------------------------------

    def _start(self, match_id: str) -> None:
        """Load the match and start its bot's decision (random: here; MCTS: in the pool)."""
        if self._closed:
            self._finished(match_id)
            return
        try:
            match = self.service.load(match_id)
        except (ApiError, StorageError) as error:  # (an unknown match: its bots stop)
            if error.code in TRANSIENT:
                self.retries.failed(match_id, error.code, error.message)
            self._finished(match_id)
            return
        request = self._request(match)
        if request is None:
            self.retries.succeeded(match_id)
            self._finished(match_id)
            return
        pool = self._pool_for(match, request)
        started = time.monotonic()
        if pool is None:
            action = decide(match.entry.engine, match.state, match.game, request)
            self._decided(match_id, match, request, action, started)
            return
        future = pool.submit(decide_json, request)
        future.add_done_callback(
            lambda done: self._spawn(self._searched, match_id, match, request, done, started)
        )

    def _request(self, match: LoadedMatch) -> DecisionRequest | None:
        """The decision of the first active bot seat that has a move to make (in a simultaneous
        group, a seat that has acted stays active until the group closes), or None."""
        if match.row.status != "in_progress" or match.unavailable is not None:
            return None
        bots = match.bot_seats()
        for stand_in in self.service.store.stand_ins(match.row.id):  # bots playing for absent players
            bots.setdefault(stand_in.player_id, BotSpec.model_validate(stand_in.bot))
        engine = match.entry.engine
        for player_id in match.state.active_player_ids:
            spec = bots.get(player_id)
            if spec is None or not engine.valid_action_types(match.state, player_id, match.game):
                continue
            with self._lock:
                seed = self._rng.getrandbits(64)
            return DecisionRequest(
                game=match.entry.name,
                state_json=match.row.state_json,
                game_json=match.game.model_dump_json(),
                player_id=player_id,
                kind=spec.kind.value,
                iterations=min(spec.iterations, self.budget.max_iterations),
                time_limit=self.budget.decision_seconds,
                seed=seed,
            )
        return None

    def _pool_for(self, match: LoadedMatch, request: DecisionRequest) -> ProcessPoolExecutor | None:
        """The process pool for a search, or None to decide in this thread."""
        if request.kind != BotKind.MCTS.value or self.budget.processes < 1:
            return None
        name = match.entry.name
        if name not in self._pool_games:
            self._pool_games[name] = pool_can_rebuild(name, match.entry.definition)
        if not self._pool_games[name]:
            return None
        with self._lock:
            if self._closed:
                return None
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.budget.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=init_bot_process,
                )
            return self._pool

    def _searched(
        self,
        match_id: str,
        match: LoadedMatch,
        request: DecisionRequest,
        done: Future[str | None],
        started: float,
    ) -> None:
        """A search in the pool ended: submit its move."""
        try:
            chosen = done.result()
        except BrokenProcessPool:  # a bot process died: a new pool, and the decision again
            logger.warning("a bot process died; restarting the bot pool")
            with self._lock:
                broken, self._pool = self._pool, None
                self._again.add(match_id)
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            self._finished(match_id)
            return
        except Exception:  # cancelled at shutdown, or a bug in the game: the match stays playable
            if not self._closed:
                logger.exception("bot search of match %s failed", match_id)
                self.retries.failed(match_id, "bot-failed", "its search failed")
            self._finished(match_id)
            return
        action = None if chosen is None else load_action(match.entry, chosen)
        self._decided(match_id, match, request, action, started)

    def _decided(
        self,
        match_id: str,
        match: LoadedMatch,
        request: DecisionRequest,
        action: Action | None,
        started: float,
    ) -> None:
        """Submit the bot's move (pinned to the head it saw), then free the match's turn."""
        seconds = time.monotonic() - started
        bot_decided(request.kind, seconds)
        for listener in self.on_decision:
            listener(request.kind, seconds)
        try:
            if action is not None and not self._closed:
                if self.budget.delay:
                    time.sleep(self.budget.delay)
                self._submit(match_id, match, request.player_id, action)
            else:
                self.retries.succeeded(match_id)
        except Exception:  # a bot must never take the server down; the match stays playable
            logger.exception("bot move of match %s failed", match_id)
            self.retries.failed(match_id, "bot-failed", "submitting its move failed")
        self._finished(match_id)

    def _submit(self, match_id: str, match: LoadedMatch, player_id: str, action: GameAction) -> None:
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
            if error.code in _RETRY:  # the match moved on or the id was taken: decide again
                with self._lock:
                    self._again.add(match_id)
            else:
                self.retries.failed(
                    match_id, error.code, f"bot {player_id}'s move was refused: {error.message}"
                )
            return
        self.retries.succeeded(match_id)


def _body(action: GameAction) -> dict[str, object]:
    return dict[str, object](request_body(action))
