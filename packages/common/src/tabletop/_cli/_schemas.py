"""``tabletop schemas ...`` and ``tabletop codegen ...``: exported schemas and client code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tabletop._cli._commands import Commands
from tabletop.schemas import (
    BreakingChangeError,
    SchemasOutOfDateError,
    check_schemas,
    export_schemas,
    generate_python,
    write_typescript_fixtures,
)

__all__ = ["register"]

DEFAULT_ROOT = Path("schemas")


def _export(args: argparse.Namespace) -> int:
    root: Path = args.root
    try:
        files = export_schemas(root)
    except BreakingChangeError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 1
    games = sorted({path.split("/")[0] for path in files} - {"common", "index.json"})
    print(f"exported {len(files)} files for {', '.join(games) or 'no game'} under {root}")
    return 0


def _check(args: argparse.Namespace) -> int:
    root: Path = args.root
    try:
        files = check_schemas(root)
    except SchemasOutOfDateError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 1
    print(f"{len(files)} schema files under {root} are up to date")
    return 0


def _fixtures(args: argparse.Namespace) -> int:
    for path in write_typescript_fixtures(args.out, seed=args.seed):
        print(path)
    return 0


def _python(args: argparse.Namespace) -> int:
    written = generate_python(args.out, args.schemas)
    print(f"generated {len(written)} files under {args.out}")
    return 0


def register(commands: Commands) -> None:
    """Add ``schemas export|check|fixtures`` and ``codegen python``."""
    schemas = commands.add_parser("schemas", help="export and check the games' JSON Schemas")
    actions = schemas.add_subparsers(dest="schemas_command", required=True, metavar="ACTION")
    export = actions.add_parser(
        "export", help="write every installed game's schemas (refuses breaking changes without a bump)"
    )
    export.set_defaults(handler=_export)
    check = actions.add_parser("check", help="fail if the schemas on disk are not what the games export")
    check.set_defaults(handler=_check)
    for sub in (export, check):
        sub.add_argument(
            "--root", type=Path, default=DEFAULT_ROOT, help="the schemas folder (default: ./schemas)"
        )
    fixtures = actions.add_parser(
        "fixtures", help="record seeded playouts as typed TypeScript fixtures (one <game>.ts per game)"
    )
    fixtures.add_argument("--out", type=Path, required=True, help="folder to write the fixtures to")
    fixtures.add_argument("--seed", type=int, default=1, help="seed of the recorded playouts (default 1)")
    fixtures.set_defaults(handler=_fixtures)

    codegen = commands.add_parser("codegen", help="generate client code from the exported schemas")
    languages = codegen.add_subparsers(dest="codegen_command", required=True, metavar="LANGUAGE")
    python = languages.add_parser("python", help="pydantic v2 models, one module per game")
    python.add_argument("--out", type=Path, required=True, help="package folder to write")
    python.add_argument(
        "--schemas", type=Path, default=DEFAULT_ROOT, help="the exported schemas (default: ./schemas)"
    )
    python.set_defaults(handler=_python)
