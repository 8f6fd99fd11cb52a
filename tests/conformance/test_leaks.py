"""No view leaks hidden information, in any installed game that declares some.

Seeded random playouts of each such game: at the start and after every submitted action, for
every player and for a spectator, the projected state and the projected actions that step
recorded are serialized, checked with ``find_leaks`` against the real state and actions (other
hands, deck order, unrevealed bids, the PRNG's seed and draw count, ...), and validated against
the projected view types and the exported view schemas (``<game>/views/...``).

The slow variant plays 1,000 playouts per game (or as many as reach ``CHECK_BUDGET`` checked
views, for long games) and validates every view with the view types
(the models the exported schemas are generated from); run it with ``pytest -m slow``, without
typeguard. The fast tier (the default run, and an author's ``make check-game``) plays
``FAST_PLAYOUTS`` playouts per game and validates every view against the exported JSON Schema
documents as well; the slow tier does that for 20 playouts too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from pydantic import BaseModel, ValidationError
from tabletop import AnyState, GameAction, GameConfig, GameDefinition, GameEngine, RunResult
from tabletop.games import available, load
from tabletop.schemas import render_schemas
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop.views import (
    SPECTATOR,
    LeakChecker,
    Perspective,
    action_view_type,
    declares_visibility,
    project,
    project_action,
    view_documents,
    view_type,
)

AnyDefinition = GameDefinition[AnyState, GameConfig]
Result = RunResult[AnyState, GameConfig]

HIDDEN_GAMES = [name for name in available() if declares_visibility(load(name).state_type)]
MAX_ACTIONS = 5_000
MAX_PLAYERS = 8  # player counts tried: every count the game allows, up to this many


@dataclass(frozen=True)
class Views:
    """One game's projected view types and its exported view schemas, compiled once."""

    definition: AnyDefinition
    state_types: dict[bool, type[BaseModel]]
    """The view type by ``spectator``."""
    state_schemas: dict[bool, Any]
    """The compiled ``views/player.json`` / ``views/spectator.json`` by ``spectator``."""
    action_schemas: dict[str, Any]
    """The compiled ``views/actions/<Type>.json``, or ``actions/<Type>.json`` if it hides nothing."""


