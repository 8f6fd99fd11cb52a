"""Projecting one state for several perspectives at once equals projecting it per perspective."""

from __future__ import annotations

import random
from collections.abc import Iterator

import orjson
import pytest
from pydantic import BaseModel, ValidationError
from tabletop import AnyState, GameConfig, GameDefinition, GameEngine, dump_json
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop.views import SPECTATOR, Perspective, project, project_seats
from tabletop.views import _projection as projection
from tabletop.views._derive import source_of
from tabletop.views._projection import project_reference, state_plan
from tabletop.views._projector import projector
from tabletop_fixtures.aliasing import mutable_parts
from tabletop_fixtures.models import model_classes
from tabletop_fixtures.sealed_bids import make_definition

AnyEngine = GameEngine[AnyState, GameConfig]
AnyDefinition = GameDefinition[AnyState, GameConfig]
GAMES = [*available(), "sealed-bids"]


def _definition(name: str) -> AnyDefinition:
    return make_definition() if name == "sealed-bids" else load(name)  # type: ignore[return-value]


def _states(name: str, players: int, seed: int, steps: int = 40, every: int = 5) -> Iterator[AnyState]:
    """A started game's state, then every ``every``-th state of a random game, and its last one."""
    definition = _definition(name)
    players = min(max(players, definition.min_players), definition.max_players)
    engine: AnyEngine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    rng = random.Random(seed)
    yield state
    for step in range(1, steps + 1):
        if state.result is not None:
            break
        legal = next(f for p in state.active_player_ids if (f := engine.legal_actions(state, p, game)))
        state = engine.run(rng.choice(legal).model_copy(update={"id": f"a{step}"}), state, game).state
        if step % every == 0 or state.result is not None:
            yield state


def _fields_sets(value: object, found: list[set[str]] | None = None) -> list[set[str]]:
    """The ``model_fields_set`` of every mutable derived view model inside ``value`` (the sets
    the projector makes; values copied unchanged from the state are the copier's)."""
    found = [] if found is None else found
    if isinstance(value, BaseModel):
        if source_of(type(value)) is not None and not value.model_config.get("frozen"):
            found.append(value.model_fields_set)  # a frozen view's set never changes: it may be shared
        for item in value.__dict__.values():
            _fields_sets(item, found)
    elif isinstance(value, list | tuple | dict):
        for item in value.values() if isinstance(value, dict) else value:
            _fields_sets(item, found)
    return found


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_seat_gets_exactly_its_own_projection(name: str, players: int) -> None:
    for state in _states(name, players, seed=players):
        perspectives: list[Perspective] = [player.player_id for player in state.players]
        perspectives.append(SPECTATOR)
        views = project_seats(state, perspectives)
        assert list(views) == perspectives
        for perspective, view in views.items():
            expected = project_reference(state, perspective)
            assert view == project(state, perspective) == expected
            assert model_classes(view) == model_classes(expected)
            assert dump_json(view) == orjson.dumps(expected.model_dump(mode="json"))
            assert view.model_fields_set == expected.model_fields_set


@pytest.mark.parametrize("name", GAMES)
def test_views_of_different_seats_share_no_mutable_part(name: str) -> None:
    for state in _states(name, 4, seed=7):
        views = list(project_seats(state, [*(p.player_id for p in state.players), SPECTATOR]).values())
        parts = [mutable_parts(view) | {id(s) for s in _fields_sets(view)} for view in views]
        state_parts = mutable_parts(state)
        for index, own in enumerate(parts):
            assert not own & state_parts
            for other in parts[index + 1 :]:
                assert not own & other


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_in_seating_order_gets_its_own_unshared_view(name: str) -> None:
    for state in _states(name, 4, seed=11):
        seats = [player.player_id for player in state.players]
        for views in (
            project_seats(state),
            project_seats(state, list(seats)),
            project_seats(state, tuple(seats)),
        ):
            assert list(views) == seats
            parts = [mutable_parts(view) | {id(s) for s in _fields_sets(view)} for view in views.values()]
            for seat, own in zip(seats, parts, strict=True):
                assert views[seat] == project_reference(state, seat)
                assert not own & mutable_parts(state)
                assert all(not own & other for other in parts if other is not own)


@pytest.mark.parametrize("extra", [["nobody"], [SPECTATOR, "nobody"]])
def test_a_stranger_after_every_seat_is_refused(extra: list[Perspective]) -> None:
    state = next(_states("go-fish", 3, seed=4))
    with pytest.raises(ValueError, match="'nobody' is not a player"):
        project_seats(state, [*(player.player_id for player in state.players), *extra])


