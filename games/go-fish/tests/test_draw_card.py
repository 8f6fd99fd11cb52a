"""DrawCard: the game draws the top card for a player; a go-fish miss passes the turn."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.components import Card, Rank
from tabletop.testing import GameHarness
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import HydratedGoFishGameState

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]


def _draw(harness: Harness, fishing_for: str | None = None, player: str | None = "p1") -> HydratedDrawCard:
    return harness.action(HydratedDrawCard, player, fishing_for=fishing_for, source="system")


@pytest.mark.parametrize(
    ("fishing_for", "top", "caught", "on_turn"),
    [("7", "7D", True, "p1"), ("7", "2D", False, "p2"), (None, "2D", False, "p1")],
)
def test_apply_draws_the_top_card_and_passes_the_turn_only_on_a_miss(
    harness: Harness, deal: Deal, fishing_for: str | None, top: str, caught: bool, on_turn: str
) -> None:
    ctx = harness.context()
    deal(ctx.state, deck=f"KC {top}", p1="7H", p2="8S")
    action = _draw(harness, fishing_for)
    action.apply(ctx)
    assert [card.code for card in ctx.state.player("p1").hand] == ["7H", top]
    assert [card.code for card in ctx.state.deck.items] == ["KC"]
    assert action.metadata is not None
    assert (action.metadata.card, action.metadata.caught, action.metadata.book) == (
        Card.from_code(top),
        caught,
        None,
    )
    assert (ctx.turns.current_player_id, ctx.state.active_player_ids) == (on_turn, [on_turn])


def test_a_drawn_fourth_card_makes_a_book(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="9C", p1="9H 9S 9D 4C")
    action = _draw(harness, "4")
    action.apply(ctx)
    assert (ctx.state.player("p1").book_ranks(), [card.code for card in ctx.state.player("p1").hand]) == (
        [Rank.NINE],
        ["4C"],
    )
    assert action.metadata is not None and action.metadata.book is Rank.NINE
    assert ctx.turns.current_player_id == "p2"  # a book of another rank is still a miss


def test_check_refuses_a_draw_from_an_empty_deck(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="")
    with pytest.raises(IllegalActionError) as caught:
        _draw(harness, "7").check(ctx)
    assert caught.value.code == "deck-empty"


def test_check_needs_the_player_who_draws(harness: Harness) -> None:
    with pytest.raises(IllegalActionError) as caught:
        _draw(harness, "7", player=None).check(harness.context())
    assert (caught.value.code, caught.value.path) == ("missing-field", "player_id")


def test_players_may_not_draw_for_themselves(harness: Harness) -> None:
    raw = {"id": "x1", "game_id": "game-1", "type": "DrawCard", "player_id": "p1", "fishing_for": "7"}
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(raw)
    assert (caught.value.code, caught.value.path) == ("system-only", "type")
    assert harness.state.model_dump_json() == before
