"""Building a game's actions straight from validated requests, without validating them twice.

A request model (:func:`tabletop._request.request_model`) holds exactly what a client may send;
the action it describes is the game's action class with the engine-assigned fields at their
defaults. Where an action adds nothing to validate beyond its request (no validators of its own,
nested models only as direct fields), a *recipe* says how to build it from the request's values.

Two uses: :func:`assemble` builds the action from a validated request instance (a decoded
mapping's path: the mapping may hold objects the caller keeps, so everything is built anew),
and :func:`direct_validator` wraps the game's request union so that JSON (where every object is
fresh) is validated by the very same request models and then turned into the action in place
(:func:`converter`: the engine-assigned defaults added, each object given its model's class),
one validation and no second object per model.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union, cast, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import CoreSchema, SchemaValidator

from tabletop._request import ENGINE_ASSIGNED_FIELDS

__all__ = ["Recipe", "assemble", "direct_validator", "recipe"]

_set = object.__setattr__


def _models_in(annotation: object) -> set[type[BaseModel]]:
    """The model classes a type expression mentions (inside containers, unions, ``Annotated``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {annotation}
    return set().union(*(_models_in(arg) for arg in get_args(annotation)))


def _walkable(annotation: object) -> bool:
    """True if every model in ``annotation`` sits in lists, tuples or unions (what a converter walks)."""
    if isinstance(annotation, type):
        return True
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _walkable(args[0])
    if origin in (list, tuple, Union, types.UnionType):
        return all(_walkable(arg) for arg in args if arg is not Ellipsis)
    return not _models_in(annotation)


@dataclass(frozen=True, slots=True)
class Recipe:
    """How to build a model from its validated request without validating it again."""

    model: type[BaseModel]
    """The model built."""
    request: type[BaseModel]
    """The request (or nested input) model it is built from."""
    template: dict[str, object]
    """The model's fields in order; engine-assigned ones at their (constant) defaults."""
    nested: tuple[tuple[str, Recipe], ...]
    """Fields holding a nested model's request form, and how to build that model."""
    contained: tuple[Recipe, ...]
    """Models inside a field's container or union (only the compiled validator builds those)."""

    @property
    def assembles(self) -> bool:
        """True if :func:`assemble` can build the model (no nested model inside a container)."""
        return not self.contained and all(inner.assembles for _, inner in self.nested)

    def walk(self) -> Iterator[Recipe]:
        """This recipe and every nested one."""
        yield self
        for inner in (*(inner for _, inner in self.nested), *self.contained):
            yield from inner.walk()


def _adds_nothing(model: type[BaseModel], request: type[BaseModel]) -> bool:
    """True if ``model`` validates nothing beyond its request's fields (engine ones aside)."""
    decorators = model.__pydantic_decorators__
    own_validators = set(decorators.model_validators) - {"_accept_plain_instance"}  # Hydrated's
    engine = ENGINE_ASSIGNED_FIELDS & set(model.model_fields)
    return not (
        own_validators
        or decorators.field_validators
        or decorators.validators
        or decorators.root_validators
        or model.__pydantic_post_init__ is not None
        or model.__private_attributes__
        or set(request.model_fields) | engine != set(model.model_fields)
    )


def recipe(model: type[BaseModel], request: type[BaseModel]) -> Recipe | None:
    """A recipe if ``model`` is exactly its request's values plus constant defaults, else None.

    That holds when the model adds no validators of its own and no private attributes, and each
    nested model is the plain model its input form derives from (not a hydrated one), recursively.
    """
    if not _adds_nothing(model, request):
        return None
    nested, contained = [], []
    for name, field in request.model_fields.items():
        annotation, target = field.annotation, model.model_fields[name].annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            inner = recipe(target, annotation) if annotation.__bases__ == (target,) else None  # type: ignore[arg-type]
            if inner is None:
                return None
            nested.append((name, inner))
            continue
        inputs = _models_in(annotation)
        if inputs and not _walkable(annotation):
            return None
        if {base for model_in in inputs for base in model_in.__bases__} != _models_in(target):
            return None  # a model the action holds in another (e.g. hydrated) form
        for model_in in inputs:
            inner = recipe(model_in.__bases__[0], model_in) if len(model_in.__bases__) == 1 else None
            if inner is None:
                return None
            contained.append(inner)
    engine = ENGINE_ASSIGNED_FIELDS & set(model.model_fields)
    defaults = {name: model.model_fields[name].default for name in engine}
    if not all(value is None or isinstance(value, str) for value in defaults.values()):
        return None
    template = {name: defaults.get(name) for name in model.model_fields}
    return Recipe(model, request, template, tuple(nested), tuple(contained))


def assemble(recipe: Recipe, request: BaseModel) -> Any:
    """The model from its validated request: what ``model_construct`` does, without its loop."""
    assembled = object.__new__(recipe.model)
    values = recipe.template.copy()
    values.update(request.__dict__)
    for name, inner in recipe.nested:
        values[name] = assemble(inner, values[name])  # type: ignore[arg-type]
    _set(assembled, "__dict__", values)
    _set(assembled, "__pydantic_fields_set__", set(request.__pydantic_fields_set__))
    _set(assembled, "__pydantic_extra__", None)
    _set(assembled, "__pydantic_private__", None)
    return assembled


def _within(value: object, converters: Mapping[type, Callable[[Any], object] | type]) -> None:
    """Convert every request-form model inside ``value`` (a model, list or tuple of them).

    A converter that is a class is the model's class, all the conversion needs (no call).
    """
    convert = converters.get(type(value))
    if convert is None:
        if type(value) is list or type(value) is tuple:
            for item in value:
                convert = converters.get(type(item))
                if isinstance(convert, type):
                    _set(item, "__class__", convert)
                else:
                    _within(item, converters)
    elif isinstance(convert, type):
        _set(value, "__class__", convert)
    else:
        convert(value)


def _in_order(recipe: Recipe) -> bool:
    """True if the request's values are the model's, in order (no engine-assigned field to add)."""
    return list(recipe.template) == list(recipe.request.model_fields)


def _class_only(recipe: Recipe) -> bool:
    """True if the request form becomes its model by taking the model's class, nothing else."""
    return _in_order(recipe) and not recipe.nested and not recipe.contained


def converter(recipe: Recipe, *, filled: bool = False) -> Callable[[Any], BaseModel]:
    """Turns a freshly validated request (nothing else holds it) into its model, in place.

    The request's values become the model's (engine-assigned fields at their defaults, in the
    model's field order, unless ``filled`` says the validator put them there) and each object
    takes its model's class: what :func:`assemble` builds, without a second object per model.
    """
    model = recipe.model
    template = None if filled or _in_order(recipe) else recipe.template
    # a nested model that only changes class is switched here (no call per nested object)
    swaps = tuple((name, inner.model) for name, inner in recipe.nested if _class_only(inner))
    nested = tuple((name, converter(inner)) for name, inner in recipe.nested if not _class_only(inner))
    contained: dict[type, Callable[[Any], object] | type] = {
        inner.request: inner.model if _class_only(inner) else converter(inner) for inner in recipe.contained
    }
    deep = tuple(
        name
        for name, field in recipe.request.model_fields.items()
        if name not in dict(recipe.nested) and _models_in(field.annotation)
    )

    def convert(built: BaseModel) -> BaseModel:
        values = built.__dict__
        if template is not None:
            values = template | values  # the template's order, the request's values
            _set(built, "__dict__", values)
        _set(built, "__class__", model)
        for name, cls in swaps:
            _set(values[name], "__class__", cls)
        for name, inner in nested:
            inner(values[name])
        for name in deep:
            _within(values[name], contained)
        return built

    return convert


_NEVER = {
    "type": "custom-error",
    "custom_error_type": "extra_forbidden",
    "schema": {"type": "literal", "expected": [object()]},
}
"""A schema no value passes, failing as an unexpected field does."""


def _filled(choice: dict[str, Any], recipe: Recipe) -> dict[str, Any] | None:
    """The request's model schema, also writing the engine-assigned defaults in the model's order.

    An engine-assigned field is not looked up by its name, so a client sending ``source`` still
    gets ``extra_forbidden`` exactly where the request reports it (after every field); it reads
    only its name followed by a NUL (``"source\\u0000"``), which nothing sends but which, sent,
    fails the same way (``extra_forbidden`` at that key). The schema builds a class pydantic has
    not completed (a bare subclass of the request), because for a completed model pydantic-core
    uses the model's own validator instead of the schema; :func:`converter` gives the object
    its model's class.
    """
    fields_schema = choice.get("schema", {})
    fields = fields_schema.get("fields", {})
    if (
        choice.get("type") != "model"
        or fields_schema.get("type") != "model-fields"
        or any("validation_alias" in field for field in fields.values())
        or not set(fields) <= set(recipe.template)
    ):
        return None
    filled = {
        name: fields.get(name)
        or {
            "type": "model-field",
            "schema": {"type": "default", "schema": _NEVER, "default": default, "validate_default": False},
            "validation_alias": f"{name}\x00",
        }
        for name, default in recipe.template.items()
    }
    request = recipe.request
    names = {"__module__": request.__module__, "__qualname__": request.__qualname__}
    shell = type.__new__(type(request), request.__name__, (request,), names)
    schema = {key: value for key, value in choice.items() if key != "ref"}
    schema["cls"] = shell
    schema["schema"] = {**fields_schema, "fields": filled}
    schema["config"] = {**choice.get("config", {}), "validate_by_name": False}
    return schema


def _switchable(recipe: Recipe) -> bool:
    """True if an instance of the request form may take its model's class (the same layout)."""
    probe = object.__new__(recipe.request)
    try:
        _set(probe, "__class__", recipe.model)
    except TypeError:
        return False
    return True


def direct_validator(union: CoreSchema, recipes: Mapping[type, Recipe]) -> SchemaValidator | None:
    """A validator for JSON against the request ``union`` (tagged on ``type``) that ends in actions.

    Each choice is validated by its request model exactly as before; a choice whose request has
    a recipe (keyed by request class) then becomes its action in place (:func:`converter`), the
    others stay requests. None if the union is not a tagged union of request models.
    """
    schema: Mapping[str, object] = union
    given = schema.get("choices")
    if schema.get("type") != "tagged-union" or not isinstance(given, dict):
        return None
    choices: dict[object, object] = {}
    for tag, choice in given.items():
        cls = choice.get("cls") if isinstance(choice, dict) else None
        found = recipes.get(cls) if isinstance(cls, type) else None
        choices[tag] = choice
        if found is not None and all(_switchable(inner) for inner in found.walk()):
            filled = _filled(choice, found)
            function = {"type": "no-info", "function": converter(found, filled=filled is not None)}
            choices[tag] = {"type": "function-after", "function": function, "schema": filled or choice}
    return SchemaValidator(cast(CoreSchema, {**schema, "choices": choices}))
