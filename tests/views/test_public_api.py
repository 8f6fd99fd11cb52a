"""The views package's public surface is explicit and its machinery private."""

import pkgutil

import tabletop.views


def test_all_names_exist_and_are_unique() -> None:
    exported = tabletop.views.__all__
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert hasattr(tabletop.views, name), name


def test_machinery_lives_in_private_modules() -> None:
    assert all(info.name.startswith("_") for info in pkgutil.iter_modules(tabletop.views.__path__))


def test_every_policy_is_exported() -> None:
    policies = {cls.__name__ for cls in tabletop.views.Visibility.__subclasses__()}
    assert policies <= set(tabletop.views.__all__)
    assert policies == {"Public", "OwnerOnly", "HostOnly", "CountOnly", "OrderOnly", "CustomVisibility"}
