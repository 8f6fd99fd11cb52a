"""The app factory: settings in, a FastAPI app with every installed game out."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from importlib.metadata import version

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from tabletop_server._bots import BotBudget, BotRunner
from tabletop_server._clocks import ClockKeeper
from tabletop_server._connections import configure as configure_connections
from tabletop_server._errors import install_error_handlers
from tabletop_server._health import ReadinessGate, Warmup, install_health_routes
from tabletop_server._limits import BodyLimitMiddleware
from tabletop_server._maintenance import Maintenance
from tabletop_server._metrics import MetricsMiddleware, clean_dead_workers
from tabletop_server._openapi import install_openapi
from tabletop_server._outbox import Courier
from tabletop_server._ratelimit import Limits, RateLimitMiddleware
from tabletop_server._registry import GameRegistry
from tabletop_server._service import MatchService
from tabletop_server._settings import Settings
from tabletop_server._static import mount_ui
from tabletop_server._streams import StreamStep
from tabletop_server._upgrade import outdated_report
from tabletop_server.events import EventHub, PostgresHub, SharedSteps, hub_for
from tabletop_server.routers import (
    clocks,
    dev,
    events,
    games,
    history,
    matches,
    play,
    rematch,
    seats,
    webhooks,
)
from tabletop_server.routers._fast import FastPaths
from tabletop_server.storage import Store, StoreOptions, head_revision, upgrade

__all__ = ["create_app"]

DESCRIPTION = """Every installed tabletop game over HTTP: matches, seats with tokens, projected
views, one typed route per action type, undo, fork, bot seats and server-sent events.
Errors are always `{code, message, path}`."""


def _resume_bots(service: MatchService, runner: BotRunner) -> None:
    for row in service.store.list_matches(status="in_progress", limit=10_000):
        if row.has_bots:
            runner.poke(row.id)


def _limits(settings: Settings) -> Limits:
    return Limits(
        create=settings.rate_limit_create,
        claim=settings.rate_limit_claim,
        stream_token=settings.rate_limit_stream_token,
        stream=settings.rate_limit_stream,
        open_streams=settings.max_streams_per_client,
    )


def _action_types(registry: GameRegistry) -> set[str]:
    return {kind for entry in registry.entries() for kind in entry.user_action_types}


def _check_schema(store: Store) -> None:
    """Raise unless the database's schema is at the newest migration (a worker that does not
    migrate waits for the one that does)."""
    revision, head = store.schema_revision(), head_revision()
    if revision != head:
        msg = f"the database schema is at {revision}, not {head}: waiting for the migrations"
        raise RuntimeError(msg)


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
    when it stops; bot seats of unfinished matches resume on start. If the database does not
    answer at start, the app starts anyway: its match routes answer ``503
    storage-unavailable`` and ``/readyz`` ``503 not-ready`` until the start-up work succeeds
    (retried every second).

    Args:
        settings: How to run (default: from ``TABLETOP_*`` environment variables).
        registry: The hosted games (default: every installed game).
        hub: Where match changes are announced (default: ``hub_for(settings.db)``: a
            ``PostgresHub`` for PostgreSQL, so several workers share events, else an
            ``InProcessHub``).
    """
    settings = settings or Settings()
    configure_connections(settings.request_timeout, settings.max_connections)
    registry = registry or GameRegistry()
    hub = hub or hub_for(settings.db, takeover_delay=settings.bot_takeover_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        options = StoreOptions(
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout,
            statement_timeout_ms=round(settings.db_statement_timeout * 1000),
            synchronous_commit=settings.db_synchronous_commit,
            sqlite_wal_max_bytes=settings.sqlite_wal_max_bytes,
            sqlite_max_bytes=settings.sqlite_max_bytes,
        )
        store = Store(settings.db, options=options)  # connects on first use
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
        keeper = ClockKeeper(
            service,
            poll=settings.clock_poll_seconds,
            low_fraction=settings.clock_low_fraction,
            poke_bots=runner.poke,
        )
        app.state.clocks = keeper
        app.state.service = service
        app.state.stream_steps = SharedSteps[StreamStep]()
        app.state.bots = runner
        # What needs the database runs now and, while it fails, again every second: the worker
        # starts anyway (503 until then), so a database outage never stops the server.
        steps: list[Callable[[], object]] = [partial(upgrade, settings.db)] if settings.migrate else []
        steps += [partial(_check_schema, store), partial(_report_outdated, registry, store)]
        steps += [partial(_resume_bots, service, runner)]
        warmup = Warmup(store, steps)
        app.state.warmup = warmup
        ready = await run_in_threadpool(warmup.attempt)
        if isinstance(hub, PostgresHub):  # other workers' bot turns, and resuming after a reconnect
            hub.on_bot_turn.append(runner.poke)
            hub.on_reconnect.append(partial(_resume_bots, service, runner))
            await run_in_threadpool(hub.start, 10.0 if ready else 0.5)  # it reconnects by itself
        if not ready:
            warmup.start()
        maintenance = Maintenance(store, settings)
        maintenance.start()
        keeper.start()  # first handles the deadlines that passed while the server was down
        courier = Courier(store, settings)
        courier.start()
        clean_dead_workers()
        collector = _tune_collector(settings.gc_threshold)
        try:
            yield
        finally:
            _restore_collector(collector)
            warmup.close()
            maintenance.close()
            await run_in_threadpool(keeper.close)
            await run_in_threadpool(courier.close)
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
    app.add_middleware(RateLimitMiddleware, limits=_limits(settings))
    app.add_middleware(ReadinessGate)
    app.add_middleware(MetricsMiddleware, action_types=_action_types(registry))  # outermost
    install_health_routes(app, metrics=settings.metrics)
    routers = (games.router, matches.router, seats.router, play.router, history.router, events.router)
    for router in (*routers, clocks.router, webhooks.router, rematch.router):
        app.include_router(router, prefix="/api")
    app.include_router(play.action_routes(registry), prefix="/api")
    app.include_router(dev.router, prefix="/api")  # the developer panel: 404 dev-mode-off without --dev
    install_openapi(app, registry)
    if settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file():
        mount_ui(app, settings.ui_dir)
    return app


def _report_outdated(registry: GameRegistry, store: Store) -> None:
    """Print, at start, how many stored matches run a logic version other than the installed one."""
    for line in outdated_report(registry, store):
        print(f"tabletop: stored matches of {line}", flush=True)
