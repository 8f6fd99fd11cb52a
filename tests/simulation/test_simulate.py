"""Simulation: seeded bot games, invariants after every action, the summary, the CLI."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import orjson
import pytest
from tabletop import UNKEYED, AnyState, GameConfig, GameEngine, Model
from tabletop._cli import main
from tabletop._cli._simulate import ProgressBar
from tabletop.games import load
from tabletop.schemas import render_schemas
from tabletop.simulation import (
    Invariant,
    InvariantError,
    Step,
    checksum_invariant,
    default_invariants,
    format_report,
    game_invariant,
    hydration_invariant,
    json_schema_invariant,
    register_invariant,
    simulate,
    simulation_key,
    state_model_invariant,
    unregister_invariant,
    view_leak_invariant,
)
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop.views import SPECTATOR, Perspective, project

# Complete games (the lead extends this as games are finished).
GAMES = ["sample", "tic-tac-toe", "go-fish", "goofspiel"]
HIDDEN = {"go-fish", "goofspiel"}
"""The games among them that declare hidden information."""


@pytest.fixture
def schemas(tmp_path: Path) -> Path:
    """Fresh schemas of the complete games (not the committed ones, which the lead regenerates)."""
    root = tmp_path / "schemas"
    for path, content in render_schemas([load(name) for name in GAMES]).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(content)
    return root


@pytest.mark.parametrize("name", GAMES)
def test_a_run_plays_every_game_to_its_end_and_keeps_every_invariant(name: str, schemas: Path) -> None:
    report = simulate(name, games=12, seed=3, schemas=schemas)
    assert report.ok, [record.problem for record in report.problems]
    leaks = ["view-leaks"] if name in HIDDEN else []
    assert report.invariants == [
        "state-model",
        "hydration",
        "checksum",
        "game-invariants",
        "json-schema",
        *leaks,
    ]
    assert report.skipped == []
    assert len(report.records) == 12 and sum(report.outcomes.values()) == 12
    assert all(outcome == "draw" or outcome.startswith("win ") for outcome in report.outcomes)
    assert [record.seed for record in report.records] == list(range(3, 15))
    assert report.max_length == max(record.actions for record in report.records) > 0
    assert report.mean_length == pytest.approx(report.total_actions / 12)
    assert report.actions_per_second > 0 and report.engine_seconds > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_games(name: str) -> None:
    first = simulate(name, games=6, seed=11, schemas=None)
    second = simulate(name, games=6, seed=11, schemas=None)
    assert first.records == second.records
    assert simulate(name, games=6, seed=12, schemas=None).records != first.records


def test_the_summary_table_and_the_json_report_agree(schemas: Path) -> None:
    report = simulate("tic-tac-toe", games=10, seed=1, schemas=schemas)
    text = format_report(report)
    for outcome, count in report.outcomes.items():
        assert f"{outcome:<24} {count:>7} {count / 10:>7.1%}" in text
    assert f"mean {report.mean_length:.1f}, max {report.max_length}" in text
    data = report.to_json()
    assert data["games"] == 10 and data["outcomes"] == report.outcomes and data["ok"] is True
    assert len(orjson.loads(orjson.dumps(data))["records"]) == 10


def test_a_broken_invariant_is_reported_with_the_action_and_the_run_goes_on() -> None:
    def no_third_action(step: Step) -> None:
        if step.state.action_count == 3:
            raise InvariantError("no-third-action", "three actions were recorded")

    report = simulate(
        "tic-tac-toe", games=4, seed=1, invariants=[Invariant("no-third-action", no_third_action)]
    )
    assert len(report.records) == 4 and not report.ok
    assert all(
        record.problem == "after 3 actions: invariant no-third-action: three actions were recorded"
        for record in report.records
    )
    assert report.outcomes == {"error": 4}
    assert all(record.actions == 3 for record in report.records)
    assert "problems                 4" in format_report(report)


def test_a_crashing_check_counts_as_a_violation_of_that_check() -> None:
    def crash(step: Step) -> None:
        raise KeyError("missing")

    report = simulate("sample", games=1, seed=1, invariants=[Invariant("crashy", crash)])
    assert report.records[0].problem == "after 0 actions: invariant crashy: KeyError: 'missing'"


def test_a_state_outside_the_exported_schema_is_caught(schemas: Path) -> None:
    path = schemas / "sample" / "state.json"
    schema = json.loads(path.read_text())
    schema["properties"]["total"] = {"type": "integer", "maximum": 3}
    path.write_text(json.dumps(schema))
    report = simulate("sample", games=3, seed=2, schemas=schemas)
    assert not report.ok
    problem = report.problems[0].problem
    assert problem is not None and "json-schema" in problem and "at total" in problem


def test_checks_that_cannot_run_are_skipped_with_a_reason(
    tmp_path: Path, schemas: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, skipped = default_invariants(load("sample"), schemas=tmp_path / "nowhere")
    assert skipped == [f"json-schema: no {tmp_path / 'nowhere' / 'sample' / 'state.json'}"]
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    checks, skipped = default_invariants(load("sample"), schemas=schemas)
    assert [check.name for check in checks] == ["state-model", "hydration", "checksum", "game-invariants"]
    assert skipped == ["json-schema: jsonschema is not installed (pip install jsonschema)"]
    assert default_invariants(load("sample"), schemas=None) == (checks, [])


def test_registered_invariants_join_the_defaults_for_the_games_they_apply_to() -> None:
    seen: list[int] = []
    leak_check = Invariant("views", lambda step: seen.append(step.state.action_count))

    def factory(definition: object) -> Invariant | None:
        return leak_check if getattr(definition, "name", "") == "tic-tac-toe" else None

    register_invariant(factory)
    register_invariant(factory)
    try:
        assert default_invariants(load("tic-tac-toe"), schemas=None)[0][-1] is leak_check
        assert "views" not in [c.name for c in default_invariants(load("sample"), schemas=None)[0]]
        report = simulate("tic-tac-toe", games=1, seed=1, schemas=None)
    finally:
        unregister_invariant(factory)
    assert report.invariants[-1] == "views"
    assert seen == list(range(report.records[0].actions + 1))  # the start and every action
    assert "views" not in [c.name for c in default_invariants(load("tic-tac-toe"), schemas=None)[0]]


def _step(name: str) -> tuple[Step, GameEngine[AnyState, GameConfig]]:
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    start = engine.start(game, prng_key=TEST_PRNG_KEY)
    action = engine.legal_actions(start.state, start.state.active_player_ids[0], game)[0]
    result = engine.run(action.model_copy(update={"id": "a1"}), start.state, game)
    return Step(definition, game, result, start.state), engine


@pytest.mark.parametrize("name", GAMES)
def test_each_default_invariant_catches_what_it_guards(name: str, schemas: Path) -> None:
    step, _ = _step(name)
    schema_check = json_schema_invariant(schemas / name / "state.json")
    for invariant in (state_model_invariant, hydration_invariant, checksum_invariant, schema_check):
        invariant.check(step)
    step.state.action_checksum += 1
    with pytest.raises(InvariantError, match="checksum"):
        checksum_invariant.check(step)
    step.state.action_count = -1  # assignment is not validated; the checks re-validate
    with pytest.raises(InvariantError, match="state-model"):
        state_model_invariant.check(step)
    with pytest.raises(InvariantError, match="json-schema"):
        schema_check.check(step)


def test_wrong_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        simulate("sample", games=1, bot="genius")
    with pytest.raises(ValueError, match=r"tic-tac-toe takes 2\.\.2 players, not 3"):
        simulate("tic-tac-toe", games=1, players=3)
    with pytest.raises(ValueError, match="negative"):
        simulate("sample", games=-1)


def test_the_command_prints_the_summary_and_writes_the_json_report(
    tmp_path: Path, schemas: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report" / "sim.json"
    argv = [
        "simulate",
        "tic-tac-toe",
        "-n",
        "8",
        "--seed",
        "4",
        "--schemas",
        str(schemas),
        "--json",
        str(out),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["games"] == 8 and data["seed"] == 4 and data["bot"] == "random"
    assert "json-schema" in data["invariants"]
    assert text.startswith("tic-tac-toe (logic ") and f"wrote {out}" in text
    assert simulate("tic-tac-toe", games=8, seed=4, schemas=None).outcomes == data["outcomes"]


def test_the_command_fails_when_a_game_breaks_an_invariant(
    schemas: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = schemas / "tic-tac-toe" / "state.json"
    schema = json.loads(path.read_text())
    schema["properties"]["action_count"]["maximum"] = 0
    path.write_text(json.dumps(schema))
    assert main(["simulate", "tic-tac-toe", "-n", "2", "--schemas", str(schemas)]) == 1
    assert "invariant json-schema" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "iterations"), [("tic-tac-toe", 8), ("goofspiel", 2)])
def test_the_command_can_play_with_mcts_bots(
    name: str, iterations: int, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", name, "-n", "2", "--bot", "mcts", "--iterations", str(iterations), "--no-schemas"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 games, 2 players, mcts bots" in text and "problems                 none" in text


@pytest.mark.parametrize("name", GAMES)
def test_games_with_hidden_information_have_every_view_checked_for_leaks(name: str) -> None:
    checks = [check.name for check in default_invariants(load(name), schemas=None)[0]]
    assert ("view-leaks" in checks) is (name in HIDDEN)
    assert (view_leak_invariant(load(name)) is not None) is (name in HIDDEN)


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_a_view_showing_hidden_state_breaks_the_view_leak_invariant(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = view_leak_invariant(load(name))
    assert check is not None
    step, _ = _step(name)
    check.check(step)  # the real views leak nothing
    monkeypatch.setattr("tabletop.simulation._invariants.project", lambda state, perspective: state)
    with pytest.raises(InvariantError, match=r"^view-leaks: p1's view leaks .*hidden"):
        check.check(step)


@pytest.mark.parametrize(("name", "secret"), [("go-fish", "DealCard"), ("goofspiel", "Bid")])
def test_an_action_log_showing_a_secret_breaks_the_view_leak_invariant(
    name: str, secret: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = view_leak_invariant(load(name))
    assert check is not None
    assert simulate(name, games=2, seed=1, invariants=[check]).ok
    monkeypatch.setattr("tabletop.simulation._invariants.project_log", lambda actions, perspective: actions)
    report = simulate(name, games=2, seed=1, invariants=[check])
    assert report.outcomes == {"error": 2}
    for record in report.records:
        assert record.problem is not None and "invariant view-leaks: " in record.problem
        assert f"({secret}): " in record.problem


def test_the_view_leak_check_projects_for_every_player_and_a_spectator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Perspective] = []

    def projecting(state: AnyState, perspective: Perspective) -> Model:
        seen.append(perspective)
        return project(state, perspective)

    step, _ = _step("goofspiel")
    check = view_leak_invariant(load("goofspiel"))
    assert check is not None
    monkeypatch.setattr("tabletop.simulation._invariants.project", projecting)
    check.check(step)
    assert seen == ["p1", "p2", SPECTATOR]


def test_the_progress_bar_redraws_one_line_and_ends_it() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, "sample", width=10)
    for done in range(1, 5):
        bar(done, 4)
    assert out.getvalue().split("\r") == [
        "",
        "sample [##........] 1/4",
        "sample [#####.....] 2/4",
        "sample [#######...] 3/4",
        "sample [##########] 4/4\n",
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_game_with_secrets_is_simulated_keyed_and_still_replays(name: str) -> None:
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load(name))
    seen: list[str | None] = []

    def keys(step: Step) -> None:
        if step.previous is None:
            seen.append(step.state.prng.key)

    report = simulate(name, games=3, seed=5, invariants=[Invariant("keys", keys)])
    expected = [simulation_key(5, index) if name in HIDDEN else None for index in range(3)]
    assert seen == expected
    assert len(set(seen)) == (3 if name in HIDDEN else 1)
    assert engine.definition.requires_prng_key is (name in HIDDEN)
    assert simulate(name, games=3, seed=5, schemas=None).records == report.records
    unkeyed: list[str | None] = []
    simulate(
        name,
        games=1,
        seed=5,
        prng_key=UNKEYED,
        invariants=[Invariant("keys", lambda step: unkeyed.append(step.state.prng.key))],
    )
    assert set(unkeyed) == {None}


@pytest.mark.parametrize(
    ("name", "break_it", "problem"),
    [
        ("go-fish", lambda state: state.deck.pop(), "card(s) are nowhere"),
        ("go-fish", lambda state: state.players[0].hand.append(state.players[1].hand[0]), "several places"),
        ("goofspiel", lambda state: state.players[1].hand.pop(), "not 1..13 once"),
        ("goofspiel", lambda state: setattr(state.players[1], "score", 4), "scores 4"),
    ],
)
def test_the_game_invariant_runs_the_games_own_checks(name: str, break_it: object, problem: str) -> None:
    step, _ = _step(name)
    check = game_invariant(load(name))
    check.check(step)
    assert callable(break_it)
    break_it(step.state)
    with pytest.raises(InvariantError, match=f"^game-invariants: .*{re.escape(problem)}"):
        check.check(step)
