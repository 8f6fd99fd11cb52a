"""tabletop.boards' public surface: explicit, documented, and its docstring examples run."""

import doctest
import importlib
import inspect
import pkgutil

import pytest
import tabletop.boards
from pydantic import BaseModel

MODULES = sorted(f"tabletop.boards.{info.name}" for info in pkgutil.iter_modules(tabletop.boards.__path__))


def test_all_names_exist_are_sorted_unique_and_cover_every_public_object() -> None:
    exported = tabletop.boards.__all__
    assert sorted(exported) == list(exported)
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert hasattr(tabletop.boards, name), name
    public = {
        name
        for name, value in vars(tabletop.boards).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("tabletop.boards.")
    }
    assert public <= set(exported), public - set(exported)
    assert all(module.rsplit(".", 1)[1].startswith("_") for module in MODULES)


@pytest.mark.parametrize("name", tabletop.boards.__all__)
def test_every_public_object_is_documented(name: str) -> None:
    value = getattr(tabletop.boards, name)
    if inspect.isclass(value) or inspect.isfunction(value):
        assert inspect.getdoc(value), name
    if inspect.isclass(value) and issubclass(value, BaseModel):
        for field_name, field in value.model_fields.items():
            assert field.description, f"{name}.{field_name} has no docstring"


@pytest.mark.parametrize("module_name", ["tabletop.boards", *MODULES])
def test_docstring_examples_run(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
