"""The server's subcommands of the ``tabletop`` command: ``serve``, ``db upgrade|matches``,
``db matches end``, ``rehearsal record``, ``server openapi``."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from tabletop._cli._commands import Commands

from tabletop_server._openapi import OPENAPI_PATH

__all__ = ["register"]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
"""The hosts ``tabletop serve --dev`` may listen on (the developer panel is for this machine)."""

WORKER_HEALTHCHECK_SECONDS = 60
"""How long uvicorn's supervisor waits for a worker to answer its ping before replacing it."""


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
    settings = Settings(**given)
    if getattr(args, "dev", False):  # --dev turns the panel on; without it TABLETOP_DEV decides
        settings = settings.model_copy(update={"dev": True})
    return settings


def _database(db: str | None) -> str:
    """The database a server opens, as its banner names it: a SQLite file's absolute path (the
    default one under ``$TABLETOP_DATA_DIR`` when that is set), else the URL without its password."""
    from tabletop_server.storage import normalize_url

    url = normalize_url(db)
    if url.get_backend_name() == "sqlite":
        kind = "the embedded SQLite file" if not db else "SQLite file"
        return f"{kind} {url.database}"
    return url.render_as_string(hide_password=True)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tabletop_server._app import create_app
    from tabletop_server._settings import Settings

    settings = _settings(args)
    assert isinstance(settings, Settings)
    if settings.dev and settings.host not in LOOPBACK_HOSTS:
        print(
            f"tabletop: --dev serves every seat's secrets; it listens on loopback only, not {settings.host}",
            file=sys.stderr,
        )
        return 2
    _open_files()
    if settings.workers > 1:
        return _serve_workers(settings)
    app = create_app(settings)
    where = _database(settings.db)
    has_ui = settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file()
    ui = settings.ui_dir if has_ui else "none (API only; `make ui-build` builds it)"
    print(f"tabletop: serving on http://{settings.host}:{settings.port} (database: {where}; UI: {ui})")
    if settings.dev:
        print(
            "tabletop: developer panel on (--dev): every seat's secrets are served to anyone who can reach it"
        )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        access_log=settings.access_log,
        server_header=False,
        timeout_graceful_shutdown=3,
        http=_protocol(),
    )
    return 0


def _open_files() -> None:
    from tabletop_server._connections import raise_open_file_limit

    before, after = raise_open_file_limit()
    if after != before:
        print(f"tabletop: open-file limit raised from {before} to {after}")


def _protocol() -> type:
    """The connection guard's HTTP protocol (its limits are set by ``create_app``)."""
    from tabletop_server._connections import GuardedHttpProtocol

    return GuardedHttpProtocol


def _metrics_folder() -> str | None:
    """Several workers: prometheus_client's multiprocess folder (a fresh temp folder unless the
    operator set ``PROMETHEUS_MULTIPROC_DIR``; emptied either way). Returns the one made here."""
    import os
    import tempfile
    from pathlib import Path

    from tabletop_server._metrics import MULTIPROC_ENV

    given = os.environ.get(MULTIPROC_ENV)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        for stale in Path(given).glob("*.db"):
            stale.unlink()
        return None
    made = tempfile.mkdtemp(prefix="tabletop-metrics-")
    os.environ[MULTIPROC_ENV] = made
    return made


def _serve_workers(settings: object) -> int:
    """``--workers N``: migrate once, then uvicorn's worker processes, each ``create_app()``
    from the same settings passed as ``TABLETOP_*`` environment variables."""
    import os

    import uvicorn

    from tabletop_server._settings import Settings
    from tabletop_server.storage import StorageError, normalize_url, upgrade

    assert isinstance(settings, Settings)
    if normalize_url(settings.db).get_backend_name() != "postgresql":
        print(
            "tabletop: --workers above 1 needs PostgreSQL (--db postgresql://...): SQLite's events "
            "and bot seats live in one process",
            file=sys.stderr,
        )
        return 2
    migrate_in_workers = False
    if settings.migrate:
        try:
            upgrade(settings.db)
        except StorageError as error:  # the workers start anyway, and migrate once it answers
            print(f"tabletop: the database does not answer yet ({error.message}); starting anyway")
            migrate_in_workers = True
    has_ui = settings.ui_dir is not None and (settings.ui_dir / "index.html").is_file()
    ui = settings.ui_dir if has_ui else "none (API only; `make ui-build` builds it)"
    print(
        f"tabletop: serving on http://{settings.host}:{settings.port} with {settings.workers} workers "
        f"(database: {_database(settings.db)}; UI: {ui})"
    )
    for name, value in settings.model_dump(exclude_none=True).items():
        os.environ[f"TABLETOP_{name.upper()}"] = str(value)
    os.environ["TABLETOP_MIGRATE"] = "true" if migrate_in_workers else "false"
    made = _metrics_folder()
    try:
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
            http=_protocol(),
            # A worker answers the supervisor's pings once it has unpickled its config, which
            # imports the server (the protocol class): seconds on a loaded machine.
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        )
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    return 0


