"""Every code block of the documentation runs, page by page, in the order the page shows it.

Each page gets a throwaway workspace (the repository's ``pyproject.toml`` in an empty folder)
and its blocks run there in order:

- a block with a ``title="path"`` is a file: it is written to that path in the workspace;
- a ``python`` block runs in this process, all of a page's blocks in one namespace, with the
  workspace as the current directory;
- an ``sh`` block runs with bash in the workspace, ``.venv/bin`` first on the ``PATH``, and must
  exit 0 -- unless the line before it says ``<!-- not run: <why> -->``;
- other languages (``text``, ``json``, ``ts``, ``mermaid``, ...) show output and are not run;
- a block whose body is a snippet include (``--8<-- "path"``) shows a file of the repository as
  it is (its own tooling checks it: the UI files by ``make ui-check``); a test checks the path.

Games the page creates under ``games/`` are installed the way ``uv sync`` would make them
visible: their ``src`` folder and an entry point (a ``.dist-info`` folder) go on the path, for
the page's Python blocks and for its shell commands.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
VENV_BIN = Path(sys.executable).parent

_FENCE = re.compile(
    r"(?P<before>(?:^<!-- not run: (?P<why>[^>]+?) -->\n(?:\n)?)?)"
    r"^(?P<fence>```+)(?P<lang>[\w-]*)(?P<attrs>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_TITLE = re.compile(r'title="([^"]+)"')


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str
    line: int
    lang: str
    body: str
    file: str | None
    not_run: str | None

    @property
    def runs(self) -> bool:
        return self.file is None and self.not_run is None and self.lang in ("python", "sh")


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of ``page``, in order."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        title = _TITLE.search(match["attrs"])
        found.append(
            Block(
                page=str(page.relative_to(DOCS)),
                line=text.count("\n", 0, match.start("fence")) + 1,
                lang=match["lang"],
                body=match["body"],
                # a titled block that includes a repository file (--8<--) shows it; it is not written
                file=title.group(1) if title and not match["body"].startswith("--8<--") else None,
                not_run=match["why"],
            )
        )
    return found


PAGES = sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)
PAGES_WITH_CODE = [p for p in PAGES if any(b.runs or b.file for b in blocks(p))]
# Pages that run shell commands start a ``tabletop`` process per command (seconds each): slow tier.
PAGE_PARAMS = [
    pytest.param(
        page,
        id=str(page.relative_to(DOCS)),
        marks=[pytest.mark.slow] if any(b.runs and b.lang == "sh" for b in blocks(page)) else [],
    )
    for page in PAGES_WITH_CODE
]


class Workspace:
    """A page's throwaway workspace, with the games it creates installed."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.site = root / ".site-packages"
        self.site.mkdir()
        self._monkeypatch = monkeypatch
        self._on_path: set[Path] = set()
        self.modules_before = set(sys.modules)
        shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
        monkeypatch.syspath_prepend(str(self.site))

    def install_games(self) -> None:
        """Make every game under ``games/`` importable and registered, as ``uv sync`` would."""
        from tabletop import games

        for project in sorted(self.root.glob("games/*/pyproject.toml")):
            metadata = tomllib.loads(project.read_text(encoding="utf-8"))["project"]
            name = metadata["name"].replace("-", "_")
            info = self.site / f"{name}-{metadata['version']}.dist-info"
            info.mkdir(exist_ok=True)
            (info / "METADATA").write_text(
                f"Metadata-Version: 2.1\nName: {metadata['name']}\nVersion: {metadata['version']}\n",
                encoding="utf-8",
            )
            lines = []
            for group, points in metadata.get("entry-points", {}).items():
                lines.append(f"[{group}]")
                lines.extend(f"{key} = {value}" for key, value in points.items())
            (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            src = project.parent / "src"
            if src not in self._on_path:
                self._on_path.add(src)
                self._monkeypatch.syspath_prepend(str(src))
        importlib.invalidate_caches()
        games.load.cache_clear()

    def env(self) -> dict[str, str]:
        path = os.pathsep.join([str(self.site), *map(str, sorted(self._on_path))])
        return os.environ | {
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": path,
            "NO_COLOR": "1",
        }

    def forget_imports(self) -> None:
        """Drop modules the page imported from its workspace, and cached game definitions."""
        from tabletop import games

        for name in set(sys.modules) - self.modules_before:
            file = getattr(sys.modules[name], "__file__", None) or ""
            if file.startswith(str(self.root)):
                del sys.modules[name]
        games.load.cache_clear()


def _where(block: Block) -> str:
    return f"{block.page}:{block.line}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_included_file_exists(page: Path) -> None:
    for block in blocks(page):
        for path in re.findall(r'^--8<-- "([^"]+)"$', block.body, flags=re.MULTILINE):
            assert (REPO / path).is_file(), f"{_where(block)}: {path} does not exist"


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[str(p.relative_to(DOCS)) for p in PAGES_WITH_CODE])
def test_every_python_file_block_compiles(page: Path) -> None:
    """The fast tier's check of the files the slow tier writes and runs (the tutorial's game)."""
    for block in blocks(page):
        if block.file is not None and block.file.endswith(".py"):
            compile(block.body, _where(block), "exec", dont_inherit=True)


def test_every_page_is_found_and_has_code() -> None:
    assert len(PAGES) >= 20
    assert {"tutorial.md", "how-to/hidden-information.md"} <= {
        b.page for p in PAGES_WITH_CODE for b in blocks(p)
    }


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_fence_is_closed_and_shell_blocks_are_sh(page: Path) -> None:
    fences = [line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("```")]
    assert len(fences) % 2 == 0, f"{page}: a code fence is not closed"
    assert sum(1 for _ in blocks(page)) == len(fences) // 2
    for block in blocks(page):
        if block.lang in ("bash", "shell", "console", "sh-session"):
            pytest.fail(
                f"{_where(block)}: write shell commands as ```sh (run) with or without a not-run note"
            )


@pytest.mark.parametrize("page", PAGE_PARAMS)
def test_page_code_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = Workspace(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)
    # "__main__" is in sys.modules: pydantic registers generic classes parametrized at top level there
    namespace: dict[str, object] = {"__name__": "__main__"}
    try:
        for block in blocks(page):
            if block.file is not None:
                target = tmp_path / block.file
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(block.body, encoding="utf-8")
                workspace.install_games()
            elif not block.runs:
                continue
            elif block.lang == "python":
                exec(compile(block.body, _where(block), "exec", dont_inherit=True), namespace)
            else:
                done = subprocess.run(
                    ["bash", "-euo", "pipefail", "-c", block.body],
                    cwd=tmp_path,
                    env=workspace.env(),
                    capture_output=True,
                    text=True,
                    timeout=300,
                    check=False,
                )
                assert done.returncode == 0, f"{_where(block)}:\n{block.body}\n{done.stdout}{done.stderr}"
                workspace.install_games()
    finally:
        workspace.forget_imports()
