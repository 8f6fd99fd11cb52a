"""Projecting whole states of a fixture game with hidden information, and their schemas."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.games import load
from tabletop.schemas import TabletopJsonSchema
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop.views import SPECTATOR, Perspective, declares_visibility, project, view_type
from tabletop_fixtures.sealed_bids import SealedBidsConfig, SealedBidsState, make_definition

PERSPECTIVES: list[Perspective] = ["p1", "p2", "p3", "p4", SPECTATOR]
Json = dict[str, object]


@pytest.fixture(scope="module")
def harness() -> GameHarness[SealedBidsState, SealedBidsConfig]:
    return GameHarness(make_definition(), players=4, seed=21)


def states(seed: int, players: int = 4) -> Iterator[SealedBidsState]:
    definition = make_definition()
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    yield engine.start(game, prng_key=TEST_PRNG_KEY).state
    bot = RandomBot(engine, seed)
    for result in playout(engine, game, bot, max_actions=500, prng_key=TEST_PRNG_KEY):
        yield result.state


def seats(data: Json) -> dict[str, Json]:
    entries = data["players"]
    assert isinstance(entries, list)
    return {entry["player_id"]: entry for entry in entries}


def test_a_player_sees_their_own_hand_bid_target_and_note_only(
    harness: GameHarness[SealedBidsState, SealedBidsConfig],
) -> None:
    state = harness.state
    data = project(state, "p2").model_dump(mode="json")
    mine, theirs = seats(data)["p2"], seats(data)["p3"]
    own = state.player("p2")
    assert mine["hand"] == [card.model_dump(mode="json") for card in own.hand]
    assert (mine["hand_count"], mine["target"]) == (7, own.target)
    assert (theirs["hand"], theirs["hand_count"], theirs["target"], theirs["bid"]) == (None, 7, None, None)
    assert data["deck_count"] == len(state.deck) == 52 - 2 - 28
    assert data["burned"] == [None, None]
    assert data["notes"] == {
        pid: {"author": pid, "text": state.notes[pid].text if pid == "p2" else None} for pid in state.notes
    }
    assert "tie_break" not in data and "deck" not in data and "prng" not in data


def test_a_spectator_sees_counts_and_public_fields_only(
    harness: GameHarness[SealedBidsState, SealedBidsConfig],
) -> None:
    data = project(harness.state, SPECTATOR).model_dump(mode="json")
    for entry in seats(data).values():
        assert set(entry) == {"player_id", "color", "hand_count", "target", "score", "won"}
        assert entry["target"] is None
    assert data["notes"] == {pid: {"author": pid} for pid in ("p1", "p2", "p3", "p4")}
    assert data["simultaneous_group"] == harness.state.model_dump(mode="json")["simultaneous_group"]


def test_a_bid_is_seen_by_its_bidder_only_until_the_reveal() -> None:
    harness = GameHarness(make_definition(), players=2, seed=4)
    card = harness.state.player("p1").hand[0]
    harness.play(harness.action(harness.definition.action_by_type["Bid"], "p1", card=card))
    assert seats(project(harness.state, "p1").model_dump(mode="json"))["p1"]["bid"] == card.model_dump(
        mode="json"
    )
    assert seats(project(harness.state, "p2").model_dump(mode="json"))["p1"]["bid"] is None
    other = harness.state.player("p2").hand[0]
    harness.play(harness.action(harness.definition.action_by_type["Bid"], "p2", card=other))
    revealed = project(harness.state, "p2").model_dump(mode="json")["last_bids"]
    assert revealed == {"p1": card.model_dump(mode="json"), "p2": other.model_dump(mode="json")}


@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_the_prng_is_never_in_any_view(perspective: Perspective) -> None:
    for state in states(seed=8):
        data = project(state, perspective).model_dump(mode="json")
        assert "prng" not in data
        assert "seed" not in str(data) and "invocations" not in str(data) and TEST_PRNG_KEY not in str(data)


def test_targets_show_to_everyone_once_the_game_is_over() -> None:
    *_, last = states(seed=2)
    assert last.result is not None
    data = project(last, SPECTATOR).model_dump(mode="json")
    assert [entry["target"] for entry in seats(data).values()] == [p.target for p in last.players]


@pytest.mark.parametrize("spectator", [False, True])
def test_the_projected_types_schema_validates_every_projected_view(spectator: bool) -> None:
    schema = view_type(SealedBidsState, spectator=spectator).model_json_schema(
        schema_generator=TabletopJsonSchema
    )
    validator = Draft202012Validator(schema)
    perspectives: list[Perspective] = [SPECTATOR] if spectator else ["p1", "p3"]
    checked = 0
    for state in states(seed=5):
        for perspective in perspectives:
            errors = list(validator.iter_errors(project(state, perspective).model_dump(mode="json")))
            assert not errors, errors[0].message
            checked += 1
    assert checked >= 40
    full = next(states(seed=5)).model_dump(mode="json")
    assert not validator.is_valid(full)  # the state itself carries what views may not


def test_a_game_without_hidden_information_has_one_view_without_the_prng() -> None:
    definition = load("sample")
    assert not declares_visibility(definition.state_type)
    assert declares_visibility(SealedBidsState)
    shared = view_type(definition.state_type)
    assert view_type(definition.state_type, spectator=True) is shared
    assert shared.__name__ == "SampleGameStateView"
    state = GameEngine(definition).start(make_game(definition, players=2, seed=1)).state
    full = state.model_dump(mode="json")
    del full["prng"]
    assert project(state, "p1").model_dump(mode="json") == full
    assert project(state, SPECTATOR).model_dump(mode="json") == full
