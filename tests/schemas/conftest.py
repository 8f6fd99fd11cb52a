"""Shared fixtures: one export of every installed game, and Python models generated from it.

``tabletop`` is imported inside the fixtures: a conftest is imported before typeguard's plugin
instruments the packages, and the plugin refuses packages that are already imported.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def schemas_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary schemas folder holding a fresh export of every installed game."""
    from tabletop.schemas import export_schemas

    root = tmp_path_factory.mktemp("schemas")
    export_schemas(root)
    return root


@pytest.fixture(scope="session")
def exported(schemas_root: Path) -> dict[str, bytes]:
    """The files of that export, by path relative to the schemas folder."""
    from tabletop.schemas import read_schemas

    return read_schemas(schemas_root)


@pytest.fixture(scope="session")
def client(schemas_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    """The Python client generated from that export: its modules by name (``sample``, ``common``)."""
    from tabletop.schemas import generate_python

    parent = tmp_path_factory.mktemp("client")
    package = parent / "tabletop_generated_client"
    written = generate_python(package, schemas_root)
    sys.path.insert(0, str(parent))
    try:
        names = sorted(path.stem for path in written if path.suffix == ".py" and path.stem != "__init__")
        yield {name: importlib.import_module(f"{package.name}.{name}") for name in names}
    finally:
        sys.path.remove(str(parent))
        for name in [name for name in sys.modules if name.startswith(package.name)]:
            del sys.modules[name]
