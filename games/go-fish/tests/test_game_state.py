"""The state's setup (shuffle and deal) and queries (out players, books, leaders)."""

from collections.abc import Callable

import pytest
from tabletop import UNKEYED, GameEngine, Prng, PrngState
from tabletop.components import Card, Rank, standard_deck
from tabletop.testing import GameHarness, make_game
from tabletop_go_fish import definition
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState
from tabletop_go_fish.model.player_state import Book

Harness = GameHarness[HydratedGoFishGameState, GoFishConfig]
Deal = Callable[..., None]
Census = Callable[[GoFishGameState], list[Card]]


def _start(players: int, seed: int) -> HydratedGoFishGameState:
    game = make_game(definition, players=players, seed=seed)
    return GameEngine(definition).start(game, prng_key=UNKEYED).state  # the seeds' reference deals


@pytest.mark.parametrize(("players", "hand_size"), [(2, 7), (3, 7), (4, 5), (5, 5), (6, 5)])
def test_setup_deals_each_player_a_hand_from_a_full_deck(
    census: Census, players: int, hand_size: int
) -> None:
    state = _start(players, seed=5)
    for player in state.players:
        assert len(player.hand) + 4 * len(player.books) == hand_size
        assert all(sum(c.rank == card.rank for c in player.hand) < 4 for card in player.hand)
    assert len(state.deck) == 52 - players * hand_size
    assert sorted(census(state), key=str) == sorted(standard_deck(), key=str)


def test_the_deck_is_shuffled_by_the_state_prng() -> None:
    assert _start(2, seed=1).deck == _start(2, seed=1).deck
    assert _start(2, seed=1).deck != _start(2, seed=2).deck
    reference = Prng(PrngState(seed=1))
    reference.rand_id()  # the state id comes first, then one draw per card but the last
    top_first = reference.shuffled(standard_deck())[::-1]
    state = _start(2, seed=1)
    assert state.prng.invocations == reference.state.invocations
    assert (state.player("p1").hand, state.player("p2").hand) == (top_first[:7], top_first[7:14])
    assert state.deck.items[::-1] == top_first[14:]


def test_a_book_dealt_is_laid_down_before_play_in_turn_zero() -> None:
    state = _start(2, seed=40)  # this seed deals p1 all four eights
    assert [len(p.hand) for p in state.players] == [3, 7]
    assert state.player("p1").books == [Book(rank=Rank.EIGHT, turn=0)]
    assert state.action_count == 0 and state.active_player_ids == ["p1"]


def test_lay_book_needs_all_four_cards_of_the_rank(harness: Harness, deal: Deal) -> None:
    ctx = harness.context()
    deal(ctx.state, p1="7H 7S 2C 7D 7C")
    assert ctx.state.lay_book("p1", Rank.SEVEN)
    assert ([c.code for c in ctx.state.player("p1").hand], ctx.state.player("p1").book_ranks()) == (
        ["2C"],
        [Rank.SEVEN],
    )
    assert ctx.state.player("p1").books[0].turn == ctx.state.turn_manager.turn_count
    assert not ctx.state.lay_book("p1", Rank.TWO)


@pytest.mark.parametrize(
    ("deck", "hand", "out"), [("", "", True), ("2C", "", False), ("", "7H", False), ("2C", "7H", False)]
)
def test_a_player_is_out_with_no_cards_and_nothing_to_draw(
    harness: Harness, deal: Deal, deck: str, hand: str, out: bool
) -> None:
    state = harness.engine.copy_state(harness.state)
    deal(state, deck=deck, p2=hand)
    assert state.is_out("p2") is out


@pytest.mark.parametrize(
    ("books", "leaders"), [((1, 2, 2), ["p2", "p3"]), ((4, 0, 3), ["p1"]), ((0, 0, 0), ["p1", "p2", "p3"])]
)
def test_leaders_have_the_most_books(books: tuple[int, ...], leaders: list[str]) -> None:
    state = _start(3, seed=1)
    for player, count in zip(state.players, books, strict=True):
        player.books = [Book(rank=rank, turn=1) for rank in list(Rank)[:count]]
    assert state.leaders() == leaders
    assert not state.all_books_made()