def inline_refs(node: Any, defs: dict[str, Any], within: frozenset[str] = frozenset()) -> Any:
    """The schema ``node`` with each ``{"$ref": "#/$defs/X"}`` replaced by ``X`` itself.

    The same schema, validated about twice as fast (resolving references is most of the work).
    A reference inside its own definition is kept, and so are ``$defs``, so every reference
    left still resolves.
    """
    if isinstance(node, list):
        return [inline_refs(item, defs, within) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if len(node) == 1 and isinstance(reference, str) and reference.startswith("#/$defs/"):
        target = reference.removeprefix("#/$defs/")
        if target in defs and target not in within:
            return inline_refs(defs[target], defs, within | {target})
    return {key: value if key == "$defs" else inline_refs(value, defs, within) for key, value in node.items()}


@cache
def views_of(name: str) -> Views:
    """The views of an installed game (cached: schemas are rendered and compiled once)."""
    definition = load(name)
    files = render_schemas([definition], producers=[view_documents])

    def compiled(path: str) -> Any:
        document = json.loads(files[f"{name}/{path}"])
        Draft202012Validator.check_schema(document)
        return Draft202012Validator(inline_refs(document, document.get("$defs", {})))

    actions = {
        tag: compiled(
            f"views/actions/{tag}.json"
            if f"{name}/views/actions/{tag}.json" in files
            else f"actions/{tag}.json"
        )
        for tag in definition.action_by_type
    }
    return Views(
        definition=definition,
        state_types={
            spectator: view_type(definition.state_type, spectator=spectator) for spectator in (False, True)
        },
        state_schemas={False: compiled("views/player.json"), True: compiled("views/spectator.json")},
        action_schemas=actions,
    )


def problems(
    views: Views, checker: LeakChecker, text: str, perspective: Perspective, *, json_schema: bool
) -> list[str]:
    """What is wrong with ``text``, the serialized view of ``checker.subject`` sent to ``perspective``.

    Leaked hidden values, then validation errors against the projected view type and (with
    ``json_schema``) the exported JSON Schema document. Empty when the view is honest and valid.
    """
    found = checker.find(text, perspective)
    subject = checker.subject
    spectator = perspective is SPECTATOR
    if isinstance(subject, GameAction):
        model: type[BaseModel] = action_view_type(type(subject))
        schema = views.action_schemas[subject.type]
    else:
        model, schema = views.state_types[spectator], views.state_schemas[spectator]
    try:
        model.model_validate_json(text)
    except ValidationError as error:
        found.append(f"not a valid {model.__name__}: {error}")
    if json_schema:
        found.extend(
            f"schema {schema.schema['title']}: {error.message}"
            for error in schema.iter_errors(json.loads(text))
        )
    return found


def playout(definition: AnyDefinition, players: int, seed: int) -> Iterator[Result]:
    """A seeded random game: the start, then one result per submitted action.

    A random active player with a legal action acts (so simultaneous actions come in any order),
    choosing uniformly from its legal actions; the choices come from ``random.Random(seed)``.
    """
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    chooser = random.Random(seed)
    result = engine.start(game, prng_key=TEST_PRNG_KEY)
    yield result
    state = result.state
    for step in range(1, MAX_ACTIONS + 1):
        if state.result is not None:
            return
        active = list(state.active_player_ids)
        chooser.shuffle(active)
        legal = next((found for player in active if (found := engine.legal_actions(state, player, game))), [])
        assert legal, f"nobody can act in {state.machine_state} (active: {state.active_player_ids})"
        action = chooser.choice(legal).model_copy(update={"id": f"a{step}"})
        result = engine.run(action, state, game, in_place=True)  # checked before the next step
        yield result
        state = result.state
    pytest.fail(f"{definition.name} did not end within {MAX_ACTIONS} actions (seed {seed})")


FAST_PLAYOUTS = 4
"""Playouts per game in the fast tier: every player count up to ``MAX_PLAYERS`` at least once for
most games, in seconds (20 with JSON Schema validation took minutes per game under typeguard)."""


FAST_BUDGET = 4_000
"""Views the fast tier checks per game at most (Go Fish's and Goofspiel's four playouts stay
whole; a long game, such as Hearts to 100 points at about 28,600 views a playout, stops in its
first playout: its JSON Schema validation under typeguard took minutes)."""


def player_counts(definition: AnyDefinition) -> list[int]:
    """Every player count the game allows, up to ``MAX_PLAYERS``."""
    return list(range(definition.min_players, min(definition.max_players, MAX_PLAYERS) + 1))


CHECK_BUDGET = 250_000
"""Views the 1,000-playout test checks per game at most: it stops after the playout that reaches
it. Go Fish (about 620 views a playout) plays about 400 and Goofspiel (about 600) about 420;
long ones stop earlier (Gallery: about 9,700 a playout, about 26 playouts, and its own
1,000-game simulation checks every view as well; Hearts to 100 points: about 28,600, 9 playouts),
so that no game takes more than about three minutes of CI's time."""

SCHEMA_BUDGET = 25_000
"""The same bound for the 20 playouts validated against the exported JSON Schema documents."""


def check_playouts(
    name: str, playouts: int, *, json_schema: bool, budget: int | None = None, within: int | None = None
) -> int:
    """Play ``playouts`` seeded games (player counts in turn) and check every view; return how many.

    With ``budget``, stop after the playout in which the count of checked views reaches it; with
    ``within``, stop at the step that reaches it, even in the middle of a playout.
    """
    views = views_of(name)
    counts = player_counts(views.definition)
    checked = 0
    for seed in range(playouts):
        if budget is not None and checked >= budget:
            break
        players = counts[seed % len(counts)]
        for step, result in enumerate(playout(views.definition, players, seed)):
            if within is not None and checked >= within:
                break
            where = f"{name}, seed {seed}, {players} players, step {step}"
            perspectives: list[Perspective] = [player.player_id for player in result.state.players]
            perspectives.append(SPECTATOR)
            state = LeakChecker(result.state)
            actions = [(action, LeakChecker(action)) for action in result.actions]
            for perspective in perspectives:
                text = project(result.state, perspective).model_dump_json()
                found = problems(views, state, text, perspective, json_schema=json_schema)
                assert found == [], f"{where}: {perspective}'s view of the state: {found}"
                for action, checker in actions:
                    text = project_action(action, perspective).model_dump_json()
                    found = problems(views, checker, text, perspective, json_schema=json_schema)
                    assert found == [], f"{where}: {perspective}'s view of {action}: {found}"
                checked += 1 + len(actions)
    return checked


def test_the_games_with_hidden_information_are_found() -> None:
    assert {"go-fish", "goofspiel"} <= set(HIDDEN_GAMES)
    assert "sample" in available() and "sample" not in HIDDEN_GAMES


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_views_of_random_playouts_leak_nothing_and_match_their_schemas(name: str) -> None:
    checked = check_playouts(name, FAST_PLAYOUTS, json_schema=True, within=FAST_BUDGET)
    assert checked > min(FAST_PLAYOUTS * 10, FAST_BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_views_of_twenty_random_playouts_match_their_schemas(name: str) -> None:
    checked = check_playouts(name, 20, json_schema=True, budget=SCHEMA_BUDGET)
    assert checked > min(20 * 10, SCHEMA_BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_views_of_a_thousand_random_playouts_leak_nothing(name: str) -> None:
    checked = check_playouts(name, 1_000, json_schema=False, budget=CHECK_BUDGET)
    assert checked > min(1_000 * 10, CHECK_BUDGET)


def _go_fish_after_a_draw() -> tuple[GameHarness[AnyState, GameConfig], list[GameAction]]:
    """Three players of Go Fish after p1's first ask that goes fishing: the Ask and p1's DrawCard."""
    harness = GameHarness.for_game("go-fish", players=3, seed=5)
    for action in harness.legal_actions("p1"):
        result = harness.engine.run(action, harness.state, harness.game)
        if [recorded.type for recorded in result.actions] == ["Ask", "DrawCard"]:
            harness.state = result.state
            return harness, list(result.actions)
    pytest.fail("no ask of p1's goes fishing")


def test_the_check_reports_another_players_card_planted_in_a_view() -> None:
    harness, _ = _go_fish_after_a_draw()
    state = harness.state
    honest = project(state, "p1").model_dump(mode="json")
    checker = LeakChecker(state)
    assert problems(views_of("go-fish"), checker, json.dumps(honest), "p1", json_schema=True) == []
    honest["players"][0]["hand"].append(state.model_dump(mode="json")["players"][1]["hand"][0])
    found = problems(views_of("go-fish"), checker, json.dumps(honest), "p1", json_schema=True)
    assert any(problem.startswith("players[1].hand") for problem in found), found


def test_the_check_reports_a_drawn_card_shown_to_another_player() -> None:
    _, (asked, drawn) = _go_fish_after_a_draw()
    assert project_action(asked, "p2") == project_action(asked, "p1")  # asks hide nothing
    shown = project_action(drawn, "p2").model_dump(mode="json")
    checker = LeakChecker(drawn)
    assert problems(views_of("go-fish"), checker, json.dumps(shown), "p2", json_schema=True) == []
    shown["outcome"] = drawn.model_dump(mode="json")["outcome"]  # the card p1 drew
    found = problems(views_of("go-fish"), checker, json.dumps(shown), "p2", json_schema=True)
    assert any(problem.startswith("outcome") for problem in found), found


def test_the_check_reports_a_view_that_does_not_match_its_schema() -> None:
    harness, _ = _go_fish_after_a_draw()
    watching = project(harness.state, SPECTATOR).model_dump(mode="json")
    watching["players"][0]["hand"] = None  # a field the spectator view does not have
    found = problems(
        views_of("go-fish"), LeakChecker(harness.state), json.dumps(watching), SPECTATOR, json_schema=True
    )
    assert any(problem.startswith("not a valid") for problem in found), found
    assert any(problem.startswith("schema ") for problem in found), found
