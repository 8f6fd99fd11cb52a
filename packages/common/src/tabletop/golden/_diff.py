"""Compact JSON diffs: JSON-Patch-style ``add``/``remove``/``replace`` operations on JSON values."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import JsonValue

from tabletop._model import Model

__all__ = ["PatchOp", "apply_patch", "json_diff"]


class PatchOp(Model):
    """One change to a JSON value, as in RFC 6902 (``add``, ``remove``, ``replace`` only)."""

    op: Literal["add", "remove", "replace"]
    """What the operation does."""
    path: str
    """A JSON Pointer to the changed place, e.g. ``/players/0/score``; ``""`` is the whole value."""
    value: JsonValue = None
    """The new value (absent for ``remove``)."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _same(a: JsonValue, b: JsonValue) -> bool:
    """Equal as JSON text: ``True`` is not ``1``, ``1.0`` is not ``1`` and ``-0.0`` is not ``0.0``."""
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, float) or math.copysign(1.0, a) == math.copysign(1.0, b)  # type: ignore[arg-type]


def json_diff(old: JsonValue, new: JsonValue, path: str = "") -> list[PatchOp]:
    """The operations that turn ``old`` into ``new``, in an order :func:`apply_patch` can replay.

    Objects are compared key by key and lists index by index (surplus items are added or
    removed at the end), so a change deep inside a state is one small operation.
    """
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[PatchOp] = []
        for key, value in old.items():
            where = f"{path}/{_escape(key)}"
            if key not in new:
                ops.append(PatchOp(op="remove", path=where))
            else:
                ops += json_diff(value, new[key], where)
        ops += [
            PatchOp(op="add", path=f"{path}/{_escape(key)}", value=value)
            for key, value in new.items()
            if key not in old
        ]
        return ops
    if isinstance(old, list) and isinstance(new, list):
        ops = []
        for index, (before, after) in enumerate(zip(old, new, strict=False)):
            ops += json_diff(before, after, f"{path}/{index}")
        ops += [
            PatchOp(op="add", path=f"{path}/{index}", value=new[index]) for index in range(len(old), len(new))
        ]
        ops += [
            PatchOp(op="remove", path=f"{path}/{index}") for index in range(len(old) - 1, len(new) - 1, -1)
        ]
        return ops
    return [] if _same(old, new) else [PatchOp(op="replace", path=path, value=new)]


def _container(document: JsonValue, parts: list[str], path: str) -> dict[str, JsonValue] | list[JsonValue]:
    target = document
    for part in parts:
        if isinstance(target, dict) and part in target:
            target = target[part]
        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        else:
            msg = f"patch path {path!r} does not exist"
            raise ValueError(msg)
    if not isinstance(target, dict | list):
        msg = f"patch path {path!r} does not lead into an object or a list"
        raise ValueError(msg)
    return target


def _copy(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def apply_patch(document: JsonValue, ops: list[PatchOp]) -> JsonValue:
    """Apply ``ops`` to ``document`` in place where possible, returning the result.

    Values are copied in, so the operations are never changed by later ones.

    Raises:
        ValueError: An operation's path does not exist in the document.
    """
    for op in ops:
        if op.path == "":
            if op.op == "remove":
                msg = "cannot remove the whole document"
                raise ValueError(msg)
            document = _copy(op.value)
            continue
        *parents, last = [_unescape(part) for part in op.path.split("/")[1:]]
        target = _container(document, parents, op.path)
        if isinstance(target, dict):
            if op.op != "add" and last not in target:
                msg = f"patch path {op.path!r} does not exist"
                raise ValueError(msg)
            if op.op == "remove":
                target.pop(last)
            else:
                target[last] = _copy(op.value)
            continue
        if not last.isdigit() or int(last) > len(target) or (op.op != "add" and int(last) == len(target)):
            msg = f"patch path {op.path!r} is not an index of the list"
            raise ValueError(msg)
        index = int(last)
        if op.op == "add":
            target.insert(index, _copy(op.value))
        elif op.op == "remove":
            del target[index]
        else:
            target[index] = _copy(op.value)
    return document
