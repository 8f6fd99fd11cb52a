"""Payloads recorded from seeded playouts, and the typed TypeScript fixture made of them."""

from __future__ import annotations

from tabletop.games import load
from tabletop.schemas import SERVER_ASSIGNED_FIELDS, record_playout, request_model, typescript_fixture


def test_a_recording_is_deterministic_and_every_payload_is_valid() -> None:
    definition = load("sample")
    recording = record_playout(definition, seed=7, max_actions=30)
    assert recording == record_playout(definition, seed=7, max_actions=30)
    assert recording != record_playout(definition, seed=8, max_actions=30)
    plain_state = definition.state_type.__plain_model__  # type: ignore[attr-defined]
    for state in recording.states:
        assert plain_state.model_validate(state).model_dump(mode="json") == state
    assert [action["index"] for action in recording.actions] == list(range(len(recording.actions)))
    assert recording.states[-1]["action_count"] == len(recording.actions)
    for request in recording.requests:
        model = request_model(definition.action_by_type[str(request["type"])])
        assert model.model_validate(request).model_dump(mode="json") == request
        assert not set(request) & SERVER_ASSIGNED_FIELDS
    user_actions = [action for action in recording.actions if action["source"] == "user"]
    assert [request["id"] for request in recording.requests] == [action["id"] for action in user_actions]


def test_a_recording_stops_after_max_actions() -> None:
    recording = record_playout(load("sample"), seed=7, max_actions=3)
    assert len(recording.states) == 4  # the start and three submitted actions
    assert recording.states[-1]["result"] is None


def test_the_typescript_fixture_types_every_payload_and_narrows_every_tag() -> None:
    definition = load("sample")
    recording = record_playout(definition, seed=1, max_actions=40)
    source = typescript_fixture(definition, recording, package="@tabletop/types")
    assert 'import type * as T from "@tabletop/types/sample";' in source
    assert "export const states: T.SampleGameState[] = [" in source
    assert f'"id": "{recording.states[-1]["id"]}"' in source
    assert "export const requests: T.SampleActionRequest[] = [" in source
    for tag in definition.action_by_type:
        assert f"export const tag_{tag}: Exact<T.{tag}['type'], \"{tag}\"> = true;" in source
        assert f'    case "{tag}": {{\n      const narrowed: T.{tag} = action;' in source
    assert "default:" not in source  # exhaustiveness: every tag has its case, or the function lacks a return
