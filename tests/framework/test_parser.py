"""The boundary parser: client input is held to exactly what the exported request schema accepts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

import pytest
from pydantic import Field, field_validator
from tabletop import (
    ActionParser,
    ActionSource,
    GameAction,
    GameDefinitionError,
    GameEngine,
    IllegalActionError,
)
from tabletop.games import available, load
from tabletop.schemas import request_model
from tabletop.testing import GameHarness
from tabletop_fixtures.counter import ACTIONS, HydratedIncrement, make_definition


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


class Kind(StrEnum):
    PAINT = "Paint"
    WIPE = "Wipe"


class Paint(GameAction):
    """Paint a wall."""

    type: Literal[Kind.PAINT] = Kind.PAINT
    """Tag."""
    player_id: str
    """The painter."""
    colour: Colour
    """The paint."""
    coats: int = Field(default=1, ge=1, le=3)
    """How many coats."""
    glossy: bool = False
    """A glossy finish."""
    primer: Literal[Colour.RED] = Colour.RED
    """The only primer there is."""
    note: str = Field(default="", max_length=200)
    """Free text with its own bound."""
    tags: list[str] = Field(default_factory=list, max_length=3)
    """Ids of the walls."""
    count: int = 0
    """An integer without bounds of its own."""


class Wipe(GameAction):
    """The game wipes the wall."""

    system_only = True
    type: Literal[Kind.WIPE] = Kind.WIPE
    """Tag."""


BASE: dict[str, object] = {"id": "a1", "game_id": "g1", "type": "Paint", "player_id": "p1", "colour": "red"}


@pytest.fixture
def parser() -> ActionParser[GameAction]:
    return ActionParser([Paint, Wipe])


def _code(parser: ActionParser[GameAction], raw: object) -> tuple[str, str | None]:
    with pytest.raises(IllegalActionError) as caught:
        parser.parse(raw)  # type: ignore[arg-type]
    return caught.value.code, caught.value.path


def test_a_valid_request_becomes_the_action_from_json_and_from_a_mapping(
    parser: ActionParser[GameAction],
) -> None:
    body = {**BASE, "coats": 3, "glossy": True, "tags": ["w1"], "note": "n" * 200, "index": 4}
    for raw in (body, json.dumps(body), json.dumps(body).encode()):
        action = parser.parse(raw)
        assert isinstance(action, Paint)
        assert (action.colour, action.coats, action.glossy, action.index) == (Colour.RED, 3, True, 4)
        assert (
            action.source is ActionSource.USER and action.metadata is None
            if hasattr(action, "metadata")
            else True
        )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("coats", "3"),
        ("coats", 2.0),
        ("coats", True),
        ("coats", 1.5),
        ("coats", 4),
        ("coats", 0),
        ("count", 2**53),
        ("count", -(2**53)),
        ("index", -1),
        ("glossy", 1),
        ("glossy", "true"),
        ("glossy", None),
        ("colour", "RED"),
        ("colour", "Red"),
        ("colour", 1),
        ("primer", "blue"),
        ("player_id", "p" * 65),
        ("player_id", 7),
        ("id", "x" * 65),
        ("note", "n" * 201),
        ("tags", ["w" * 65]),
        ("tags", ["a", "b", "c", "d"]),
        ("tags", [1]),
    ],
)
def test_strict_values_are_refused_with_invalid_value(
    parser: ActionParser[GameAction], field: str, value: object
) -> None:
    body = {**BASE, field: value}
    for raw in (body, json.dumps(body)):
        code, path = _code(parser, raw)
        assert code == "invalid-value"
        assert path is not None and path.split(".")[0] == field


def test_ids_may_be_sixty_four_characters(parser: ActionParser[GameAction]) -> None:
    action = parser.parse({**BASE, "id": "i" * 64, "game_id": "g" * 64, "player_id": "p" * 64})
    assert len(action.id) == 64


def test_a_literal_error_names_the_value_not_an_enum_repr(parser: ActionParser[GameAction]) -> None:
    with pytest.raises(IllegalActionError) as caught:
        parser.parse({**BASE, "primer": "blue"})
    assert "'red'" in caught.value.message
    assert "Colour" not in caught.value.message and "<" not in caught.value.message


def test_an_integer_too_long_to_print_is_invalid_value_not_a_value_error(
    parser: ActionParser[GameAction],
) -> None:
    assert _code(parser, {**BASE, "coats": 10**5000}) == ("invalid-value", "coats")
    assert _code(parser, {**BASE, "count": -(10**5000)}) == ("invalid-value", "count")
    text = json.dumps(BASE)[:-1] + ', "count": 1' + "0" * 5000 + "}"
    assert _code(parser, text)[0] == "invalid-value"


def test_a_non_string_type_too_long_to_print_is_an_unknown_action_type(
    parser: ActionParser[GameAction],
) -> None:
    assert _code(parser, {**BASE, "type": [10**5000]}) == ("unknown-action-type", "type")


@pytest.mark.parametrize("text", ["\ud800", "ok\udfff", "x\ud83d"])
def test_lone_surrogates_are_refused(parser: ActionParser[GameAction], text: str) -> None:
    assert _code(parser, {**BASE, "id": text}) == ("invalid-value", "id")
    assert _code(parser, {**BASE, "tags": [text]}) == ("invalid-value", "tags.0")
    assert _code(parser, json.dumps({**BASE, "id": text}))[0] == "invalid-json"  # "\ud800" escaped


def test_a_surrogate_pair_is_one_character(parser: ActionParser[GameAction]) -> None:
    action = parser.parse(json.dumps({**BASE, "note": "\U0001f600" * 200}))
    assert isinstance(action, Paint) and len(action.note) == 200


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("source", "user"),
        ("source", "system"),
        ("reveals_info", True),
        ("reveals_info", None),
        ("created_at", "2024-05-01T12:00:00Z"),
        ("metadata", None),
    ],
)
def test_engine_assigned_fields_are_unexpected(
    parser: ActionParser[GameAction], field: str, value: object
) -> None:
    body = {**BASE, field: value}
    for raw in (body, json.dumps(body)):
        assert _code(parser, raw) == ("unexpected-field", field)


def test_the_client_pins_are_accepted(parser: ActionParser[GameAction]) -> None:
    action = parser.parse({**BASE, "index": 3, "simultaneous_group_id": "round-1"})
    assert (action.index, action.simultaneous_group_id) == (3, "round-1")


def test_the_engine_and_trusted_callers_still_carry_engine_fields(parser: ActionParser[GameAction]) -> None:
    when = datetime(2024, 5, 1, 12, tzinfo=UTC)
    model = Paint(
        id="a1", game_id="g1", player_id="p1", colour=Colour.BLUE, source=ActionSource.SYSTEM, created_at=when
    )
    parsed = parser.parse(model)
    assert parsed is not model
    assert (parsed.source, parsed.created_at) == (ActionSource.SYSTEM, when)
    recorded = parser.parse_recorded(model.model_dump_json())
    assert (recorded.source, recorded.created_at) == (ActionSource.SYSTEM, when)


def test_a_system_only_type_is_refused_by_name(parser: ActionParser[GameAction]) -> None:
    body = {"id": "a1", "game_id": "g1", "type": "Wipe"}
    for raw in (body, json.dumps(body), json.dumps(body).encode()):
        assert _code(parser, raw) == ("system-only", "type")
    assert parser.system_types == {"Wipe"} and parser.player_types == ("Paint",)


def test_unknown_action_types_list_only_what_a_player_may_send(parser: ActionParser[GameAction]) -> None:
    with pytest.raises(IllegalActionError) as caught:
        parser.parse({**BASE, "type": "Nope" + "x" * 10_000})
    error = caught.value
    assert (error.code, error.path) == ("unknown-action-type", "type")
    assert error.message.endswith("a player may send: Paint")
    assert "Wipe" not in error.message and "<" not in error.message
    assert len(error.message) < 160  # quotes at most 80 characters of the input


def test_messages_quote_at_most_eighty_characters_of_an_unexpected_field(
    parser: ActionParser[GameAction],
) -> None:
    with pytest.raises(IllegalActionError) as caught:
        parser.parse({**BASE, "k" * 5000: 1})
    assert caught.value.code == "unexpected-field"
    assert len(caught.value.message) < 140 and len(caught.value.path or "") <= 80


@pytest.mark.parametrize("raw", [b"[1, 2]", b'"Paint"', b"3", "null", b"{}"])
def test_anything_but_an_object_is_refused_with_a_code(parser: ActionParser[GameAction], raw: object) -> None:
    assert _code(parser, raw)[0] in {"not-an-object", "missing-action-type", "invalid-json"}


def test_a_payload_over_the_byte_limit_fails_before_parsing() -> None:
    parser: ActionParser[GameAction] = ActionParser([Paint, Wipe], max_payload_bytes=1000)
    padded = json.dumps(BASE) + " " * 1000  # valid JSON, too long
    assert _code(parser, padded) == ("payload-too-large", None)
    assert _code(parser, b"{" * 1001) == ("payload-too-large", None)  # not even read
    multibyte = json.dumps({**BASE, "note": "é" * 460}, ensure_ascii=False)
    assert len(multibyte) < 1000 < len(multibyte.encode())  # counted in bytes, not characters
    assert _code(parser, multibyte) == ("payload-too-large", None)
    parser.max_payload_bytes = 2000
    assert isinstance(parser.parse(padded), Paint)


def test_the_default_byte_limit_is_64_kib(parser: ActionParser[GameAction]) -> None:
    assert parser.max_payload_bytes == 64 * 1024
    assert _code(parser, json.dumps(BASE).encode() + b" " * (64 * 1024)) == ("payload-too-large", None)


def test_the_request_model_is_strict_and_bounded_in_its_schema() -> None:
    schema = request_model(Paint).model_json_schema()
    properties = schema["properties"]
    assert properties["id"]["maxLength"] == 64
    assert properties["note"]["maxLength"] == 200
    assert properties["count"]["maximum"] == 2**53 - 1 and properties["count"]["minimum"] == -(2**53 - 1)
    assert properties["coats"]["maximum"] == 3 and properties["coats"]["minimum"] == 1
    assert properties["tags"]["items"]["maxLength"] == 64
    assert not {"source", "reveals_info", "created_at", "metadata"} & set(properties)
    assert "index" in properties


# -- the installed games through the engine ---------------------------------------------------


def _walk(node: object) -> list[dict[str, object]]:
    found = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found += _walk(value)
    elif isinstance(node, list):
        for value in node:
            found += _walk(value)
    return found


@pytest.mark.parametrize("name", available())
def test_every_string_and_integer_of_a_games_requests_is_bounded(name: str) -> None:
    definition = load(name)
    for tag in definition.parser.player_types:
        schema = request_model(definition.action_by_type[tag]).model_json_schema()
        for node in _walk(schema):
            if node.get("type") == "string" and "enum" not in node and "const" not in node:
                assert "maxLength" in node, (name, tag, node)
            if node.get("type") == "integer":
                assert "maximum" in node and "minimum" in node, (name, tag, node)


SYSTEM_ONLY = [(name, tag) for name in available() for tag in sorted(load(name).parser.system_types)]


@pytest.mark.parametrize(("name", "tag"), SYSTEM_ONLY)
def test_a_user_sent_system_only_type_gets_the_same_code_in_every_game(name: str, tag: str) -> None:
    harness = GameHarness.for_game(name)
    body = {"id": "x1", "game_id": harness.game.id, "type": tag, "player_id": "p1"}
    # The raw bodies carry only the envelope; the model fills its required fields (seat names).
    model_type = harness.definition.action_by_type[tag]
    fields = model_type.model_fields
    missing = {field for field, info in fields.items() if info.is_required() and field not in body}
    filled = {
        field: "2026-11-29T12:00:00Z" if fields[field].annotation is datetime else "p1" for field in missing
    }
    model = model_type.model_validate({**body, **filled})
    before = harness.state.model_dump_json()
    for raw in (body, json.dumps(body), model):
        with pytest.raises(IllegalActionError) as caught:
            harness.engine.run(raw, harness.state, harness.game)
        assert (caught.value.code, caught.value.path) == ("system-only", "type")
    assert harness.state.model_dump_json() == before


def test_go_fish_and_goofspiel_declare_their_system_actions() -> None:
    assert {name: sorted(load(name).parser.system_types) for name in ("go-fish", "goofspiel")} == {
        "go-fish": ["DealCard", "DrawCard", "TimeExpired"],
        "goofspiel": ["Reveal", "RevealPrize", "TimeExpired"],
    }


def test_a_client_cannot_set_what_the_engine_records() -> None:
    harness = GameHarness.for_game("sample")
    (player_id,) = harness.state.active_player_ids
    body = {"id": "a1", "game_id": harness.game.id, "type": "AddAmount", "player_id": player_id, "amount": 2}
    for field, value in (("reveals_info", True), ("created_at", "2024-05-01T12:00:00Z")):
        with pytest.raises(IllegalActionError) as caught:
            harness.play({**body, field: value})
        assert (caught.value.code, caught.value.path) == ("unexpected-field", field)
    assert harness.play(body).action_count == 1


@pytest.mark.parametrize("amount", ["3", True, 2.0, "10**5000"])
def test_sample_amounts_are_integers(amount: object) -> None:
    amount = 10**5000 if amount == "10**5000" else amount  # a raised ValueError before
    harness = GameHarness.for_game("sample")
    body = {"id": "a1", "game_id": harness.game.id, "type": "AddAmount", "player_id": "p1", "amount": amount}
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(body, harness.state, harness.game)
    assert (caught.value.code, caught.value.path) == ("invalid-value", "amount")


def test_a_lone_surrogate_id_is_never_recorded() -> None:
    harness = GameHarness.for_game("sample")
    body = {"id": "\ud800", "game_id": harness.game.id, "type": "AddAmount", "player_id": "p1", "amount": 1}
    with pytest.raises(IllegalActionError) as caught:
        harness.engine.run(body, harness.state, harness.game)
    assert (caught.value.code, caught.value.path) == ("invalid-value", "id")


def test_bots_and_the_harness_submit_models_through_the_fast_path() -> None:
    harness = GameHarness.for_game("tic-tac-toe")
    engine: GameEngine = harness.engine  # type: ignore[type-arg]
    (first, *_) = engine.legal_actions(harness.state, "p1", harness.game)
    state = harness.play(first.model_copy(update={"id": "m1"}))
    assert state.action_count == 1


@pytest.mark.parametrize("name", available())
def test_a_parsed_request_is_exactly_the_action_the_full_union_builds(name: str) -> None:
    harness = GameHarness.for_game(name)
    parser = harness.definition.parser
    seen = 0
    state = harness.state
    for step in range(12):
        legal = [
            a for p in state.active_player_ids for a in harness.engine.legal_actions(state, p, harness.game)
        ]
        if not legal:
            break
        for n, candidate in enumerate(legal[:4]):
            body = candidate.model_dump(mode="json", include=set(request_model(type(candidate)).model_fields))
            raw = json.dumps({**body, "id": f"r{step}-{n}"})
            parsed, full = parser.parse(raw), parser.parse_recorded(raw)
            assert type(parsed) is type(full)
            assert repr(parsed) == repr(full) and parsed.model_dump_json() == full.model_dump_json()
            assert parsed.model_fields_set == full.model_fields_set
            seen += 1
        state = harness.engine.run(legal[0].model_copy(update={"id": f"s{step}"}), state, harness.game).state
    assert seen > 0


class Shout(GameAction):
    """An action with a validator of its own."""

    type: Literal["Shout"] = "Shout"
    """Tag."""
    word: str = ""
    """Said loudly."""

    @field_validator("word")
    @classmethod
    def _loud(cls, word: str) -> str:
        return word.upper()


def test_an_action_with_validators_of_its_own_is_validated_by_them() -> None:
    parser: ActionParser[GameAction] = ActionParser([Shout])
    shout = parser.parse({"id": "a1", "game_id": "g1", "type": "Shout", "word": "hi"})
    assert isinstance(shout, Shout) and shout.word == "HI"


def test_a_system_only_action_that_enumerates_plays_is_a_definition_error() -> None:
    class SystemIncrement(HydratedIncrement):
        system_only = True

    actions = [SystemIncrement if action is HydratedIncrement else action for action in ACTIONS]
    with pytest.raises(GameDefinitionError, match="SystemIncrement is system-only but enumerates plays"):
        make_definition(actions=actions)
