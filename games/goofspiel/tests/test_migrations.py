"""Goofspiel 2.0.0 -> 3.0.0: a running match drops its shuffled prize deck and plays on by chance
(then 3.0.0 -> 4.0.0 reads it as it is: only the log may hold a loss on time now)."""

from pathlib import Path

import pytest
from tabletop import GameEngine
from tabletop.games import load
from tabletop.versions import load_rehearsal, migrate_state, play_rehearsal, rehearsal_dir, rehearsal_files
from tabletop_goofspiel import definition
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

REHEARSALS = [path for path in rehearsal_files(rehearsal_dir("goofspiel")) if path.parent.name == "2.0.0"]


def test_the_2_0_0_rehearsals_are_there() -> None:
    assert {path.stem for path in REHEARSALS} >= {"mid-round", "midgame"}


@pytest.mark.parametrize("path", REHEARSALS, ids=lambda path: path.stem)
def test_a_2_0_0_match_keeps_its_play_and_loses_only_the_deck(path: Path) -> None:
    recorded = load_rehearsal(path)
    assert recorded.logic_version == "2.0.0"
    old = recorded.state
    deck = old["prize_deck"]
    assert isinstance(deck, list) and deck
    state, steps = migrate_state(load("goofspiel"), old, recorded.logic_version)
    assert [(step.from_version, step.to_version) for step in steps] == [
        ("2.0.0", "3.0.0"),
        ("3.0.0", "4.0.0"),
    ]
    assert isinstance(state, HydratedGoofspielGameState)
    assert "prize_deck" not in state.model_dump(mode="json")
    assert state.prize == old["prize"] and len(state.rounds) == len(old["rounds"])  # type: ignore[arg-type]
    assert state.prizes_left == sorted(card for card in deck if isinstance(card, int))  # the same prizes
    assert state.model_dump(mode="json")["players"] == old["players"]
    assert state.prng.model_dump(mode="json") == old["prng"]


@pytest.mark.parametrize("path", REHEARSALS, ids=lambda path: path.stem)
def test_a_migrated_match_plays_on_with_each_prize_a_chance_point(path: Path) -> None:
    recorded = load_rehearsal(path)
    state, _ = migrate_state(load("goofspiel"), recorded.state, recorded.logic_version)
    assert isinstance(state, HydratedGoofspielGameState)
    left = list(state.prizes_left)
    engine = GameEngine(definition)
    game = definition.game_type.model_validate(recorded.match)
    revealed: list[int] = []
    while state.result is None:
        for player_id in list(state.active_player_ids):
            if not engine.legal_actions(state, player_id, game):
                continue
            card = state.player(player_id).hand[0]
            bid = HydratedBid.candidate(state, player_id, card=card).model_copy(
                update={"id": f"m{state.action_count}"}
            )
            result = engine.run(bid, state, game)
            state = result.state
            revealed += [
                a.outcome for a in result.actions if isinstance(a, HydratedRevealPrize) and a.outcome
            ]
    assert sorted(revealed) == left  # every prize left came up once, each by its chance point
    report = play_rehearsal(recorded, load("goofspiel"))  # what make test does: bots play it out, checked
    assert (report.from_version, report.to_version) == ("2.0.0", "4.0.0") and report.actions_played > 0
