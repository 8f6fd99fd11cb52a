"""The generated reference pages cover everything they are generated from.

The ``tabletop`` command reference, the state diagrams and the HTTP routes are rendered at build
time by the MkDocs hook ``docs/_hooks/generated.py`` (so they cannot go stale); these tests check
that what it renders is complete, and that the Python API reference names every public module.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tabletop import games

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def _hook() -> ModuleType:
    name = "tabletop_docs_generated"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, DOCS / "_hooks" / "generated.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _page(relative: str) -> str:
    return (DOCS / relative).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("page", "marker"),
    [
        ("reference/cli.md", "<!-- generated: cli -->"),
        ("reference/diagrams.md", "<!-- generated: diagrams -->"),
        ("reference/http-api.md", "<!-- generated: http-api -->"),
    ],
)
def test_generated_pages_ask_for_their_content(page: str, marker: str) -> None:
    assert marker in _page(page)
    assert marker in _hook().GENERATORS


def test_the_cli_reference_has_every_subcommand_and_every_flag() -> None:
    from tabletop._cli import _parser

    reference = _hook().cli_reference()
    seen = 0
    for name, _, parser in _hook().commands(_parser()):
        assert f"`{name}`" in reference, name
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            for option in action.option_strings or [action.dest]:
                assert option in reference, f"{name}: {option}"
                seen += 1
    assert {"tabletop new game", "tabletop schemas check", "tabletop golden record"} <= {
        name for name, _, _ in _hook().commands(_parser())
    }
    assert seen >= 20


def test_the_cli_reference_shows_choices_and_defaults() -> None:
    reference = _hook().cli_reference()
    assert "`--seat {human,bot}`" in reference and "(one of: `human`, `bot`)" in reference
    assert "(repeatable)" in reference


def test_the_diagrams_page_is_tabletop_diagram_of_every_installed_game() -> None:
    page = _hook().diagrams()
    blocks = re.findall(r"```mermaid\n(.*?)\n```", page, flags=re.DOTALL)
    assert len(blocks) == len(games.available()) >= 4
    for name, block in zip(games.available(), blocks, strict=True):
        assert block == games.load(name).diagram().strip()
        assert f"## {name}\n" in page


def test_the_http_reference_lists_every_route_of_the_openapi_document() -> None:
    document = json.loads((REPO / "schemas" / "server" / "openapi.json").read_text(encoding="utf-8"))
    page = _hook().http_api()
    for path, operations in document["paths"].items():
        for method in operations:
            assert f"| `{method.upper()}` | `{path}` |" in page
    # the contract's headings move one level down, under the page's own sections
    assert re.search(r"^### Errors: one shape everywhere$", page, flags=re.MULTILINE)


def _public_modules(root: Path, package: str) -> set[str]:
    found = set()
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found.add(".".join(parts))
    return found


def test_the_api_reference_covers_every_public_module_of_tabletop() -> None:
    directives = {
        match
        for page in (DOCS / "reference" / "api").glob("*.md")
        for match in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    }
    public = _public_modules(REPO / "packages" / "common" / "src", "tabletop")
    assert {"tabletop", "tabletop.components", "tabletop.views", "tabletop.adapters"} <= public
    assert sorted(public - directives) == []
    assert "tabletop_server" in directives


def test_every_screenshot_a_page_shows_is_one_the_browser_tests_save() -> None:
    shown = {
        (page, name)
        for page in DOCS.rglob("*.md")
        for name in re.findall(r"images/screenshots/([\w.-]+)\)", page.read_text(encoding="utf-8"))
    }
    assert {name for _, name in shown} >= {"lobby.png", "go-fish.png", "pig.png"}
    saved = {image.name for image in (REPO / "games-ui" / "screenshots").glob("*.png")}
    assert sorted((str(page.relative_to(DOCS)), name) for page, name in shown if name not in saved) == []
    # the site publishes the folder as it is: the hook serves every saved screenshot
    assert _hook().SCREENSHOTS == REPO / "games-ui" / "screenshots"
