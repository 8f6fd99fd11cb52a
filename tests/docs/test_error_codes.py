"""The error-code reference lists exactly the codes the code can raise.

The codes are found in the source with ``ast`` (framework, server and every game under
``games/``), so a code added without documentation, or documented but gone, fails this test
with its name and where it is raised. A code is:

- a string literal passed to an error class (a name ending in ``Error`` that is not a Python
  built-in) as its first argument or its ``code=`` keyword, or among its other positional
  arguments when it looks like a code (kebab-case with a hyphen);
- a string literal assigned to a variable named ``code`` (``code = "a" if ... else "b"``);
- a value of a dict literal bound to a name containing ``CODE`` (a table of codes), and the
  default of a ``.get()`` on such a name.
- the default of a parameter named ``code`` (``def __init__(self, ..., code: str = "a")``).

``InvariantError`` codes are the invariants ``tabletop simulate`` reports; they have their own
table on the page. ``GameDefinitionError`` takes a game name, not a code.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "reference" / "errors.md"
SOURCES = sorted(
    path
    for pattern in ("packages/*/src/**/*.py", "games/*/src/**/*.py")
    for path in REPO.glob(pattern)
    if "__pycache__" not in path.parts
)
NO_STATUS = {"—", "varies"}
"""A code no HTTP client receives as such, or one whose status is the underlying HTTP error's."""

_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
_NOT_CODES = {"GameDefinitionError"}
_INVARIANTS = "InvariantError"


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _literal(node: ast.expr | None) -> list[str]:
    """String constants that ``node`` evaluates to: a literal or either branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literal(node.body) + _literal(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        table = node.func.value  # {"kind": "code", ...}.get(kind, "default")
        values = list(table.values) if isinstance(table, ast.Dict) else []
        return [c for v in values for c in _literal(v)] + [c for a in node.args[1:] for c in _literal(a)]
    return []


def raised_codes() -> dict[str, dict[str, set[str]]]:
    """{"errors" | "invariants": {code: {"file:line", ...}}} for every code in the source."""
    found: dict[str, dict[str, set[str]]] = {"errors": defaultdict(set), "invariants": defaultdict(set)}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(REPO))
        for node in ast.walk(tree):
            codes: list[str] = []
            table = "errors"
            if isinstance(node, ast.Call):
                callee = _name(node.func)
                if callee.endswith("Error") and callee not in dir(builtins) and callee not in _NOT_CODES:
                    table = "invariants" if callee == _INVARIANTS else "errors"
                    if node.args:
                        codes += [c for c in _literal(node.args[0]) if _CODE.match(c)]
                    for arg in node.args[1:]:
                        codes += [c for c in _literal(arg) if _KEBAB.match(c)]
                    for keyword in node.keywords:
                        if keyword.arg == "code":
                            codes += _literal(keyword.value)
                elif (
                    callee == "get"
                    and isinstance(node.func, ast.Attribute)
                    and "CODE" in _name(node.func.value).upper()
                    and len(node.args) == 2
                ):
                    codes += _literal(node.args[1])
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                signature = node.args
                positional = [*signature.posonlyargs, *signature.args]
                params = [*positional, *signature.kwonlyargs]
                padding: list[ast.expr | None] = [None] * (len(positional) - len(signature.defaults))
                defaults = [*padding, *signature.defaults, *signature.kw_defaults]
                for param, default in zip(params, defaults, strict=True):
                    if param.arg == "code":
                        codes += [c for c in _literal(default) if _KEBAB.match(c)]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [_name(t) for t in targets]
                if "code" in names:
                    codes += [c for c in _literal(node.value) if _KEBAB.match(c)]
                if any("CODE" in name.upper() for name in names) and isinstance(node.value, ast.Dict):
                    codes += [c for value in node.value.values for c in _literal(value)]
            for code in codes:
                found[table][code].add(f"{where}:{getattr(node, 'lineno', 0)}")
    return found


def documented_codes() -> dict[str, dict[str, list[str]]]:
    """{"errors" | "invariants": {code: [cells...]}} from the page's two tables."""
    tables: dict[str, dict[str, list[str]]] = {"errors": {}, "invariants": {}}
    current = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            current = "invariants" if "invariant" in line.lower() else "errors"
        elif line.startswith("| `") and current is not None:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            code = cells[0].strip("`")
            assert code not in tables[current], f"{code} is listed twice"
            tables[current][code] = cells[1:]
    return tables


