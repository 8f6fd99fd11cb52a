"""The view schemas every export includes, and that they describe the projected views."""

from __future__ import annotations

import importlib
import json
from typing import cast

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from tabletop import AnyState, GameConfig, GameDefinition
from tabletop.games import available, load
from tabletop.schemas import render_schemas
from tabletop.testing import GameHarness
from tabletop.views import (
    SPECTATOR,
    Perspective,
    project,
    project_action,
    view_documents,
    view_type,
)
from tabletop_fixtures.sealed_bids import HydratedBid, SealedBidsConfig, SealedBidsState, make_definition

AnyDefinition = GameDefinition[AnyState, GameConfig]


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    definition = cast(AnyDefinition, make_definition())
    return render_schemas([definition, load("sample")], producers=[view_documents])


def test_a_game_with_hidden_information_gets_player_spectator_and_action_views(
    files: dict[str, bytes],
) -> None:
    views = sorted(path for path in files if path.startswith("sealed-bids/views/"))
    assert views == [
        "sealed-bids/views/actions/Bid.json",
        "sealed-bids/views/actions/Draw.json",
        "sealed-bids/views/player.json",
        "sealed-bids/views/spectator.json",
    ]
    titles = {path: json.loads(files[path])["title"] for path in views}
    assert titles["sealed-bids/views/player.json"] == "SealedBidsStatePlayerView"
    assert titles["sealed-bids/views/actions/Bid.json"] == "BidActionView"


def test_a_game_without_hidden_information_gets_one_state_view(files: dict[str, bytes]) -> None:
    assert [path for path in files if path.startswith("sample/views/")] == ["sample/views/state.json"]
    document = json.loads(files["sample/views/state.json"])
    assert document["title"] == "SampleGameStateView"
    assert "prng" not in document["properties"]
    assert document["additionalProperties"] is False


def test_the_producer_is_registered_with_the_schemas_package() -> None:
    schemas = importlib.import_module("tabletop.schemas")
    exported = schemas.render_schemas([load("sample")])
    assert "sample/views/state.json" in exported
    for name in available():
        assert any(path.startswith(f"{name}/views/") for path in render_schemas([load(name)]))


@pytest.mark.parametrize("perspective", ["p1", "p2", SPECTATOR])
def test_the_exported_documents_validate_projected_states_and_actions(
    files: dict[str, bytes], perspective: Perspective
) -> None:
    harness: GameHarness[SealedBidsState, SealedBidsConfig] = GameHarness(
        make_definition(), players=2, seed=9
    )
    state_document = "spectator" if perspective is SPECTATOR else "player"
    state_validator = Draft202012Validator(json.loads(files[f"sealed-bids/views/{state_document}.json"]))
    action_validators = {
        tag: Draft202012Validator(json.loads(files[f"sealed-bids/views/actions/{tag}.json"]))
        for tag in ("Bid", "Draw")
    }
    checked = 0
    for _ in range(10):
        errors = list(
            state_validator.iter_errors(project(harness.state, perspective).model_dump(mode="json"))
        )
        assert not errors, errors[0].message
        for player_id in list(harness.state.active_player_ids):
            card = harness.state.player(player_id).hand[0]
            for action in harness.run(harness.action(HydratedBid, player_id, card=card)).actions:
                payload = project_action(action, perspective).model_dump(mode="json")
                if action.type in action_validators:
                    errors = list(action_validators[action.type].iter_errors(payload))
                    assert not errors, errors[0].message
                    checked += 1
    assert checked > 20


def test_view_documents_are_the_view_types() -> None:
    documents = view_documents(cast(AnyDefinition, make_definition()))
    assert documents["views/player.json"] is view_type(SealedBidsState)
    assert documents["views/spectator.json"] is view_type(SealedBidsState, spectator=True)
