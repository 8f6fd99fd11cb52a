"""DrawCard: a chance point draws a card of the stock for a player; a go-fish miss passes the turn."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.components import Card, Rank, standard_deck
from tabletop.testing import ForcedChance, GameHarness
from tabletop.views import SPECTATOR, project_action
from tabletop_go_fish.actions.ask import HydratedAsk
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import HydratedGoFishGameState

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]


def _draw(
    harness: Harness, fishing_for: str | None = None, player: str | None = "p1", card: str | None = None
) -> HydratedDrawCard:
    outcome = None if card is None else Card.from_code(card)
    return harness.action(HydratedDrawCard, player, fishing_for=fishing_for, outcome=outcome, source="system")


@pytest.mark.parametrize(
    ("fishing_for", "drawn", "caught", "on_turn", "holds"),
    [("7", "7D", True, "p1", [Rank.SEVEN]), ("7", "2D", False, "p2", []), (None, "2D", False, "p1", [])],
)
def test_apply_draws_the_outcome_and_passes_the_turn_only_on_a_miss(
    harness: Harness,
    deal: Deal,
    fishing_for: str | None,
    drawn: str,
    caught: bool,
    on_turn: str,
    holds: list[Rank],
) -> None:
    ctx = harness.context()
    deal(ctx.state, deck=f"{drawn} KC", p1="7H", p2="8S")
    ctx.state.player("p1").lacks = [Rank.TWO, Rank.NINE]
    action = _draw(harness, fishing_for, card=drawn)
    action.apply(ctx)
    assert [card.code for card in ctx.state.player("p1").hand] == ["7H", drawn]
    assert [card.code for card in ctx.state.deck] == ["KC"]
    assert action.metadata is not None
    assert (action.metadata.caught, action.metadata.book) == (caught, None)
    assert (ctx.turns.current_player_id, ctx.state.active_player_ids) == (on_turn, [on_turn])
    # a caught card is shown to the table; an unseen card may be of any rank the player lacked
    assert (ctx.state.player("p1").holds, ctx.state.player("p1").lacks) == (holds, [])


def test_a_draw_is_any_card_of_the_stock_each_equally_likely(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="2C 9H KS")
    assert _draw(harness, "7").chances(ctx) == [(Card.from_code(code), 1) for code in ("2C", "9H", "KS")]
    assert HydratedDrawCard.chance_space(harness.game) == standard_deck()


def test_the_card_drawn_is_the_drawer_s_alone(harness: Harness, deal: Deal) -> None:
    state = harness.engine.copy_state(harness.state)
    deal(state, deck="2C 3C", p1="7H", p2="8S")
    harness.state, harness.chance = state, ForcedChance([Card.from_code("3C")])
    result = harness.run(harness.action(HydratedAsk, "p1", target_player_id="p2", rank="7"))
    draw = result.actions[-1]
    assert isinstance(draw, HydratedDrawCard) and draw.outcome == Card.from_code("3C")
    assert project_action(draw, "p1").model_dump(mode="json")["outcome"] == {"rank": "3", "suit": "clubs"}
    for seat in ("p2", SPECTATOR):
        shown = project_action(draw, seat).model_dump(mode="json")
        assert shown["outcome"] is None and shown["metadata"] == {"caught": False, "book": None}


def test_a_drawn_fourth_card_makes_a_book(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="9C", p1="9H 9S 9D 4C")
    ctx.state.player("p1").holds = [Rank.NINE]
    action = _draw(harness, "4", card="9C")
    action.apply(ctx)
    assert (ctx.state.player("p1").book_ranks(), [card.code for card in ctx.state.player("p1").hand]) == (
        [Rank.NINE],
        ["4C"],
    )
    assert action.metadata is not None and action.metadata.book is Rank.NINE
    assert ctx.state.player("p1").holds == []  # a booked rank is nobody's secret any more
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
