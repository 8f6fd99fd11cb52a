"""The public surface is explicit: ``__all__`` lists exactly what the package exports."""

import importlib
import pkgutil

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
]


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_names_exist_and_are_sorted_and_unique(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert len(set(exported)) == len(exported)
    assert sorted(exported) == list(exported)
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
