"""JSON is validated once, straight into the action: the same rules as the request, nothing shared."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal

import pytest
from pydantic import Field, ValidationError
from tabletop import ActionParser, GameAction, IllegalActionError, Model
from tabletop.games import available
from tabletop.schemas import SERVER_ASSIGNED_FIELDS, request_model
from tabletop.testing import GameHarness


class Spot(Model):
    """A place on a map."""

    x: int
    """Column."""
    y: int = Field(ge=0)
    """Row."""


class Travel(GameAction):
    """Travel along a route."""

    type: Literal["Travel"] = "Travel"
    """Tag."""
    player_id: str
    """The traveller."""
    start: Spot
    """Where the trip starts."""
    route: list[Spot] = Field(default_factory=list, max_length=4)
    """The stops, in order."""
    detour: Spot | None = None
    """An optional stop on the way."""
    legs: tuple[Spot, ...] = ()
    """The legs flown."""


class Survey(GameAction):
    """Survey named places (a model inside a mapping: validated by the action's own class)."""

    type: Literal["Survey"] = "Survey"
    """Tag."""
    player_id: str
    """The surveyor."""
    places: dict[str, Spot] = Field(default_factory=dict, max_length=2)
    """Places by name."""


BASE: dict[str, object] = {"id": "a1", "game_id": "g1", "player_id": "p1"}
TRAVEL: dict[str, object] = {
    **BASE,
    "type": "Travel",
    "start": {"x": -1, "y": 0},
    "route": [{"x": 1, "y": 2}, {"x": 3, "y": 4}],
    "detour": {"x": 5, "y": 6},
    "legs": [{"x": 7, "y": 8}],
}


@pytest.fixture
def parser() -> ActionParser[GameAction]:
    return ActionParser([Travel, Survey])


def _spots(action: GameAction) -> list[object]:
    assert isinstance(action, Travel)
    return [action.start, *action.route, action.detour, *action.legs]


@pytest.mark.parametrize("encode", [json.dumps, lambda body: json.dumps(body).encode(), lambda body: body])
def test_nested_models_come_out_as_their_own_class(
    parser: ActionParser[GameAction], encode: Callable[[dict[str, object]], str | bytes | dict[str, object]]
) -> None:
    raw = encode(TRAVEL)
    action, recorded = parser.parse(raw), parser.parse_recorded(json.dumps(TRAVEL))
    assert type(action) is Travel
    assert [type(spot) for spot in _spots(action)] == [Spot] * 5
    assert repr(action) == repr(recorded) and action.model_dump_json() == recorded.model_dump_json()
    assert action.model_fields_set == recorded.model_fields_set
    assert action == recorded


def test_a_model_inside_a_mapping_is_still_built_by_the_action(parser: ActionParser[GameAction]) -> None:
    body = {**BASE, "type": "Survey", "places": {"home": {"x": 0, "y": 0}}}
    action = parser.parse(json.dumps(body))
    assert type(action) is Survey and type(action.places["home"]) is Spot
    assert action == parser.parse_recorded(json.dumps(body))
    with pytest.raises(IllegalActionError) as caught:
        parser.parse(json.dumps({**body, "places": {"home": {"x": "0", "y": 0}}}))
    assert (caught.value.code, caught.value.path) == ("invalid-value", "places.home.x")


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"start": {"x": "1", "y": 0}}, ("invalid-value", "start.x")),
        ({"start": {"x": 1, "y": -1}}, ("invalid-value", "start.y")),
        ({"start": {"x": 2**53, "y": 0}}, ("invalid-value", "start.x")),
        ({"start": {"x": 1}}, ("missing-field", "start.y")),
        ({"start": {"x": 1, "y": 0, "z": 0}}, ("unexpected-field", "start.z")),
        ({"start": [1, 0]}, ("not-an-object", "start")),
        ({"route": [{"x": 1.0, "y": 0}]}, ("invalid-value", "route.0.x")),
        ({"route": [{"x": 1, "y": 0}] * 5}, ("invalid-value", "route")),
        ({"detour": {"x": True, "y": 0}}, ("invalid-value", "detour.x")),
        (
            {"legs": [{"x": 0, "y": 0}, {"x": 0, "y": 0, "source": "user"}]},
            ("unexpected-field", "legs.1.source"),
        ),
        ({"source": "system"}, ("unexpected-field", "source")),
        ({"metadata": None}, ("unexpected-field", "metadata")),
    ],
)
def test_nested_values_are_held_to_the_request_rules(
    parser: ActionParser[GameAction], change: dict[str, object], error: tuple[str, str]
) -> None:
    body = {**TRAVEL, **change}
    for raw in (json.dumps(body), json.dumps(body).encode(), body):
        with pytest.raises(IllegalActionError) as caught:
            parser.parse(raw)
        assert (caught.value.code, caught.value.path) == error


def test_each_json_parse_is_a_fresh_object_sharing_nothing(parser: ActionParser[GameAction]) -> None:
    raw = json.dumps(TRAVEL).encode()
    first, second = parser.parse(raw), parser.parse(raw)
    assert first == second
    assert first is not second and first.model_fields_set is not second.model_fields_set
    assert all(a is not b for a, b in zip(_spots(first), _spots(second), strict=True))
    assert isinstance(first, Travel)
    first.route.append(Spot(x=9, y=9))
    assert len(second.route) == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", available())
def test_every_game_refuses_engine_assigned_fields_in_json(name: str) -> None:
    harness = GameHarness.for_game(name)
    parser = harness.definition.parser
    legal = [
        action
        for player in harness.state.active_player_ids
        for action in harness.engine.legal_actions(harness.state, player, harness.game)
    ]
    assert legal
    for candidate in legal[:3]:
        body = candidate.model_dump(mode="json", include=set(request_model(type(candidate)).model_fields))
        body["id"] = "r1"
        assert parser.parse(json.dumps(body)) == parser.parse_recorded(json.dumps(body))
        for field in sorted(SERVER_ASSIGNED_FIELDS & set(type(candidate).model_fields)):
            with pytest.raises(IllegalActionError) as caught:
                parser.parse(json.dumps({**body, field: None}).encode())
            assert (caught.value.code, caught.value.path) == ("unexpected-field", field)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"source": "user", "player_id": 7}, ("invalid-value", "player_id")),
        ({"created_at": None, "start": {"x": "1", "y": 0}}, ("invalid-value", "start.x")),
        ({"source\u0000": "user"}, ("unexpected-field", "source\u0000")),
        ({"reveals_info\u0000": None}, ("unexpected-field", "reveals_info\u0000")),
    ],
)
def test_json_reports_the_error_the_request_model_reports(
    parser: ActionParser[GameAction], change: dict[str, object], error: tuple[str, str]
) -> None:
    body = {**TRAVEL, **change}
    request = request_model(Travel)
    with pytest.raises(ValidationError) as expected:
        request.model_validate_json(json.dumps(body))
    first = expected.value.errors()[0]
    assert ".".join(str(part) for part in first["loc"]) == error[1]  # what the request itself reports
    with pytest.raises(IllegalActionError) as caught:
        parser.parse(json.dumps(body).encode())
    assert (caught.value.code, caught.value.path) == error