def _upgrade(args: argparse.Namespace) -> int:
    from tabletop_server.storage._cli import upgrade_command

    return upgrade_command(args)


def _matches(args: argparse.Namespace) -> int:
    from tabletop_server._versions_cli import matches_command

    return matches_command(args)


def _record(args: argparse.Namespace) -> int:
    from tabletop_server._versions_cli import record_command

    return record_command(args)


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


def _verify(args: argparse.Namespace) -> int:
    from tabletop_server._fair import fetch_public_match, verify_match

    try:
        record = fetch_public_match(args.server, args.match_id)
    except (OSError, ValueError) as error:
        print(f"tabletop verify: cannot read the match from {args.server}: {error}", file=sys.stderr)
        return 2
    verdict = verify_match(record)
    if verdict.ok:
        print(
            f"verified {args.match_id}: the key matches its commitment; the full log's {verdict.actions} "
            f"actions ({verdict.chance} with recorded outcomes, {verdict.hidden} with parts hidden "
            "during the match) replay from the seed with it, the spectator log is their projection, "
            "and the final state and checksum match"
        )
        return 0
    for problem in verdict.problems:
        print(f"tabletop verify: {args.match_id}: {problem}", file=sys.stderr)
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
    serve.add_argument(
        "--dev",
        action="store_true",
        help="turn on the developer panel (full state, every seat's view, time travel, bot moves); "
        "local use only (env TABLETOP_DEV=1)",
    )
    serve.set_defaults(handler=_serve)

    db = commands.add_parser("db", help="the server's database")
    db_commands = db.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    up = db_commands.add_parser("upgrade", help="apply the schema migrations")
    up.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3)")
    up.set_defaults(handler=_upgrade)
    listing = db_commands.add_parser("matches", help="stored matches by game and logic version")
    listing.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3)")
    listing.add_argument(
        "--outdated",
        action="store_true",
        help="list each match stored under another logic version than its installed game's, and "
        "what the server does with it (migrates, frozen, unavailable)",
    )
    listing.set_defaults(handler=_matches)
    match_commands = listing.add_subparsers(dest="matches_command", required=False, metavar="COMMAND")
    end = match_commands.add_parser(
        "end", help="end a match: it takes no more actions or seats, and its bots stop"
    )
    end.add_argument("match_id", help="the match id (m_...)")
    end.add_argument(
        "--db", default=argparse.SUPPRESS, help="database URL (default: .tabletop/tabletop.sqlite3)"
    )
    end.set_defaults(handler=_end)

    rehearsal = commands.add_parser("rehearsal", help="rehearsals of matches under earlier logic versions")
    rehearsal_commands = rehearsal.add_subparsers(dest="rehearsal_command", required=True, metavar="COMMAND")
    record = rehearsal_commands.add_parser(
        "record", help="save a stored match as a rehearsal (<game project>/tests/rehearsals/<version>/)"
    )
    record.add_argument("match_id", help="the stored match (best stopped mid-game)")
    record.add_argument("--name", required=True, help="its name: lowercase letters, digits, dashes")
    record.add_argument("--db", help="database URL (default: .tabletop/tabletop.sqlite3)")
    record.add_argument("--out", type=Path, help="rehearsal folder (default: the game's tests/rehearsals)")
    record.add_argument("--description", default="", help="what the rehearsal exercises")
    record.set_defaults(handler=_record)

    verify = commands.add_parser(
        "verify",
        help="check a finished match with its revealed key: its full log (every chance outcome and "
        "hidden choice), the spectator log as its projection, and the final state",
    )
    verify.add_argument("match_id", help="the match id (m_...)")
    verify.add_argument("--server", default="http://127.0.0.1:8000", help="the server's base URL")
    verify.set_defaults(handler=_verify)

    server = commands.add_parser("server", help="server tooling")
    server_commands = server.add_subparsers(dest="server_command", required=True, metavar="COMMAND")
    openapi = server_commands.add_parser("openapi", help="write or check the exported OpenAPI document")
    openapi.add_argument("action", choices=["export", "check"])
    openapi.add_argument("--out", type=Path, default=OPENAPI_PATH, help=f"default {OPENAPI_PATH}")
    openapi.set_defaults(handler=_openapi)
