"""A tampered stored state: ``load_state`` refuses it, or the engine runs it with typed errors only.

For every installed game, states from a few points of random games are changed one field at a
time (numbers pushed out of range, lists emptied or padded, seats renamed, machine states
swapped, fields nulled) and loaded. ``load_state`` may refuse a state only with
:class:`~tabletop.InvalidStateError`; a state it accepts must then play: each seat's
``valid_action_types``, ``legal_actions`` and every legal action (and a few requests of each
action type a client could send) raise nothing but :class:`~tabletop.IllegalActionError`. The
run is bounded in states and in time.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator

import orjson
import pytest
from tabletop import (
    AnyState,
    Game,
    GameConfig,
    GameEngine,
    IllegalActionError,
    InvalidStateError,
)
from tabletop.games import available
from tabletop.testing import GameHarness

Json = object

TAMPERED = 1500
"""Tampered states tried per game."""

SECONDS = 12.0
"""Wall-clock bound per game (a loaded machine tries fewer states, never more time)."""

MAX_RUNS = 40
"""Actions run per accepted state."""

_NUMBERS = (-1, 0, 1, 2, 7, 13, 52, 1000, 10**6, 2**31, 2**53 + 1, -(2**40))
_STRINGS = ("", "p1", "p2", "p9", "x" * 70, "Hearts", "7", "Nowhere")


def _points(name: str, seed: int) -> list[tuple[GameHarness[AnyState, GameConfig], bytes]]:
    """A random game's states at a few points (start, early, middle), each with its harness."""
    harness: GameHarness[AnyState, GameConfig] = GameHarness.for_game(name, seed=seed)
    rng = random.Random(seed)
    points = [harness.state.model_dump_json().encode()]
    for step in range(60):
        movers = [p for p in harness.state.active_player_ids if harness.legal_actions(p)]
        if harness.state.is_over or not movers:
            break
        harness.play(
            rng.choice(harness.legal_actions(rng.choice(movers))).model_copy(update={"id": f"s{step}"})
        )
        if step in (3, 12, 30):
            points.append(harness.state.model_dump_json().encode())
    return [(harness, point) for point in points]


def _slots(data: Json, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """Every path into ``data`` (the root left out)."""
    if path:
        yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _slots(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _slots(value, (*path, index))


def _tampered(value: Json, rng: random.Random, machine_states: list[str]) -> Json:
    """Another value for a slot holding ``value``, of a kind a tamperer might write."""
    if isinstance(value, bool):
        return not value if rng.random() < 0.8 else None
    if isinstance(value, int):
        return rng.choice(_NUMBERS) if rng.random() < 0.9 else value + rng.choice((-1, 1))
    if isinstance(value, str):
        return rng.choice((*_STRINGS, *machine_states))
    if isinstance(value, list):
        choice = rng.random()
        if choice < 0.35 or not value:
            return []
        if choice < 0.6:
            return [*value, value[rng.randrange(len(value))]]
        if choice < 0.8:
            return value[1:]
        return list(reversed(value))
    if isinstance(value, dict):
        return {} if rng.random() < 0.5 else None
    return rng.choice((0, "p1", [], {}))


def _tamper(point: bytes, rng: random.Random, machine_states: list[str]) -> bytes:
    data = orjson.loads(point)
    slots = [slot for slot in _slots(data) if slot[0] != "prng"]
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        *parent_path, last = rng.choice(slots)
        try:  # an earlier change may have removed the slot
            parent = data
            for part in parent_path:
                parent = parent[part]
            parent[last] = _tampered(parent[last], rng, machine_states)
        except (IndexError, KeyError, TypeError):
            continue
    return orjson.dumps(data)


def _requests(
    engine: GameEngine[AnyState, GameConfig], state: AnyState, rng: random.Random
) -> list[dict[str, object]]:
    """Client-style requests of every sendable action type, from each seat, with random fields."""
    found: list[dict[str, object]] = []
    parser = engine.definition.parser
    for kind in parser.player_types:
        fields = engine.definition.action_by_type[kind].model_fields
        for player in state.players:
            body: dict[str, object] = {
                "id": "r1",
                "game_id": state.game_id,
                "type": kind,
                "player_id": player.player_id,
            }
            for name in fields:
                if name in body or name in (
                    "source",
                    "index",
                    "created_at",
                    "reveals_info",
                    "metadata",
                    "simultaneous_group_id",
                ):
                    continue
                body[name] = rng.choice((*_NUMBERS[:8], *_STRINGS[1:4]))
            found.append(body)
    return found


def _exercise(
    engine: GameEngine[AnyState, GameConfig], state: AnyState, game: Game[GameConfig], rng: random.Random
) -> None:
    """Everything a host does with a loaded state; raises whatever the engine raises."""
    for player in state.players:
        engine.valid_action_types(state, player.player_id, game)
        for action in engine.legal_actions(state, player.player_id, game)[:MAX_RUNS]:
            with contextlib.suppress(IllegalActionError):
                engine.run(action.model_copy(update={"id": "t1"}), state, game)
    for body in _requests(engine, state, rng):
        with contextlib.suppress(IllegalActionError):
            engine.run(body, state, game)


@pytest.mark.parametrize("name", available())
def test_a_tampered_state_is_refused_at_load_or_runs_with_typed_errors_only(name: str) -> None:
    rng = random.Random(name)
    points = _points(name, 4) + _points(name, 9)
    engine = points[0][0].engine
    machine_states = [state.value for state in engine.definition.machine_states]
    deadline = time.monotonic() + SECONDS
    refused = accepted = 0
    crashes: list[str] = []
    for attempt in range(TAMPERED):
        if time.monotonic() > deadline:
            break
        harness, point = points[attempt % len(points)]
        stored = _tamper(point, rng, machine_states)
        try:
            state = engine.load_state(stored)
        except InvalidStateError:
            refused += 1
            continue
        accepted += 1
        try:
            _exercise(engine, state, harness.game, rng)
        except (IllegalActionError, InvalidStateError):
            pass
        except Exception as error:
            crashes.append(f"{type(error).__name__}: {str(error)[:160]}")
    assert refused > 0 and accepted > 0  # the tampering reaches the checks, and runs get exercised
    assert crashes == [], f"{len(crashes)} of {accepted} accepted states crashed:\n" + "\n".join(crashes[:15])
