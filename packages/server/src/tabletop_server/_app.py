"""The app factory: settings in, a FastAPI app with every installed game out."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from importlib.metadata import version

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from tabletop_server._bots import BotBudget, BotRunner
from tabletop_server._errors import install_error_handlers
from tabletop_server._limits import BodyLimitMiddleware
from tabletop_server._openapi import install_openapi
from tabletop_server._registry import GameRegistry
from tabletop_server._service import MatchService
from tabletop_server._settings import Settings
from tabletop_server._static import mount_ui
from tabletop_server._streams import StreamStep
from tabletop_server.events import EventHub, PostgresHub, SharedSteps, hub_for
from tabletop_server.routers import events, games, history, matches, play, seats
from tabletop_server.routers._fast import FastPaths
from tabletop_server.storage import Store, StoreOptions, upgrade

__all__ = ["create_app"]

DESCRIPTION = """Every installed tabletop game over HTTP: matches, seats with tokens, projected
views, one typed route per action type, undo, fork, bot seats and server-sent events.
Errors are always `{code, message, path}`."""


def _resume_bots(service: MatchService, runner: BotRunner) -> None:
    for row in service.store.list_matches(status="in_progress", limit=10_000):
        if row.has_bots:
            runner.poke(row.id)


def _tune_collector(threshold: int) -> tuple[int, int, int] | None:
    """Raise the collector's thresholds and freeze the start-up objects (see ``gc_threshold``)."""
    if threshold == 0:
        return None
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, 20, 100)
    return before


def _restore_collector(before: tuple[int, int, int] | None) -> None:
    if before is not None:
        gc.set_threshold(*before)
        gc.unfreeze()


def create_app(
    settings: Settings | None = None, *, registry: GameRegistry | None = None, hub: EventHub | None = None
) -> FastAPI:
    """Build the server app.

    The database is migrated (``settings.migrate``) and opened when the app starts, and closed
    when it stops; bot seats of unfinished matches resume on start.

    Args:
        settings: How to run (default: from ``TABLETOP_*`` environment variables).
        registry: The hosted games (default: every installed game).
        hub: Where match changes are announced (default: ``hub_for(settings.db)``: a
            ``PostgresHub`` for PostgreSQL, so several workers share events, else an
            ``InProcessHub``).
    """
    settings = settings or Settings()
    registry = registry or GameRegistry()
    hub = hub or hub_for(settings.db, takeover_delay=settings.bot_takeover_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate:
            await run_in_threadpool(upgrade, settings.db)
        options = StoreOptions(
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout,
            statement_timeout_ms=round(settings.db_statement_timeout * 1000),
            synchronous_commit=settings.db_synchronous_commit,
        )
        store = Store(settings.db, options=options)
        service = MatchService(settings, registry, store, hub)
        budget = BotBudget(
            max_iterations=settings.bot_max_iterations,
            decision_seconds=settings.bot_decision_seconds,
            processes=settings.bot_processes,
            queue_size=settings.bot_queue_size,
            delay=settings.bot_delay,
        )
        runner = BotRunner(service, budget)
        service.admit_bots = runner.admit
        if isinstance(hub, PostgresHub):  # other workers' bot turns, and resuming after a reconnect
            hub.on_bot_turn.append(runner.poke)
            hub.on_reconnect.append(partial(_resume_bots, service, runner))
            await run_in_threadpool(hub.start)
        app.state.service = service
        app.state.stream_steps = SharedSteps[StreamStep]()
        app.state.bots = runner
        await run_in_threadpool(_resume_bots, service, runner)
        collector = _tune_collector(settings.gc_threshold)
        try:
            yield
        finally:
            _restore_collector(collector)
            if isinstance(hub, PostgresHub):
                await run_in_threadpool(hub.close)
            await run_in_threadpool(runner.close)
            store.close()

    app = FastAPI(
        title="tabletop",
        version=version("tabletop-server"),
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    install_error_handlers(app)
    app.add_middleware(FastPaths, registry=registry)  # answers the hot routes the routers describe
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)  # (outside it)
    for router in (games.router, matches.router, seats.router, play.router, history.router, events.router):
        app.include_router(router, prefix="/api")
    app.include_router(play.action_routes(registry), prefix="/api")
    install_openapi(app, registry)
    if settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file():
        mount_ui(app, settings.ui_dir)
    return app
