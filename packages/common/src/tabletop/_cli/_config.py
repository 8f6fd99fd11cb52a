"""``--config``: a game's options on the command line, as JSON or a JSON file, checked by its model."""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson
from pydantic import ValidationError

from tabletop._definition import GameDefinition
from tabletop._errors import IllegalActionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState

__all__ = ["add_config_argument", "read_config"]


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--config JSON|FILE`` to a subcommand."""
    parser.add_argument(
        "--config",
        default=None,
        metavar="JSON|FILE",
        help="the game's options as a JSON object (e.g. '{\"target\": 50}') or a JSON file; "
        "checked against the game's config schema (default: every option's default)",
    )


def read_config(definition: GameDefinition[AnyState, GameConfig], text: str | None) -> GameConfig | None:
    """The config ``--config`` gives: None without one, else the game's validated config model.

    ``text`` is a JSON object, or the path of a file holding one.

    Raises:
        IllegalActionError: Code ``invalid-config``: neither JSON nor a readable file, not an
            object, or it does not fit the game's config model (``path``: the offending option).
    """
    if text is None:
        return None
    source = text
    if not text.lstrip().startswith("{"):
        path = Path(text)
        if not path.is_file():
            msg = f"--config {text!r} is neither a JSON object nor a file"
            raise IllegalActionError("invalid-config", msg)
        source = path.read_text(encoding="utf-8")
    try:
        data = orjson.loads(source)
    except orjson.JSONDecodeError as error:
        raise IllegalActionError("invalid-config", f"the config is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise IllegalActionError("invalid-config", "the config must be a JSON object of options")
    try:
        return definition.config_type.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or None
        options = ", ".join(definition.config_type.model_fields) or "none"
        msg = f"{first['msg']} (the options of {definition.name}: {options})"
        raise IllegalActionError("invalid-config", msg, path=where) from None
