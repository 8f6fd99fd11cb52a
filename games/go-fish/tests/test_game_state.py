"""The state's setup and deal (chance points) and queries (out players, books, leaders)."""

from collections.abc import Callable

import pytest
from tabletop import UNKEYED, GameEngine, IllegalActionError
from tabletop.components import Card, Rank, standard_deck
from tabletop.testing import TEST_PRNG_KEY, ForcedChance, GameHarness, make_game
from tabletop_go_fish import definition
from tabletop_go_fish.actions.deal_card import HydratedDealCard
from tabletop_go_fish.definition.states import MachineState
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


def test_the_deal_is_a_chance_point_per_card_round_the_table() -> None:
    game = make_game(definition, players=2, seed=1)
    codes = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "KD", "QD", "JD", "10D", "9D", "8D", "7D"]
    forced = ForcedChance([Card.from_code(code) for code in codes])
    result = GameEngine(definition).start(game, prng_key=TEST_PRNG_KEY, chance=forced)
    deals = [action for action in result.actions if isinstance(action, HydratedDealCard)]
    assert len(deals) == len(result.actions)  # the start records the deal and nothing else
    assert [(deal.to, deal.outcome) for deal in deals] == [
        ("p1" if index % 2 == 0 else "p2", Card.from_code(code)) for index, code in enumerate(codes)
    ]
    state = result.state
    assert [c.code for c in state.player("p1").hand] == codes[0::2]  # in the order dealt
    assert [c.code for c in state.player("p2").hand] == codes[1::2]
    assert state.deck == [card for card in standard_deck() if card.code not in codes]  # standard order
    assert (state.machine_state, state.active_player_ids) == (MachineState.PLAYER_TURN, ["p1"])


def test_a_deal_draws_among_the_cards_left_each_equally_likely(harness: Harness) -> None:
    ctx = harness.context()
    deal = harness.action(HydratedDealCard, None, to="p2", source="system")
    assert deal.chances(ctx) == [(card, 1) for card in ctx.state.deck]
    assert HydratedDealCard.chance_space(harness.game) == standard_deck()
    with pytest.raises(IllegalActionError) as caught:
        GameEngine(definition).start(
            harness.game, prng_key=TEST_PRNG_KEY, chance=ForcedChance([Card.from_code("AC")] * 2)
        )
    assert caught.value.code == "impossible-chance-outcome"  # the ace of clubs is dealt already


def test_the_deal_comes_from_the_state_prng_and_the_key() -> None:
    assert _start(2, seed=1) == _start(2, seed=1)
    assert _start(2, seed=1).player("p1").hand != _start(2, seed=2).player("p1").hand
    game = make_game(definition, players=2, seed=1)
    keyed = GameEngine(definition).start(game, prng_key=TEST_PRNG_KEY).state
    assert keyed.player("p1").hand != _start(2, seed=1).player("p1").hand


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


@pytest.mark.parametrize("position", [0, 9, -1])
def test_taking_a_card_from_the_stock_takes_that_card_and_keeps_the_others_in_order(position: int) -> None:
    state = _start(2, seed=3)
    card = state.deck[position]
    others = [each for each in state.deck if each != card]
    state.take_from_stock("p1", Card(rank=card.rank, suit=card.suit))
    assert state.deck == others
    assert state.player("p1").hand[-1] == card or card.rank in [
        book.rank for book in state.player("p1").books
    ]
    hand = list(state.player("p2").hand)
    with pytest.raises(ValueError, match=f"{card.code} is not in the stock"):
        state.take_from_stock("p2", card)
    assert (state.deck, state.player("p2").hand) == (others, hand)  # changed nothing
