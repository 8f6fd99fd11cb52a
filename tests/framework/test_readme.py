"""README.md, the front door: its Python runs, its commands need only make, its links resolve.

The full documentation is the site under ``docs/`` (whose code blocks ``tests/docs`` runs); the
README keeps one runnable example, the commands, and links into ``docs/`` that work on GitHub.
"""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
README = REPO / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.DOTALL)
COMMANDS = [
    line.split("#")[0].strip()
    for block in re.findall(r"```sh\n(.*?)```", TEXT, flags=re.DOTALL)
    for line in block.splitlines()
    if line.split("#")[0].strip()
]
LINKS = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", TEXT)


def test_the_readme_has_a_python_example() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block-{n}" for n in range(len(BLOCKS))])
def test_readme_block_runs(block: str) -> None:
    # "__main__" is in sys.modules: pydantic registers generic classes parametrized at top level there
    exec(compile(block, str(README), "exec"), {"__name__": "__main__"})


def test_the_two_commands_are_make_serve_and_make_test() -> None:
    assert {"make serve", "make test"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_needs_nothing_on_the_path_but_make(command: str) -> None:
    program = command.split()[0]
    assert program == "make" or program.startswith(".venv/bin/"), command


def test_every_relative_link_and_image_exists() -> None:
    relative = [link for link in LINKS if "://" not in link]
    assert any(link.startswith("docs/") for link in relative)
    assert any(link.endswith(".png") for link in relative)  # the screenshot
    assert sorted(link for link in relative if not (REPO / link).exists()) == []


def test_every_docs_page_is_linked() -> None:
    pages = {
        str(page.relative_to(REPO))
        for page in (REPO / "docs").rglob("*.md")
        if "_hooks" not in page.parts and "api" not in page.parts
    }
    assert sorted(pages - set(LINKS)) == []
