"""Boundary parsing: untrusted JSON (bytes, text or a decoded mapping) to a typed action."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Generic, Literal, TypeVar, Union, get_args, get_origin

import orjson
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from tabletop._assembly import Recipe, assemble, direct_validator, recipe
from tabletop._copier import fields_set as _fields_set
from tabletop._errors import IllegalActionError
from tabletop._request import (
    DEFAULT_MAX_PAYLOAD_BYTES,
    ENGINE_ASSIGNED_FIELDS,
    MAX_STRING_LENGTH,
    request_model,
)

__all__ = ["ActionParser", "RawAction", "literal_tag", "quote"]

ActionT = TypeVar("ActionT", bound=BaseModel)

RawAction = bytes | bytearray | str | Mapping[str, object] | BaseModel
"""What the parser accepts: JSON bytes or text, a decoded JSON object, or an action model."""

QUOTE_LIMIT = 80
"""The most characters of client input an error message quotes."""

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
_ENUM_REPR = re.compile(r"<[A-Za-z_][\w.]*: ('(?:[^'\\]|\\.)*')>")


def literal_tag(action: type[BaseModel]) -> str | None:
    """The single ``Literal`` value an action model narrows ``type`` to, or None."""
    field = action.model_fields.get("type")
    if field is None or get_origin(field.annotation) is not Literal:
        return None
    values = get_args(field.annotation)
    return str(values[0]) if len(values) == 1 else None


def _clip(text: str) -> str:
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates, escaped
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"


def quote(value: object) -> str:
    """``value`` for an error message: quoted, at most :data:`QUOTE_LIMIT` characters of it."""
    return repr(_clip(value if isinstance(value, str) else type(value).__name__))


def _check_id(value: object) -> None:
    """An action model's id is held to a request's bound (a JSON or mapping id is, by its schema)."""
    if isinstance(value, str) and len(value) > MAX_STRING_LENGTH:
        raise IllegalActionError(
            "invalid-value", f"an action id has at most {MAX_STRING_LENGTH} characters", path="id"
        )


def _too_big(value: object, budget: int) -> bool:
    """True if ``value`` (a decoded JSON value) is certainly over ``budget`` bytes as JSON.

    A plain JSON value is measured as orjson writes it (linear and fast); anything orjson does
    not write is walked, counting at least one byte per item and a string's characters, and
    stopping as soon as the count is over.
    """
    try:
        return len(orjson.dumps(value)) > budget
    except TypeError:
        return _walk_too_big(value, budget)


def _walk_too_big(value: object, budget: int) -> bool:
    todo: list[object] = [value]
    spent = 0
    while todo:
        item = todo.pop()
        spent += 1
        if isinstance(item, str):
            spent += len(item)
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                spent += 1 + (len(key) if isinstance(key, str) else 1)
                todo.append(inner)
                if spent > budget:
                    return True
        elif isinstance(item, list | tuple):
            spent += len(item)
            todo.extend(item[: budget + 1])
        if spent > budget:
            return True
    return False


def _discriminated(models: Sequence[type[BaseModel]]) -> TypeAdapter[BaseModel]:
    # Discriminated even for a single class, so a missing tag is always an error (the exported
    # schemas require it) instead of being filled in by the model's default.
    union: object = Annotated[Union[tuple(models)], Field(discriminator="type")]  # noqa: UP007
    return TypeAdapter(union)  # type: ignore[arg-type]


_set = object.__setattr__


class ActionParser(Generic[ActionT]):
    """Parses untrusted input into one of a game's action classes, discriminated on ``type``.

    Client input (JSON bytes or text, or a decoded mapping) is validated against exactly what
    the game's exported request schema accepts (:func:`tabletop.schemas.request_model`: strict
    scalars, bounded strings and integers, no engine-assigned fields, no system-only action
    types), then built into the game's action class. Every failure is an
    :class:`IllegalActionError` with a stable ``code`` and the path of the offending field:

    - ``payload-too-large``: JSON text over ``max_payload_bytes`` (checked before parsing), or a
      decoded mapping certainly that large as JSON (counted before validating);
    - ``invalid-json``: not JSON, or JSON a client cannot send (e.g. a lone surrogate escape);
    - ``not-an-object``, ``missing-action-type``;
    - ``unknown-action-type``: no action a player may send (the message lists those);
    - ``system-only``: an action type only the game issues (path ``type``);
    - ``missing-field``, ``unexpected-field`` (including ``source``, ``reveals_info``,
      ``created_at`` and ``metadata``, which the engine or host assigns);
    - ``invalid-value``: a wrong type (``"3"``, ``2.0`` or ``true`` for an integer), a value
      out of range, a string too long or not valid Unicode, a number too long to read.

    Messages quote at most 80 characters of the input.

    Args:
        actions: The game's (hydrated) action classes.
        max_payload_bytes: The largest JSON body :meth:`parse` reads, in bytes.
    """

    def __init__(
        self, actions: Sequence[type[ActionT]], *, max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES
    ) -> None:
        if not actions:
            msg = "an action parser needs at least one action class"
            raise ValueError(msg)
        self.max_payload_bytes = max_payload_bytes
        self._by_tag = {str(literal_tag(action)): action for action in actions}
        self._tags = frozenset(self._by_tag)
        self._own: dict[type, Callable[[object], ActionT]] = {
            action: action.__pydantic_validator__.validate_python for action in actions
        }
        """Each own action class's validator (re-validating an instance copies it)."""
        self.system_types: frozenset[str] = frozenset(
            tag for tag, action in self._by_tag.items() if getattr(action, "system_only", False)
        )
        """The action types only the game issues; a client sending one gets ``system-only``."""
        self.player_types: tuple[str, ...] = tuple(
            tag for tag in self._by_tag if tag not in self.system_types
        )
        """The action types a client may send, in declaration order."""
        self.adapter: TypeAdapter[ActionT] = _discriminated(actions)  # type: ignore[assignment]
        """The full action union, as recorded (engine-assigned fields included)."""
        requests = [request_model(self._by_tag[tag]) for tag in self.player_types]
        # An action is assembled from its validated request where nothing needs validating again.
        recipes = {
            request: recipe(self._by_tag[tag], request)
            for tag, request in zip(self.player_types, requests, strict=True)
        }
        built = {request: found for request, found in recipes.items() if found is not None}
        self._recipes: dict[type[BaseModel], Recipe] = {
            request: found for request, found in built.items() if found.assembles
        }
        self._requests_json: Callable[[bytes | bytearray | str], BaseModel] = self._nothing_to_send
        self._requests_python: Callable[[object], BaseModel] = self._nothing_to_send
        if requests:
            adapter = _discriminated(requests)
            self._requests_python = adapter.validate_python
            # JSON is validated once, straight into the action where a recipe allows (the same
            # field schemas as the requests'); a request that comes out is finished by _finish.
            direct = direct_validator(adapter.core_schema, built)
            self._requests_json = adapter.validate_json if direct is None else direct.validate_json
        self._unfinished = frozenset(requests)

    def parse(self, raw: RawAction) -> ActionT:
        """Return the typed action ``raw`` describes (always a fresh object).

        JSON bytes or text and mappings are client input, validated as a request (see the
        class). An action model is the engine's own path (bots, a harness, a replay): an
        instance of one of the parser's action classes is re-validated by its own class, another
        model by the full action union; its ``id`` is held to a request's bound
        (64 characters, ``invalid-value`` at ``id``).

        Raises:
            IllegalActionError: The input is not a valid action request of this game.
        """
        kind = type(raw)
        try:
            if kind is bytes or kind is str or kind is bytearray:
                if len(raw) > self._quick_limit:  # type: ignore[arg-type]
                    self._check_size(raw)  # type: ignore[arg-type]
                built = self._requests_json(raw)  # type: ignore[arg-type]
                return self._finish(built) if type(built) in self._unfinished else built  # type: ignore[return-value]
            if kind in self._own:
                _check_id(raw.__dict__.get("id"))
                own = self._own[kind](raw)
                # pydantic hands the copy the input's own fields-set: never share it
                _fields_set(own, set(raw.__pydantic_fields_set__))  # type: ignore[union-attr]
                return own
            if isinstance(raw, BaseModel):
                _check_id(raw.__dict__.get("id"))
                return self.adapter.validate_python(dict(raw.__dict__))
            if isinstance(raw, Mapping):
                if _too_big(raw, self._max_payload_bytes):
                    raise IllegalActionError(
                        "payload-too-large",
                        f"the action is over {self._max_payload_bytes} bytes as JSON (a body's limit)",
                    )
                tag = raw.get("type")
                if tag is not None and not isinstance(tag, str):  # never let pydantic repr it
                    raise self._unknown(type(tag).__name__)
                return self._finish(self._requests_python(raw))
            if isinstance(raw, bytes | bytearray | str):
                self._check_size(raw)
                built = self._requests_json(raw)
                return self._finish(built) if type(built) in self._unfinished else built  # type: ignore[return-value]
            raise IllegalActionError("not-an-object", "an action is a JSON object")
        except ValidationError as exc:
            raise self._error(exc) from exc

    def _finish(self, request: BaseModel) -> ActionT:
        """The action a validated request describes (validated by its own class unless a recipe says not)."""
        found = self._recipes.get(type(request))
        if found is not None:
            return assemble(found, request)  # type: ignore[no-any-return]
        action = self._by_tag[request.type].__pydantic_validator__.validate_python(request.__dict__)  # type: ignore[attr-defined]
        _set(action, "__pydantic_fields_set__", set(request.__pydantic_fields_set__))
        return action  # type: ignore[no-any-return]

    def parse_recorded(self, raw: RawAction) -> ActionT:
        """Return a recorded action (as the engine logged it, engine-assigned fields included).

        For trusted data only (a host's own log, a snapshot): it is validated by the full
        action union, not held to the request rules.

        Raises:
            IllegalActionError: ``raw`` is not an action of this game.
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
            raise self._error(exc) from exc

    @property
    def max_payload_bytes(self) -> int:
        """The largest JSON body :meth:`parse` reads, in bytes (settable)."""
        return self._max_payload_bytes

    @max_payload_bytes.setter
    def max_payload_bytes(self, limit: int) -> None:
        self._max_payload_bytes = limit
        self._quick_limit = limit // 4  # a str this short is under the limit whatever it holds

    def _nothing_to_send(self, _raw: object) -> BaseModel:
        raise IllegalActionError(
            "unknown-action-type", "this game has no action a player may send", path="type"
        )

    def _check_size(self, raw: bytes | bytearray | str) -> None:
        limit = self.max_payload_bytes
        size = len(raw)
        if isinstance(raw, str) and limit // 4 < size <= limit:
            size = len(raw.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise IllegalActionError(
                "payload-too-large", f"the action is over {limit} bytes (the limit of a request body)"
            )

    def _error(self, exc: ValidationError) -> IllegalActionError:
        first = exc.errors(include_url=False, include_input=False)[0]  # input: never repr'd
        kind = first["type"]
        code = _CODES.get(kind, "invalid-value")
        path = self._path(first["loc"])
        message = _ENUM_REPR.sub(r"\1", first["msg"])
        tag = first.get("ctx", {}).get("tag") if kind == "union_tag_invalid" else None
        if tag in self.system_types:
            return IllegalActionError("system-only", f"only the game issues {tag} actions", path="type")
        if kind == "union_tag_invalid":
            return self._unknown(quote(tag))
        if kind == "union_tag_not_found":
            message, path = "the action has no 'type'", "type"
        elif kind == "extra_forbidden" and path in ENGINE_ASSIGNED_FIELDS:
            message = f"{path!r} is set by the engine, never by a client"
        elif kind == "extra_forbidden":
            message = f"{quote(path)} is not a field of this action"
        elif kind == "json_invalid" and "number out of range" in message:
            code, message = "invalid-value", "a number too long to read"
        return IllegalActionError(code, message, path=path if path is None else _clip(path))

    def _unknown(self, what: str) -> IllegalActionError:
        sendable = ", ".join(self.player_types) or "none"
        message = f"unknown action type {what}; a player may send: {sendable}"
        return IllegalActionError("unknown-action-type", message, path="type")

    def _path(self, where: tuple[int | str, ...]) -> str | None:
        loc = list(where)
        if loc and loc[0] in self._tags:
            loc = loc[1:]  # pydantic names the union member first
        return ".".join(str(part) for part in loc) or None
