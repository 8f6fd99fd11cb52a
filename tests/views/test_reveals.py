"""find_reveals: which perspectives a step showed a value hidden from them, read off the views alone."""

from __future__ import annotations

from typing import cast

from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, HiddenValues, find_reveals
from tabletop_go_fish.model.game_state import HydratedGoFishGameState


def test_a_go_fish_ask_that_takes_cards_shows_the_asker_them_and_nobody_else_anything() -> None:
    harness = GameHarness.for_game("go-fish", players=3, seed=4)
    state = cast(HydratedGoFishGameState, harness.state)
    asker = state.active_player_ids[0]
    others = [player for player in state.players if player.player_id != asker]
    mine = {card.rank for card in state.player(asker).hand}
    target, rank = next(
        (player.player_id, card.rank) for player in others for card in player.hand if card.rank in mine
    )
    before = harness.engine.copy_state(state)
    harness.play(
        {
            "id": "a1",
            "game_id": "game-1",
            "type": "Ask",
            "player_id": asker,
            "target_player_id": target,
            "rank": rank.value,
        }
    )
    assert find_reveals(before, harness.state) == [asker]


def test_a_sealed_bid_reveals_nothing_and_the_reveal_shows_everyone_the_bids() -> None:
    harness = GameHarness.for_game("goofspiel", seed=2)
    start = harness.engine.copy_state(harness.state)
    harness.play({"id": "b1", "game_id": "game-1", "type": "Bid", "player_id": "p1", "card": 3})
    sealed = harness.engine.copy_state(harness.state)
    assert find_reveals(start, sealed) == []
    harness.play({"id": "b2", "game_id": "game-1", "type": "Bid", "player_id": "p2", "card": 5})
    # the Reveal declares reveals_info, but the answer never reads it: only the views. p1's sealed
    # bid is turned up for p2 and the spectator; p2's bid was never in a stored state, and the next
    # prize is in none (a RevealPrize chance point), so nothing p1 could not see became visible
    assert find_reveals(HiddenValues(sealed), harness.state) == ["p2", SPECTATOR]
    assert find_reveals(sealed, harness.state, perspectives=["p2"]) == ["p2"]


def test_a_step_that_changes_nothing_hidden_reveals_nothing() -> None:
    harness = GameHarness.for_game("tic-tac-toe", seed=1)
    before = harness.engine.copy_state(harness.state)
    harness.play(
        {"id": "m1", "game_id": "game-1", "type": "PlaceMark", "player_id": "p1", "square": {"x": 1, "y": 1}}
    )
    assert find_reveals(before, harness.state) == []