def test_changing_one_seats_view_leaves_the_others_alone() -> None:
    state = list(_states("sealed-bids", 4, seed=3, steps=6, every=6))[-1]
    seats = [player.player_id for player in state.players]
    views = project_seats(state)
    first = views[seats[0]]
    turns = first.turn_manager  # type: ignore[attr-defined]
    assert turns.model_config.get("frozen")  # immutable: every view shares the state's own
    assert all(view.turn_manager is state.turn_manager for view in views.values())  # type: ignore[attr-defined]
    first.last_bids["intruder"] = 1  # type: ignore[attr-defined]  # a dict: every view has its own
    for seat in seats[1:]:
        assert views[seat] == project(state, seat)
    assert project(state, seats[0]) != first


def _change(view: BaseModel, change: str) -> None:
    players = view.players  # type: ignore[attr-defined]
    if change == "field":
        view.action_count = 99  # type: ignore[attr-defined]
    elif change == "nested":
        players[0].hand_count = 0
    elif change == "list":
        players.append(players[0])
    elif change == "items":
        view.active_player_ids.append("intruder")  # type: ignore[attr-defined]
    else:
        players[0].books[0].turn = 99


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ("field", ValidationError, "Instance is frozen"),
        ("nested", ValidationError, "Instance is frozen"),
        ("list", AttributeError, "'tuple' object has no attribute 'append'"),
        ("items", AttributeError, "'tuple' object has no attribute 'append'"),
        ("model-that-hides-nothing", ValidationError, "Instance is frozen"),
    ],
)
def test_a_view_refuses_changes_with_a_clear_error(change: str, error: type[Exception], message: str) -> None:
    state = next(s for s in _states("go-fish", 4, seed=9, steps=200, every=1) if s.players[0].books)  # type: ignore[attr-defined]
    seats = [player.player_id for player in state.players]
    views = project_seats(state)
    with pytest.raises(error, match=message):
        _change(views[seats[1]], change)
    for seat in seats:
        assert views[seat] == project_reference(state, seat)


def test_seats_share_the_immutable_parts_of_their_views() -> None:
    state = next(s for s in _states("go-fish", 4, seed=9, steps=200, every=1) if s.players[0].books)  # type: ignore[attr-defined]
    seats = [player.player_id for player in state.players]
    views = project_seats(state)
    first_player = [view.players[0] for view in views.values()]  # type: ignore[attr-defined]
    # p1's part of the view: p1's own, and one shared by every other seat (its hand hidden)
    assert first_player[0].hand is not None
    assert first_player[1] is first_player[2] is first_player[3] is not first_player[0]
    assert first_player[1].hand is None
    assert first_player[0].books is first_player[1].books  # the public books: one tuple for all
    assert views[seats[0]].active_player_ids is views[seats[1]].active_player_ids  # type: ignore[attr-defined]
    for seat in seats:
        assert views[seat] == project_reference(state, seat)


def test_by_default_every_player_in_seating_order() -> None:
    state = next(_states("go-fish", 4, seed=1))
    seats = [player.player_id for player in state.players]
    assert list(project_seats(state)) == seats
    assert list(project_seats(state, reversed(seats))) == seats[::-1]


def test_a_perspective_named_twice_gets_one_view_in_the_order_asked() -> None:
    state = next(_states("go-fish", 3, seed=2))
    seat = state.players[1].player_id
    views = project_seats(state, [SPECTATOR, seat, SPECTATOR, seat])
    assert list(views) == [SPECTATOR, seat]
    assert views[SPECTATOR] == project(state, SPECTATOR)
    assert views[seat] == project(state, seat)
    assert project_seats(state, []) == {}


def test_a_stranger_is_refused() -> None:
    state = next(_states("go-fish", 2, seed=2))
    with pytest.raises(ValueError, match="'nobody' is not a player"):
        project_seats(state, [state.players[0].player_id, "nobody"])


def test_a_state_the_projector_cannot_read_takes_the_reference_path(monkeypatch: pytest.MonkeyPatch) -> None:
    state = list(_states("sealed-bids", 4, seed=5, steps=8, every=8))[-1]
    built = projector(state_plan(type(state), spectator=False))
    assert built is not None

    def unreadable(*_: object) -> list[object]:
        raise KeyError("unreadable")

    class Broken:
        build_seats = staticmethod(unreadable)

    monkeypatch.setattr(
        projection, "projector", lambda plan: Broken() if plan is built.plan else projector(plan)
    )
    views = project_seats(state)
    assert views == {player.player_id: project_reference(state, player.player_id) for player in state.players}
