"""Boundary parsing: untrusted JSON (bytes, text or a decoded mapping) to a typed action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from tabletop._errors import IllegalActionError

__all__ = ["ActionParser", "RawAction", "literal_tag"]

ActionT = TypeVar("ActionT", bound=BaseModel)

RawAction = bytes | bytearray | str | Mapping[str, object] | BaseModel
"""What the parser accepts: JSON bytes or text, a decoded JSON object, or an action model."""

_CODES = {
    "json_invalid": "invalid-json",
    "json_type": "invalid-json",
    "model_type": "not-an-object",
    "model_attributes_type": "not-an-object",
    "dict_type": "not-an-object",
    "union_tag_invalid": "unknown-action-type",
    "union_tag_not_found": "missing-action-type",
    "missing": "missing-field",
    "extra_forbidden": "unexpected-field",
}


def literal_tag(action: type[BaseModel]) -> str | None:
    """The single ``Literal`` value an action model narrows ``type`` to, or None."""
    field = action.model_fields.get("type")
    if field is None or get_origin(field.annotation) is not Literal:
        return None
    values = get_args(field.annotation)
    return str(values[0]) if len(values) == 1 else None


def _path(error: ErrorDetails, tags: frozenset[str]) -> str | None:
    loc = list(error["loc"])
    if loc and loc[0] in tags:
        loc = loc[1:]  # pydantic names the union member first
    return ".".join(str(part) for part in loc) or None


class ActionParser(Generic[ActionT]):
    """Parses untrusted input into one of a game's action classes, discriminated on ``type``.

    Every failure is an :class:`IllegalActionError` with a stable ``code`` (``invalid-json``,
    ``not-an-object``, ``unknown-action-type``, ``missing-action-type``, ``missing-field``,
    ``unexpected-field``, ``invalid-value``) and the path of the offending field.
    """

    def __init__(self, actions: Sequence[type[ActionT]]) -> None:
        if not actions:
            msg = "an action parser needs at least one action class"
            raise ValueError(msg)
        self._tags = frozenset(str(literal_tag(action)) for action in actions)
        self._own = frozenset(actions)
        # Discriminated even for a single action class, so a missing tag is always an error
        # (the exported schemas require it) instead of being filled in by the model's default.
        union: object = Annotated[Union[tuple(actions)], Field(discriminator="type")]  # noqa: UP007
        self.adapter: TypeAdapter[ActionT] = TypeAdapter(union)  # type: ignore[arg-type]

    def parse(self, raw: RawAction) -> ActionT:
        """Return the typed action ``raw`` describes (always a fresh object).

        An instance of one of the parser's own action classes is re-validated by its own class
        (its type is known, so the union is not searched); it is validated all the same.

        Raises:
            IllegalActionError: The input is not a valid action of this game.
        """
        try:
            if type(raw) in self._own:
                return raw.__pydantic_validator__.validate_python(raw)  # type: ignore[union-attr, no-any-return]
            if isinstance(raw, bytes | bytearray | str):
                return self.adapter.validate_json(raw)
            if isinstance(raw, BaseModel):
                raw = dict(raw.__dict__)
            return self.adapter.validate_python(raw)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            code = _CODES.get(first["type"], "invalid-value")
            raise IllegalActionError(code, first["msg"], path=_path(first, self._tags)) from exc