def test_the_scan_finds_codes_from_every_kind_of_place() -> None:
    codes = raised_codes()["errors"]
    # a literal argument, a conditional assignment, a code table and its .get() default
    assert {"game-over", "unknown-player", "unexpected-field", "invalid-value"} <= set(codes)
    assert "square-taken" in codes  # a game's own code
    assert "invalid-state" in codes  # the default of an error's ``code`` parameter
    assert {"checksum", "view-leaks"} <= set(raised_codes()["invariants"])


def test_every_raised_error_code_is_documented_and_every_documented_one_is_raised() -> None:
    raised = raised_codes()
    documented = documented_codes()
    problems = []
    for table in ("errors", "invariants"):
        for code in sorted(set(raised[table]) - set(documented[table])):
            problems.append(
                f"missing from the {table} table: {code} (raised at {sorted(raised[table][code])})"
            )
        for code in sorted(set(documented[table]) - set(raised[table])):
            problems.append(f"documented in the {table} table but raised nowhere: {code}")
    assert not problems, "\n".join(problems)


def test_every_documented_error_code_has_the_servers_status_a_meaning_and_a_source() -> None:
    from tabletop_server._errors import status_of

    wrong = []
    for code, cells in documented_codes()["errors"].items():
        status, meaning, source = cells
        assert meaning and source, f"{code}: needs a meaning and where it comes from"
        if status not in NO_STATUS and status != str(status_of(code)):
            wrong.append(f"{code}: the page says {status}, the server answers {status_of(code)}")
    assert not wrong, "\n".join(wrong)


MARKDOWN = sorted(
    path
    for path in REPO.rglob("*.md")
    if not {"node_modules", ".venv", "site", ".tools"} & set(path.relative_to(REPO).parts)
)
"""Every Markdown page of the repository: the docs site, README files, ``packages/server/API.md``."""

_INLINE_KEBAB = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`")
_QUOTED_CODE = re.compile(r"""(?:"code"\s*:\s*|\.code\s*==\s*|code=)["']([a-z][a-z0-9-]*)["']""")
OTHER_WORDS = {"apt-get", "data-testid", "svelte-check", "dice-duel", "game-1", "tabletop-nim"}
OTHER_WORDS |= {"your-turn", "match-finished", "clock-low"}  # webhook event types
OTHER_WORDS |= {"per-turn"}  # a clock's control type
"""Kebab-case words in code spans that are not error codes: a tool, an attribute, examples' names."""


def _other_names() -> set[str]:
    """Kebab-case names of the repository's own things: games, UI projects, Python packages."""
    names = {path.name for path in (REPO / "games").iterdir() if path.is_dir()}
    names |= {path.name for path in (REPO / "games-ui").iterdir() if path.is_dir()}
    names |= {f"tabletop-{path.name}" for path in (REPO / "packages").iterdir() if path.is_dir()}
    return names


def _ui_names() -> tuple[set[str], tuple[str, ...]]:
    """The UI's ``data-testid`` values (and the prefixes of computed ones, ``legal-${i}``)."""
    static: set[str] = set()
    prefixes: set[str] = {"data-"}  # HTML data attributes: data-index, data-status
    for path in (REPO / "games-ui").glob("*/src/**/*"):
        if "node_modules" in path.parts or path.suffix not in {".svelte", ".ts"}:
            continue
        text = path.read_text(encoding="utf-8")
        static |= set(re.findall(r'data-testid="([a-z0-9-]+)"', text))
        prefixes |= set(re.findall(r"data-testid=\{`([a-z0-9-]+)\$\{", text))
    return static, tuple(sorted(prefixes))


def documented_anywhere(text: str) -> set[str]:
    """Codes a page shows: kebab-case code spans, and ``"code": "..."`` / ``.code == "..."`` literals."""
    return set(_INLINE_KEBAB.findall(text)) | set(_QUOTED_CODE.findall(text))


def test_the_page_scan_finds_codes_in_spans_and_in_json() -> None:
    text = 'A `seat-taken` answer; {"code": "stale-index"}; `assert error.code == "game-over"`'
    assert documented_anywhere(text) == {"seat-taken", "stale-index", "game-over"}


def test_every_code_any_page_names_is_one_the_code_raises() -> None:
    raised = raised_codes()
    test_ids, prefixes = _ui_names()
    known = set(raised["errors"]) | set(raised["invariants"]) | _other_names() | OTHER_WORDS | test_ids
    unknown = [
        f"{path.relative_to(REPO)}: {code}"
        for path in MARKDOWN
        for code in sorted(documented_anywhere(path.read_text(encoding="utf-8")) - known)
        if not code.startswith(prefixes)
    ]
    assert any(path.name == "API.md" for path in MARKDOWN)
    assert not unknown, "codes no code raises (a typo, or a code renamed):\n" + "\n".join(unknown)
