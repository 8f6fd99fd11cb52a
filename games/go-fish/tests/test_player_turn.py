"""PlayerTurn: the player on turn asks; out players are skipped, empty hands draw first."""

from collections.abc import Callable

import pytest
from tabletop.components import Card, Rank
from tabletop.testing import ForcedChance, GameHarness
from tabletop_go_fish import definition
from tabletop_go_fish.actions.ask import HydratedAsk
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import HydratedGoFishGameState
from tabletop_go_fish.model.player_state import Book
from tabletop_go_fish.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]


def test_the_first_player_in_seating_order_starts(harness: Harness) -> None:
    assert harness.state.active_player_ids == ["p1"]
    assert (harness.state.turn_manager.turn_count, harness.state.machine_state) == (
        1,
        MachineState.PLAYER_TURN,
    )


def test_enter_keeps_the_turn_of_a_player_who_holds_cards(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, p1="7H")
    PlayerTurn().enter(ctx)
    assert (ctx.state.active_player_ids, ctx.turns.turn_count, len(ctx.queue)) == (["p1"], 1, 0)


@pytest.mark.parametrize(
    ("hands", "on_turn"),
    [({"p1": "", "p2": "7H", "p3": "7S"}, "p2"), ({"p1": "", "p2": "", "p3": "7S"}, "p3")],
)
def test_enter_skips_players_who_are_out(deal: Deal, hands: dict[str, str], on_turn: str) -> None:
    harness = GameHarness(definition, players=3)
    ctx = harness.context()
    deal(ctx.state, deck="", **hands)
    PlayerTurn().enter(ctx)
    assert (ctx.state.active_player_ids, ctx.turns.current_player_id, len(ctx.queue)) == (
        [on_turn],
        on_turn,
        0,
    )


def test_enter_draws_for_an_empty_hand_while_the_deck_lasts(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="2C", p1="")
    PlayerTurn().enter(ctx)
    (draw,) = ctx.queue
    assert isinstance(draw, HydratedDrawCard)
    assert (draw.player_id, draw.fishing_for, ctx.state.active_player_ids) == ("p1", None, ["p1"])


@pytest.mark.parametrize(
    ("books", "following"),
    [(0, MachineState.PLAYER_TURN), (12, MachineState.PLAYER_TURN), (13, MachineState.GAME_OVER)],
)
def test_on_action_ends_the_game_with_the_thirteenth_book(
    harness: Harness, books: int, following: MachineState
) -> None:
    ctx = harness.context()
    ranks = [Book(rank=rank, turn=1) for rank in list(Rank)[:books]]
    ctx.state.player("p1").books, ctx.state.player("p2").books = ranks[::2], ranks[1::2]
    action = harness.action(HydratedAsk, "p1", target_player_id="p2", rank="7")
    assert PlayerTurn().on_action(action, ctx) is following


def test_only_the_player_on_turn_may_act_and_only_by_asking(harness: Harness) -> None:
    engine, state, game = harness.engine, harness.state, harness.game
    assert engine.valid_action_types(state, "p1", game) == ["Ask"]
    assert engine.valid_action_types(state, "p2", game) == []


def test_go_fish_and_its_draw_are_recorded_in_one_run(harness: Harness, deal: Deal) -> None:
    state = harness.engine.copy_state(harness.state)
    deal(state, deck="2C 3C", p1="7H", p2="8S")
    harness.state, harness.chance = state, ForcedChance([Card.from_code("3C")])
    dealt = state.action_count  # the deal's chance points come first
    result = harness.run(harness.action(HydratedAsk, "p1", target_player_id="p2", rank="7"))
    assert [(action.type, action.index, action.player_id) for action in result.actions] == [
        ("Ask", dealt, "p1"),
        ("DrawCard", dealt + 1, "p1"),
    ]
    assert [card.code for card in result.state.player("p1").hand] == ["7H", "3C"]
    assert result.state.active_player_ids == ["p2"]
