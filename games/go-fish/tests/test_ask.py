"""Ask: the target hands over every card of the rank, or says "go fish" and the asker draws."""

import random
from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.components import Rank
from tabletop.testing import GameHarness
from tabletop_go_fish import definition
from tabletop_go_fish.actions.ask import HydratedAsk
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import HydratedGoFishGameState

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]


def _ask(harness: Harness, target: str, rank: str, player: str = "p1") -> HydratedAsk:
    return harness.action(HydratedAsk, player, target_player_id=target, rank=rank)


def _hand(state: HydratedGoFishGameState, player_id: str) -> list[str]:
    return [card.code for card in state.player(player_id).hand]


def test_the_target_hands_over_every_card_of_the_rank(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, p1="7H 2C", p2="7S 3D 7C")
    action = _ask(harness, "p2", "7")
    action.apply(ctx)
    assert (_hand(ctx.state, "p1"), _hand(ctx.state, "p2")) == (["7H", "2C", "7S", "7C"], ["3D"])
    assert action.metadata is not None
    assert [card.code for card in action.metadata.received] == ["7S", "7C"]
    assert (action.metadata.go_fish, action.metadata.book) == (False, None)
    assert ctx.turns.current_player_id == "p1" and not ctx.queue  # the asker goes again


@pytest.mark.parametrize(("p2_hand", "go_fish"), [("7S 3D", False), ("3D", True)])
def test_the_table_learns_who_holds_the_rank_and_who_lacks_it(
    harness: Harness, deal: Deal, p2_hand: str, go_fish: bool
) -> None:
    ctx = harness.context()
    deal(ctx.state, p1="7H 2C", p2=p2_hand)
    ctx.state.player("p2").holds = [Rank.SEVEN] if not go_fish else []
    action = _ask(harness, "p2", "7")
    action.apply(ctx)
    assert action.metadata is not None and action.metadata.go_fish is go_fish
    p1, p2 = ctx.state.player("p1"), ctx.state.player("p2")
    assert (p1.holds, p1.lacks) == ([Rank.SEVEN], [])  # the asker must hold one; now everyone knows
    assert (p2.holds, p2.lacks) == ([], [Rank.SEVEN])  # handed over or never held: none left


def test_the_fourth_card_makes_a_book_laid_down_at_once(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, p1="QH QS 5C QD", p2="QC 9H")
    action = _ask(harness, "p2", "Q")
    action.apply(ctx)
    assert (_hand(ctx.state, "p1"), ctx.state.player("p1").book_ranks()) == (["5C"], [Rank.QUEEN])
    assert action.metadata is not None and action.metadata.book is Rank.QUEEN


def test_go_fish_queues_a_draw_for_the_asked_rank(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="2C 3C", p1="7H", p2="8S")
    action = _ask(harness, "p2", "7")
    action.apply(ctx)
    assert action.metadata is not None and action.metadata.go_fish and action.metadata.received == []
    (draw,) = ctx.queue
    assert isinstance(draw, HydratedDrawCard)
    assert (draw.player_id, draw.fishing_for, draw.source) == ("p1", Rank.SEVEN, "system")
    assert (_hand(ctx.state, "p1"), len(ctx.state.deck)) == (["7H"], 2)  # the draw comes next


def test_go_fish_with_an_empty_deck_passes_the_turn(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="", p1="7H", p2="8S")
    _ask(harness, "p2", "7").apply(ctx)
    assert not ctx.queue
    assert (ctx.turns.current_player_id, ctx.state.active_player_ids) == ("p2", ["p2"])


@pytest.mark.parametrize(
    ("target", "rank", "hands", "code", "path"),
    [
        ("p1", "7", {"p1": "7H"}, "cannot-ask-self", "target_player_id"),
        ("p9", "7", {"p1": "7H"}, "unknown-target", "target_player_id"),
        ("p2", "7", {"p1": "7H", "p2": "", "deck": ""}, "target-out", "target_player_id"),
        ("p2", "8", {"p1": "7H", "p2": "8S"}, "not-holding-rank", "rank"),
    ],
)
def test_check_rejects_illegal_asks(
    harness: Harness, deal: Deal, target: str, rank: str, hands: dict[str, str], code: str, path: str
) -> None:
    ctx = harness.context()
    deal(ctx.state, **hands)
    with pytest.raises(IllegalActionError) as caught:
        _ask(harness, target, rank).check(ctx)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_a_player_with_an_empty_hand_may_be_asked_while_the_deck_lasts(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, deck="2C", p1="7H", p2="")
    _ask(harness, "p2", "7").check(ctx)  # not out: they will draw on their turn


@pytest.mark.parametrize(
    ("fields", "code", "path"),
    [
        ({"target_player_id": "p2", "rank": "1"}, "invalid-value", "rank"),
        ({"rank": "7"}, "missing-field", "target_player_id"),
    ],
)
def test_malformed_asks_are_rejected_at_the_boundary(
    harness: Harness, fields: dict[str, str], code: str, path: str
) -> None:
    raw = {"id": "x1", "game_id": "game-1", "type": "Ask", "player_id": "p1", **fields}
    with pytest.raises(IllegalActionError) as caught:
        harness.play(raw)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_enumerate_offers_every_held_rank_to_every_target_not_out(harness: Harness, deal: Deal) -> None:
    state = harness.engine.copy_state(harness.state)
    deal(state, deck="", p1="KH 2C KS", p2="3D")
    offered = [(a.target_player_id, a.rank.value) for a in HydratedAsk.enumerate(state, "p1")]
    assert offered == [("p2", "2"), ("p2", "K")]
    assert all(a.id == "" and a.player_id == "p1" for a in HydratedAsk.enumerate(state, "p1"))
    deal(state, p2="")
    assert HydratedAsk.enumerate(state, "p1") == []  # p2 is out: nobody to ask
    assert HydratedAsk.enumerate(state, "p2") == []  # not on turn


@pytest.mark.parametrize(
    ("player", "hand", "expected"), [("p1", "7H", True), ("p1", "", False), ("p2", "7H", False)]
)
def test_can_ask_needs_the_turn_and_a_card(
    harness: Harness, deal: Deal, player: str, hand: str, expected: bool
) -> None:
    state = harness.engine.copy_state(harness.state)
    deal(state, **{player: hand})
    assert HydratedAsk.can_ask(state, player) is expected


@pytest.mark.parametrize("players", [2, 6])
def test_action_space_is_every_seat_and_rank(players: int) -> None:
    game = GameHarness(definition, players=players).game
    space = HydratedAsk.action_space(game)
    assert len(space) == players * 13
    assert space[:2] == [{"target_player_id": "p1", "rank": "A"}, {"target_player_id": "p1", "rank": "2"}]
    assert space[-1] == {"target_player_id": f"p{players}", "rank": "K"}
    assert space == HydratedAsk.action_space(game)


def test_enumerated_asks_are_in_the_action_space() -> None:
    harness = GameHarness(definition, players=4, seed=9)
    space = HydratedAsk.action_space(harness.game)
    rng = random.Random(9)
    for _ in range(40):
        (player,) = harness.state.active_player_ids
        legal = harness.legal_actions(player)
        for action in legal:
            assert action.model_dump(mode="json", include={"target_player_id", "rank"}) in space
        harness.play(rng.choice(legal))
