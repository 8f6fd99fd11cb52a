"""The public surface is explicit: ``__all__`` lists exactly what the package exports.

The root package holds what a game author and a host use; machinery (checksums, seating,
registries) stays private, and production modules never import the test harness.
"""

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
import tabletop

PUBLIC_MODULES = [
    "tabletop",
    "tabletop.components",
    "tabletop.games",
    "tabletop.testing",
    "tabletop.bots",
    "tabletop.adapters",
    "tabletop.openspiel",
    "tabletop.pettingzoo",
    "tabletop.versions",
    "tabletop.clocks",
]


def _isort_key(name: str) -> tuple[int, str]:
    # isort-style, as ruff sorts __all__: CONSTANTS, then Classes, then functions.
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2), name


ROOT_API = {
    # game authors: models, state machine, errors, randomness
    "ActionSource",
    "AnyState",
    "ChanceAction",
    "ChanceOutcomes",
    "ChanceResolver",
    "GameAction",
    "GameConfig",
    "GameDefinition",
    "GameDefinitionError",
    "GameResult",
    "GameState",
    "Hydrated",
    "HydratedAction",
    "HydratedChanceAction",
    "HydrationInput",
    "IllegalActionError",
    "InvalidStateError",
    "MachineContext",
    "Migration",
    "MigrationError",
    "Model",
    "PlayerState",
    "HasPrng",
    "Prng",
    "PrngState",
    "SimultaneousGroup",
    "StateHandler",
    "TabletopError",
    "TerminalHandler",
    "hydrate",
    # hosts: games, seats, the engine and what it takes and returns
    "ActionParser",
    "Game",
    "GameEngine",
    "GameStatus",
    "Player",
    "PrngKeyError",
    "RawAction",
    "RunResult",
    "UNKEYED",
    "Unkeyed",
    "dump_json",
    "new_prng_key",
}


def test_the_root_exports_exactly_the_author_and_host_api() -> None:
    assert set(tabletop.__all__) == ROOT_API
    assert not {"fnv1a52", "next_checksum"} & set(dir(tabletop))  # checksum internals stay private


SOURCE = Path(tabletop.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_production_modules_never_import_the_test_harness() -> None:
    offenders = [
        str(path.relative_to(SOURCE))
        for path in sorted(SOURCE.rglob("*.py"))
        if path.name != "testing.py" and "tabletop.testing" in _imported_modules(path)
    ]
    assert offenders == []


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "tabletop" or len(parts) < 2:
        return None
    return parts[1] if (SOURCE / parts[1]).is_dir() else None


def test_subpackages_import_each_other_without_cycles() -> None:
    """views, schemas, bots, ...: imports between subpackages (local ones included) form no cycle."""
    graph: dict[str, set[str]] = {}
    for path in SOURCE.rglob("*.py"):
        source = _subpackage("tabletop." + ".".join(path.relative_to(SOURCE).with_suffix("").parts))
        if source is None:
            continue
        targets = {_subpackage(module) for module in _imported_modules(path)}
        graph.setdefault(source, set()).update(t for t in targets if t is not None and t != source)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = sorted(name for name in graph if reaches(name, name, {name}))
    assert cycles == [], {name: sorted(graph[name]) for name in cycles}


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_names_exist_and_are_sorted_and_unique(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported)
    assert sorted(exported, key=_isort_key) == list(exported)  # ruff's RUF022 order
    for attribute in exported:
        assert hasattr(module, attribute), f"{name}.{attribute} is in __all__ but missing"


def test_the_top_level_exports_every_public_class_it_defines() -> None:
    public = {
        attribute
        for attribute, value in vars(tabletop).items()
        if not attribute.startswith("_") and getattr(value, "__module__", "").startswith("tabletop.")
    }
    assert public <= set(tabletop.__all__), public - set(tabletop.__all__)


def test_machinery_lives_in_private_modules() -> None:
    for info in pkgutil.iter_modules(tabletop.__path__):
        if not info.name.startswith("_"):
            assert f"tabletop.{info.name}" in PUBLIC_MODULES or info.ispkg, info.name
