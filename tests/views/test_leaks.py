"""The leak checker: silent on honest views, loud on every kind of hidden value that shows."""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated

import pytest
from pydantic import Field
from tabletop import GameAction, GameEngine, GameState, PlayerState, PrngState
from tabletop.bots import RandomBot, playout
from tabletop.testing import GameHarness, make_game
from tabletop.views import SPECTATOR, LeakChecker, OwnerOnly, Perspective, find_leaks, project, project_action
from tabletop_fixtures.sealed_bids import Bid, HydratedBid, SealedBidsConfig, SealedBidsState, make_definition

Json = dict[str, object]
Harness = GameHarness[SealedBidsState, SealedBidsConfig]


@pytest.fixture
def harness() -> Harness:
    return GameHarness(make_definition(), players=3, seed=987654)


def view_json(state: SealedBidsState, perspective: Perspective) -> Json:
    data = project(state, perspective).model_dump(mode="json")
    assert isinstance(data, dict)
    return data


def seat(data: Json, index: int) -> Json:
    seats = data["players"]
    assert isinstance(seats, list)
    entry = seats[index]
    assert isinstance(entry, dict)
    return entry


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 4)])
def test_honest_views_and_logs_of_whole_games_leak_nothing(seed: int, players: int) -> None:
    definition = make_definition()
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    perspectives: list[Perspective] = [*(seat.id for seat in game.players), SPECTATOR]
    checked = 0
    for result in playout(engine, game, RandomBot(engine, seed), max_actions=500):
        for perspective in perspectives:
            assert (
                find_leaks(result.state, project(result.state, perspective).model_dump_json(), perspective)
                == []
            )
            for action in result.actions:
                assert (
                    find_leaks(action, project_action(action, perspective).model_dump_json(), perspective)
                    == []
                )
            checked += 1
    assert checked > 20 * len(perspectives)


def _card(state: SealedBidsState, player: int) -> Json:
    return state.players[player].hand[0].model_dump(mode="json")


PLANTS: list[tuple[str, Callable[[SealedBidsState, Json], None], str]] = [
    ("another hand", lambda s, v: seat(v, 0)["won"].append(_card(s, 1)), "players[1].hand"),  # type: ignore[attr-defined]
    ("the deck", lambda s, v: v["last_bids"].update(x=s.deck[-1].model_dump(mode="json")), "deck"),  # type: ignore[attr-defined]
    (
        "order-only items",
        lambda s, v: v.update(burned=[c.model_dump(mode="json") for c in s.burned]),
        "burned",
    ),
    ("the prng seed", lambda s, v: seat(v, 0).update(score=s.prng.seed), "prng"),
    ("the prng draws", lambda s, v: seat(v, 0).update(score=s.prng.invocations), "prng"),
    ("the host-only suit", lambda s, v: v.update(extra=str(s.tie_break)), "tie_break"),
    (
        "a custom-hidden target",
        lambda s, v: seat(v, 0).update(score=s.players[2].target),
        "players[2].target",
    ),
    ("another's note", lambda s, v: v.update(extra=s.notes["p2"].text), "notes['p2'].text"),
]


@pytest.mark.parametrize(("what", "plant", "path"), PLANTS, ids=[plant[0] for plant in PLANTS])
def test_every_kind_of_hidden_value_is_found(
    harness: Harness, what: str, plant: Callable[[SealedBidsState, Json], None], path: str
) -> None:
    state = harness.state
    data = view_json(state, "p1")
    plant(state, data)
    leaks = find_leaks(state, json.dumps(data), "p1")
    assert leaks, what
    assert any(leak.startswith(path) or f", {path}" in leak for leak in leaks), leaks


def test_a_spectator_view_with_a_players_hand_leaks(harness: Harness) -> None:
    state = harness.state
    as_p1 = view_json(state, "p1")
    leaks = find_leaks(state, json.dumps(as_p1), SPECTATOR)
    assert any(leak.startswith("players[0].hand") for leak in leaks), leaks
    assert find_leaks(state, json.dumps(as_p1), "p1") == []


