"""Go Fish 3.0.0 -> 4.0.0: a running match forgets its stock's shuffled order and draws by chance
(then 4.0.0 -> 5.0.0 reads it as it is: only the log may hold a loss on time now)."""

from pathlib import Path

import pytest
from tabletop.components import Card, standard_deck
from tabletop.games import load
from tabletop.versions import (
    load_rehearsal,
    migrate_action,
    migrate_state,
    migration_path,
    play_rehearsal,
    rehearsal_dir,
    rehearsal_files,
)
from tabletop_go_fish.actions.draw_card import DrawCard
from tabletop_go_fish.model.game_state import HydratedGoFishGameState

REHEARSALS = [path for path in rehearsal_files(rehearsal_dir("go-fish")) if path.parent.name == "3.0.0"]


def test_the_3_0_0_rehearsals_are_there() -> None:
    assert {path.stem for path in REHEARSALS} == {"two-players-half-drawn", "four-players-half-drawn"}


@pytest.mark.parametrize("path", REHEARSALS, ids=lambda path: path.stem)
def test_a_3_0_0_match_keeps_hands_books_and_the_cards_of_its_stock(path: Path) -> None:
    recorded = load_rehearsal(path)
    assert recorded.logic_version == "3.0.0"
    old = recorded.state
    deck = old["deck"]
    assert isinstance(deck, dict) and isinstance(deck["items"], list) and deck["items"]
    state, steps = migrate_state(load("go-fish"), old, recorded.logic_version)
    assert [(step.from_version, step.to_version) for step in steps] == [
        ("3.0.0", "4.0.0"),
        ("4.0.0", "5.0.0"),
    ]
    assert isinstance(state, HydratedGoFishGameState)
    stock = [Card.model_validate(card) for card in deck["items"]]
    assert state.deck == [card for card in standard_deck() if card in stock]  # the same cards, no order
    assert len(state.deck) == len(stock)
    players = state.model_dump(mode="json")["players"]
    for new, before in zip(players, old["players"], strict=True):  # type: ignore[arg-type]
        assert isinstance(before, dict)
        assert (new["hand"], new["books"]) == (before["hand"], before["books"])
        assert (new["holds"], new["lacks"]) == ([], [])  # 3.0.0 did not record what the table knew
    assert state.prng.model_dump(mode="json") == old["prng"]
    assert (state.machine_state, state.active_player_ids) == (old["machine_state"], old["active_player_ids"])


@pytest.mark.parametrize("path", REHEARSALS, ids=lambda path: path.stem)
def test_a_recorded_draw_keeps_its_card_as_its_outcome(path: Path) -> None:
    recorded = load_rehearsal(path)
    definition = load("go-fish")
    steps = migration_path(definition, recorded.logic_version)
    assert steps is not None
    draws = [action for action in recorded.actions if action["type"] == "DrawCard"]
    assert draws
    for action in draws:
        metadata = action["metadata"]
        assert isinstance(metadata, dict)
        migrated = DrawCard.model_validate(migrate_action(definition, action, steps))
        assert migrated.outcome == Card.model_validate(metadata["card"])
        assert migrated.metadata is not None
        assert (migrated.metadata.caught, migrated.metadata.book) == (metadata["caught"], metadata["book"])


@pytest.mark.parametrize("path", REHEARSALS, ids=lambda path: path.stem)
def test_a_migrated_match_plays_to_its_end(path: Path) -> None:
    report = play_rehearsal(load_rehearsal(path), load("go-fish"))  # bots play it out, checked
    assert (report.from_version, report.to_version) == ("3.0.0", "5.0.0") and report.actions_played > 0
