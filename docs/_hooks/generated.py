"""Pages generated from the code at build time, so they cannot go stale.

A page asks for generated content with a marker line; this MkDocs hook replaces it:

- ``<!-- generated: cli -->``: every subcommand and flag of the ``tabletop`` command, read from
  its argparse parser (``tabletop._cli._parser()``, plugins such as ``tabletop-server`` included).
- ``<!-- generated: diagrams -->``: the state diagram of every installed game, as the output of
  ``tabletop diagram <game>`` in a mermaid fence.
- ``<!-- generated: http-api -->``: the routes of the exported OpenAPI document
  (``schemas/server/openapi.json``), then the HTTP contract ``packages/server/API.md``.

The OpenAPI document itself is published next to that page, as ``reference/openapi.json``, and
the browser tests' screenshots (``games-ui/screenshots/*.png``, which ``tests/ui`` rewrites) as
``images/screenshots/*.png``: pages show them as they are, with no copy to keep in sync.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

__all__ = ["GENERATORS", "cli_reference", "commands", "diagrams", "http_api", "on_files", "on_page_markdown"]

REPO = Path(__file__).resolve().parents[2]
OPENAPI = REPO / "schemas" / "server" / "openapi.json"
CONTRACT = REPO / "packages" / "server" / "API.md"
SCREENSHOTS = REPO / "games-ui" / "screenshots"
SCREENSHOTS_URL = "images/screenshots"
"""Where the site publishes the screenshots, relative to the docs root."""

_WIDTH = 100


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, width=_WIDTH)


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """The (name, help, parser) of each subcommand of ``parser``, in declaration order."""
    found: list[tuple[str, str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, helps.get(name, ""), sub))
    return found


def commands(
    parser: argparse.ArgumentParser | None = None, prefix: str = "tabletop", summary: str = ""
) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """Every command and subcommand as (full name, help, parser), depth first."""
    if parser is None:
        from tabletop._cli import _parser

        parser = _parser()
        summary = parser.description or ""
    yield prefix, summary, parser
    for name, help_text, sub in _subcommands(parser):
        yield from commands(sub, f"{prefix} {name}", help_text)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _arguments(parser: argparse.ArgumentParser) -> list[str]:
    rows: list[str] = []
    formatter = _formatter(parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        invocation = formatter._format_action_invocation(action)
        help_text = action.help or ""
        if action.choices is not None:
            help_text += f" (one of: {', '.join(f'`{choice}`' for choice in action.choices)})"
        if action.default not in (None, argparse.SUPPRESS, False, []) and "default" not in help_text:
            help_text += f" (default: `{action.default}`)"
        if isinstance(action, argparse._AppendAction):
            help_text += " (repeatable)"
        if action.required and action.option_strings:
            help_text += " (required)"
        if not action.option_strings and action.nargs == "?":
            help_text += " (optional)"
        rows.append(f"| `{_cell(invocation)}` | {_cell(help_text).strip() or '—'} |")
    return rows


def cli_reference() -> str:
    """The Markdown reference of the ``tabletop`` command: usage, help and arguments of each command."""
    parts: list[str] = []
    for name, summary, parser in commands():
        depth = min(name.count(" ") + 2, 4)
        parser.formatter_class = _formatter
        usage = parser.format_usage().removeprefix("usage: ").strip()
        parts.append(f"{'#' * depth} `{name}`\n")
        if summary:
            text = _cell(summary).rstrip(".")
            parts.append(f"{text[:1].upper()}{text[1:]}.\n")
        parts.append(f"```text\n{usage}\n```\n")
        rows = _arguments(parser)
        if rows:
            parts.append("| argument | meaning |\n| --- | --- |\n" + "\n".join(rows) + "\n")
        subs = _subcommands(parser)
        if subs:
            listed = ", ".join(f"`{sub}`" for sub, _, _ in subs)
            parts.append(f"Subcommands: {listed}.\n")
    return "\n".join(parts)


def diagram_output(game: str) -> str:
    """What ``tabletop diagram <game>`` prints."""
    from tabletop._cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["diagram", game])
    if code != 0:
        msg = f"tabletop diagram {game} exited with {code}"
        raise RuntimeError(msg)
    return out.getvalue().strip()


def diagrams() -> str:
    """A section per installed game: its entry in ``tabletop games`` and its state diagram."""
    from tabletop import games

    parts: list[str] = []
    for name in games.available():
        definition = games.load(name)
        seats = f"{definition.min_players}–{definition.max_players} players"
        parts.append(
            f"## {name}\n\nLogic version {definition.logic_version}, {seats}. "
            f"`tabletop diagram {name}` prints:\n\n```mermaid\n{diagram_output(name)}\n```\n"
        )
    return "\n".join(parts)


def http_api() -> str:
    """The routes of the exported OpenAPI document, then the contract with its headings one level down."""
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    rows = [
        f"| `{method.upper()}` | `{path}` | {_cell(operation.get('summary', ''))} |"
        for path, operations in sorted(document["paths"].items())
        for method, operation in operations.items()
    ]
    routes = "| method | path | what |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n"
    lines = CONTRACT.read_text(encoding="utf-8").splitlines()[1:]  # without its title
    in_code = False
    for number, line in enumerate(lines):
        in_code ^= line.startswith("```")
        if not in_code and re.match(r"#+ ", line):
            lines[number] = "#" + line  # one level down, under this page's sections
    contract = "\n".join(lines)
    return f"## Routes\n\n{routes}\n## The contract\n{contract}"


GENERATORS: dict[str, Callable[[], str]] = {
    "<!-- generated: cli -->": cli_reference,
    "<!-- generated: diagrams -->": diagrams,
    "<!-- generated: http-api -->": http_api,
}
"""Each marker and the function whose output replaces it."""


def on_files(files: Files, /, *, config: MkDocsConfig, **_: object) -> Files:
    """MkDocs hook: publish the exported OpenAPI document and the UI screenshots."""
    files.append(File.generated(config, "reference/openapi.json", abs_src_path=str(OPENAPI)))
    for image in sorted(SCREENSHOTS.glob("*.png")):
        files.append(File.generated(config, f"{SCREENSHOTS_URL}/{image.name}", abs_src_path=str(image)))
    return files


def on_page_markdown(markdown: str, /, **_: object) -> str:
    """MkDocs hook: replace every generated-content marker in a page."""
    for marker, generate in GENERATORS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, generate())
    return markdown