def test_the_view_may_be_a_model_text_bytes_or_pretty_json(harness: Harness) -> None:
    state = harness.state
    honest = project(state, "p2")
    for given in (
        honest,
        honest.model_dump_json(),
        honest.model_dump_json().encode(),
        json.dumps(honest.model_dump(mode="json"), indent=2),
    ):
        assert find_leaks(state, given, "p2") == []
    leaky = honest.model_dump(mode="json")
    seat(leaky, 0)["won"] = [_card(state, 0)]
    assert find_leaks(state, json.dumps(leaky, indent=2), "p2")


def test_an_action_showing_its_secret_to_another_player_leaks(harness: Harness) -> None:
    card = harness.state.player("p1").hand[0]
    (recorded,) = harness.run(harness.action(HydratedBid, "p1", card=card)).actions
    bid: GameAction = recorded
    assert isinstance(bid, Bid)
    owners_copy = project_action(bid, "p1").model_dump_json()
    assert find_leaks(bid, owners_copy, "p1") == []
    leaks = find_leaks(bid, owners_copy, "p2")
    assert any(leak.startswith("card") for leak in leaks), leaks


class Phase(StrEnum):
    PLAY = "Play"


class Seat(PlayerState):
    secret: Annotated[int, OwnerOnly()] = 0
    """Owner-only."""
    shown: int = 0
    """Public."""


class Table(GameState[Seat, Phase]):
    log: list[str] = Field(default_factory=list)
    """Public messages."""


def table_with_secret(log: list[str]) -> Table:
    """A table where p2 holds the secret 777 and the public log says ``log``."""
    return Table(
        id="s",
        game_id="g",
        players=[Seat(player_id="p1"), Seat(player_id="p2", secret=777)],
        prng=PrngState(seed=12345, invocations=1),
        machine_state=Phase.PLAY,
        log=log,
    )


def test_a_hidden_value_that_is_also_public_is_flagged_only_when_it_shows_more_often() -> None:
    table = Table(
        id="s",
        game_id="g",
        players=[Seat(player_id="p1", shown=5), Seat(player_id="p2", secret=5)],
        prng=PrngState(seed=12345, invocations=1),
        machine_state=Phase.PLAY,
    )
    honest = project(table, "p1").model_dump(mode="json")
    assert find_leaks(table, json.dumps(honest), "p1") == []
    seat(honest, 1)["secret"] = 5
    (leak,) = find_leaks(table, json.dumps(honest), "p1")
    assert leak == "players[1].secret: hidden value 5 appears 2 time(s) in the view, 1 visibly"


def test_a_hidden_value_inside_text_the_view_adds_is_found() -> None:
    table = table_with_secret(log=["p2 drew"])
    data = project(table, "p1").model_dump(mode="json")
    assert find_leaks(table, json.dumps(data), "p1") == []
    data["log"] = ["p2 drew", "p2 holds 777"]
    assert find_leaks(table, json.dumps(data), "p1") == [
        "players[1].secret: hidden value 777 appears 1 time(s) inside text in the view, 0 visibly"
    ]


def test_a_value_the_game_itself_publishes_counts_as_visible() -> None:
    table = table_with_secret(
        log=["p2 holds 777"]
    )  # the state's own public field: not the projection's doing
    assert find_leaks(table, project(table, "p1").model_dump_json(), "p1") == []


@pytest.mark.parametrize("as_model", [False, True], ids=["json", "model"])
@pytest.mark.parametrize(
    "log",
    [["p2 holds 777"], ["p2 drew", "777"], ["p2 drew", "p2 drew 777"]],
    ids=["replaced", "added", "both"],
)
def test_a_hidden_value_written_into_public_text_is_found_however_the_text_got_there(
    log: list[str], as_model: bool
) -> None:
    table = table_with_secret(log=["p2 drew"])
    view = project(table, "p1").model_copy(update={"log": tuple(log)})
    leaks = LeakChecker(table).find(view if as_model else view.model_dump_json(), "p1")
    assert len(leaks) == 1
    assert leaks[0].startswith("players[1].secret: hidden value 777 appears 1 time(s)"), leaks
