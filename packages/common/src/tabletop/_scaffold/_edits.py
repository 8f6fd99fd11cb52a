"""Small, syntax-aware edits of a game's declaration modules, written the way ruff formats them.

Each edit parses the module, finds its target by name (an enum class, an import block, a list,
dict or tuple literal), splices new text in, and leaves every other byte alone.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from tabletop._scaffold._names import ScaffoldError

__all__ = ["add_class_constant", "add_collection_item", "add_enum_member", "add_import"]

LINE_LENGTH = 110
"""The workspace's ruff line length; collections that fit on one line are written on one."""


def _lines(source: str) -> list[str]:
    return source.splitlines(keepends=True)


def _offset(lines: Sequence[str], line: int, col: int) -> int:
    """Character offset of an ast (1-based line, 0-based UTF-8 byte column) position."""
    text = lines[line - 1]
    return sum(len(previous) for previous in lines[: line - 1]) + len(text.encode()[:col].decode())


def _class(tree: ast.Module, name: str, where: str) -> ast.ClassDef:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    msg = f"{where} has no class {name}"
    raise ScaffoldError(msg)


def add_enum_member(source: str, enum: str, member: str, value: str, *, where: str) -> str:
    """Append ``member = "value"`` to the enum class ``enum``.

    Raises:
        ScaffoldError: No such class, or the member name or value is taken.
    """
    cls = _class(ast.parse(source), enum, where)
    for statement in cls.body:
        if isinstance(statement, ast.Assign):
            target = statement.targets[0]
            taken = isinstance(target, ast.Name) and target.id == member
            if taken or (isinstance(statement.value, ast.Constant) and statement.value.value == value):
                msg = f"{where}: {enum} already has {member} / {value!r}"
                raise ScaffoldError(msg)
    lines = _lines(source)
    end = cls.body[-1].end_lineno
    assert end is not None
    lines.insert(end, f'    {member} = "{value}"\n')
    return "".join(lines)


def add_import(source: str, module: str, name: str) -> str:
    """Add ``from module import name`` to the block of imports from the same top-level package.

    The new line goes where isort puts it (modules in lowercase order); an existing import of
    ``module`` gets ``name`` added to its names.
    """
    tree = ast.parse(source)
    package = module.split(".")[0]
    block = [
        node
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package
    ]
    lines = _lines(source)
    for node in block:
        if node.module == module:
            names = sorted({alias.name for alias in node.names} | {name}, key=_name_key)
            return _replace_node(lines, node, _format_import(module, names))
    if not block:
        msg = f"no imports from {package} to add {module} next to"
        raise ScaffoldError(msg)
    following = [node for node in block if (node.module or "").lower() > module.lower()]
    at = following[0].lineno - 1 if following else _end(block[-1])
    lines.insert(at, _format_import(module, [name]) + "\n")
    return "".join(lines)


def _name_key(name: str) -> tuple[int, str]:
    # isort's order-by-type: CONSTANTS, then Classes, then functions.
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def _format_import(module: str, names: Sequence[str]) -> str:
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= LINE_LENGTH:
        return line
    return f"from {module} import (\n" + "".join(f"    {name},\n" for name in names) + ")"


def _end(node: ast.stmt) -> int:
    assert node.end_lineno is not None
    return node.end_lineno


def _replace_node(lines: list[str], node: ast.stmt | ast.expr, text: str) -> str:
    assert node.end_lineno is not None and node.end_col_offset is not None
    start = _offset(lines, node.lineno, node.col_offset)
    end = _offset(lines, node.end_lineno, node.end_col_offset)
    source = "".join(lines)
    return source[:start] + text + source[end:]


def _collection_text(
    items: Sequence[str], brackets: str, indent: int, prefix_length: int, suffix: str
) -> str:
    """A collection literal the way ruff formats it: on one line if it fits, else one item a line."""
    opening, closing = brackets[0], brackets[1]
    one_item_tuple = "," if brackets == "()" and len(items) == 1 else ""
    flat = opening + ", ".join(items) + one_item_tuple + closing
    if prefix_length + len(flat) + len(suffix) <= LINE_LENGTH:
        return flat
    pad = " " * (indent + 4)
    return opening + "\n" + "".join(f"{pad}{item},\n" for item in items) + " " * indent + closing


def _add_item(
    source: str,
    find: Callable[[ast.Module], ast.expr | None],
    item: str,
    *,
    where: str,
    what: str,
) -> str:
    tree = ast.parse(source)
    node = find(tree)
    if node is None:
        msg = f"{where} has no {what}"
        raise ScaffoldError(msg)
    lines = _lines(source)
    if isinstance(node, ast.Dict):
        items = [
            f"{ast.get_source_segment(source, key)}: {ast.get_source_segment(source, value)}"
            for key, value in zip(node.keys, node.values, strict=True)
            if key is not None
        ]
        brackets = "{}"
    elif isinstance(node, ast.List | ast.Tuple):
        items = [str(ast.get_source_segment(source, element)) for element in node.elts]
        brackets = "[]" if isinstance(node, ast.List) else "()"
    else:
        msg = f"{where}: {what} is not a literal list, tuple or dict"
        raise ScaffoldError(msg)
    if item in items:
        msg = f"{where}: {what} already holds {item}"
        raise ScaffoldError(msg)
    first_line = lines[node.lineno - 1]
    indent = len(first_line) - len(first_line.lstrip())
    prefix_length = len(first_line.encode()[: node.col_offset].decode())
    assert node.end_lineno is not None and node.end_col_offset is not None
    suffix = lines[node.end_lineno - 1].encode()[node.end_col_offset :].decode().rstrip("\n")
    text = _collection_text([*items, item], brackets, indent, prefix_length, suffix)
    return _replace_node(lines, node, text)


def add_collection_item(source: str, variable: str, item: str, *, where: str) -> str:
    """Add ``item`` (source text) to the collection assigned to ``variable``.

    ``variable`` names a module-level assignment (``state_handlers = {...}``) or a keyword
    argument of a module-level call (``actions=[...]`` in ``GameDefinition(...)``). For a dict,
    ``item`` is ``"key: value"``.

    Raises:
        ScaffoldError: No such collection, or it already holds ``item``.
    """

    def find(tree: ast.Module) -> ast.expr | None:
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == variable for t in targets):
                    return node.value
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                for keyword in node.value.keywords:
                    if keyword.arg == variable:
                        return keyword.value
        return None

    return _add_item(source, find, item, where=where, what=f"collection {variable!r}")


def add_class_constant(source: str, cls: str, attribute: str, item: str, *, where: str) -> str:
    """Add ``item`` to the tuple a class assigns to ``attribute`` (``transitions_to = (...)``).

    Raises:
        ScaffoldError: No such class or attribute, or the tuple already holds ``item``.
    """

    def find(tree: ast.Module) -> ast.expr | None:
        for statement in _class(tree, cls, where).body:
            if isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                if any(isinstance(t, ast.Name) and t.id == attribute for t in targets):
                    return statement.value
        return None

    return _add_item(source, find, item, where=where, what=f"{cls}.{attribute}")
