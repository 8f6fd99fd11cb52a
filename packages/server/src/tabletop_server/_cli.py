"""The server's subcommands of the ``tabletop`` command: ``serve``, ``db upgrade``,
``db matches end``, ``server openapi``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tabletop._cli._commands import Commands

from tabletop_server._openapi import OPENAPI_PATH

__all__ = ["register"]


def _settings(args: argparse.Namespace) -> object:
    from tabletop_server._settings import Settings

    given = {
        name: value
        for name, value in (
            ("db", args.db),
            ("host", args.host),
            ("port", args.port),
            ("ui_dir", args.ui_dir),
            ("workers", getattr(args, "workers", None)),
        )
        if value is not None
    }
    return Settings(**given)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tabletop_server._app import create_app
    from tabletop_server._settings import Settings

    settings = _settings(args)
    assert isinstance(settings, Settings)
    if settings.workers > 1:
        return _serve_workers(settings)
    app = create_app(settings)
    where = settings.db or "the embedded SQLite file (.tabletop/tabletop.sqlite3)"
    has_ui = settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file()
    ui = settings.ui_dir if has_ui else "none (API only; `make ui-build` builds it)"
    print(f"tabletop: serving on http://{settings.host}:{settings.port} (database: {where}; UI: {ui})")
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        access_log=settings.access_log,
        server_header=False,
        timeout_graceful_shutdown=3,
    )
    return 0


def _serve_workers(settings: object) -> int:
    """``--workers N``: migrate once, then uvicorn's worker processes, each ``create_app()``
    from the same settings passed as ``TABLETOP_*`` environment variables."""
    import os

    import uvicorn

    from tabletop_server._settings import Settings
    from tabletop_server.storage import normalize_url, upgrade

    assert isinstance(settings, Settings)
    if normalize_url(settings.db).get_backend_name() != "postgresql":
        print(
            "tabletop: --workers above 1 needs PostgreSQL (--db postgresql://...): SQLite's events "
            "and bot seats live in one process",
            file=sys.stderr,
        )
        return 2
    if settings.migrate:
        upgrade(settings.db)
    has_ui = settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file()
    ui = settings.ui_dir if has_ui else "none (API only; `make ui-build` builds it)"
    print(
        f"tabletop: serving on http://{settings.host}:{settings.port} with {settings.workers} workers "
        f"(database: {normalize_url(settings.db).render_as_string(hide_password=True)}; UI: {ui})"
    )
    for name, value in settings.model_dump(exclude_none=True).items():
        os.environ[f"TABLETOP_{name.upper()}"] = str(value)
    os.environ["TABLETOP_MIGRATE"] = "false"
    uvicorn.run(
        "tabletop_server._app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level="info",
        access_log=settings.access_log,
        server_header=False,
        timeout_graceful_shutdown=3,
    )
    return 0


def _upgrade(args: argparse.Namespace) -> int:
    from tabletop_server.storage._cli import upgrade_command

    return upgrade_command(args)


def _end(args: argparse.Namespace) -> int:
    from tabletop_server.storage._cli import end_command

    return end_command(args)


def _app_for_document() -> object:
    from tabletop_server._app import create_app
    from tabletop_server._settings import Settings

    return create_app(Settings(db="sqlite:///unused.sqlite3", ui_dir=None, migrate=False))


def _openapi(args: argparse.Namespace) -> int:
    from fastapi import FastAPI

    from tabletop_server._openapi import check_openapi, export_openapi

    app = _app_for_document()
    assert isinstance(app, FastAPI)
    path: Path = args.out
    if args.action == "export":
        export_openapi(app, path)
        print(f"wrote {path}")
        return 0
    if check_openapi(app, path):
        print(f"{path} is up to date")
        return 0
    print(f"tabletop: {path} is out of date; run `tabletop server openapi export`", file=sys.stderr)
    return 1


def register(commands: Commands) -> None:
    """Add ``serve``, ``db upgrade``, ``db matches end`` and ``server openapi export|check``."""
    serve = commands.add_parser("serve", help="serve every installed game over HTTP (FastAPI + uvicorn)")
    serve.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3; env TABLETOP_DB)")
    serve.add_argument("--host", help="interface to listen on (default 127.0.0.1; env TABLETOP_HOST)")
    serve.add_argument("--port", type=int, help="port (default 8000; env TABLETOP_PORT)")
    serve.add_argument(
        "--ui-dir", type=Path, help="built UI to serve at / (default: games-ui/app/dist if built)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        help="worker processes (default 1; more need --db postgresql://...; env TABLETOP_WORKERS)",
    )
    serve.set_defaults(handler=_serve)

    db = commands.add_parser("db", help="the server's database")
    db_commands = db.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    up = db_commands.add_parser("upgrade", help="apply the schema migrations")
    up.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3)")
    up.set_defaults(handler=_upgrade)
    matches = db_commands.add_parser("matches", help="operate on stored matches")
    match_commands = matches.add_subparsers(dest="matches_command", required=True, metavar="COMMAND")
    end = match_commands.add_parser(
        "end", help="end a match: it takes no more actions or seats, and its bots stop"
    )
    end.add_argument("match_id", help="the match id (m_...)")
    end.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3)")
    end.set_defaults(handler=_end)

    server = commands.add_parser("server", help="server tooling")
    server_commands = server.add_subparsers(dest="server_command", required=True, metavar="COMMAND")
    openapi = server_commands.add_parser("openapi", help="write or check the exported OpenAPI document")
    openapi.add_argument("action", choices=["export", "check"])
    openapi.add_argument("--out", type=Path, default=OPENAPI_PATH, help=f"default {OPENAPI_PATH}")
    openapi.set_defaults(handler=_openapi)
