"""typeguard support for pydantic generic models, loaded through typeguard's plugin entry point.

A top-level module (not inside ``tabletop``) so that typeguard can load it before it instruments
the ``tabletop`` package.

pydantic parametrizes a generic model by creating a new class (``Game[SampleConfig]``), which
is not a superclass of other parametrizations. typeguard would then reject a
``Game[SampleConfig]`` where ``Game[ConfigT]`` is annotated. This lookup checks instances and
subclasses of such classes against the generic origin instead; mypy checks the parameters.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["checker_lookup"]

Checker = Callable[[object, object, tuple[object, ...], object], None]


def _generic_origin(annotation: object) -> type | None:
    metadata = getattr(annotation, "__pydantic_generic_metadata__", None)
    if isinstance(annotation, type) and metadata and metadata.get("origin") is not None:
        origin: type = metadata["origin"]
        return origin
    return None


def _check_instance(value: object, origin_type: object, args: tuple[object, ...], memo: object) -> None:
    from typeguard import TypeCheckError

    origin = _generic_origin(origin_type)
    assert origin is not None
    if not isinstance(value, origin):
        msg = f"is not an instance of {origin.__qualname__}"
        raise TypeCheckError(msg)


def _check_subclass(value: object, origin_type: object, args: tuple[object, ...], memo: object) -> None:
    from typeguard import TypeCheckError

    origin = _generic_origin(args[0])
    assert origin is not None
    if not (isinstance(value, type) and issubclass(value, origin)):
        msg = f"is not a subclass of {origin.__qualname__}"
        raise TypeCheckError(msg)


def _is_json(value: object) -> bool:
    if value is None or isinstance(value, str | bool | int | float):
        return True
    if isinstance(value, list):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return False


def _check_json(value: object, origin_type: object, args: tuple[object, ...], memo: object) -> None:
    from typeguard import TypeCheckError

    if not _is_json(value):
        msg = "is not a JSON value"
        raise TypeCheckError(msg)


def checker_lookup(
    origin_type: object, args: tuple[object, ...], extras: tuple[object, ...]
) -> Checker | None:
    """Return a checker for parametrized pydantic generic models, or None for anything else.

    Also checks pydantic's recursive ``JsonValue`` alias, whose members refer to it by name
    (``"JsonValue"``), a forward reference typeguard cannot resolve.
    """
    if origin_type == "JsonValue":
        return _check_json
    if _generic_origin(origin_type) is not None:
        return _check_instance
    if origin_type is type and len(args) == 1 and _generic_origin(args[0]) is not None:
        return _check_subclass
    return None
