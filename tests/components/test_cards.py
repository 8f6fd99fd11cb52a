"""The standard deck: short JSON-friendly ranks and suits, hashable cards, a fixed deck order."""

import doctest

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop import Hydrated, Model
from tabletop.components import Card, DrawBag, HydratedDrawBag, Rank, Suit, _cards, standard_deck

cards = st.builds(Card, rank=st.sampled_from(Rank), suit=st.sampled_from(Suit))


def test_the_module_examples_run() -> None:
    assert doctest.testmod(_cards).failed == 0


def test_ranks_and_suits_have_short_values_in_a_fixed_order() -> None:
    assert [rank.value for rank in Rank] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [suit.value for suit in Suit] == ["clubs", "diamonds", "hearts", "spades"]
    assert [suit.letter for suit in Suit] == ["C", "D", "H", "S"]


def test_the_standard_deck_is_52_distinct_cards_suit_by_suit_ace_to_king() -> None:
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    assert [card.code for card in deck[:14]] == [f"{rank.value}C" for rank in Rank] + ["AD"]
    assert deck[-1] == Card(rank=Rank.KING, suit=Suit.SPADES)
    assert standard_deck() == deck and standard_deck() is not deck


def test_every_standard_deck_is_its_own_list_of_immutable_cards() -> None:
    deck, other = standard_deck(), standard_deck()
    deck.pop()
    assert len(other) == 52  # a list of its own
    with pytest.raises(ValidationError):
        other[0].rank = Rank.KING  # type: ignore[misc]  # the shared cards cannot change
    assert other[0] == Card(rank=Rank.ACE, suit=Suit.CLUBS)


@pytest.mark.parametrize(
    ("rank", "suit", "code"),
    [
        (Rank.SEVEN, Suit.HEARTS, "7H"),
        (Rank.TEN, Suit.SPADES, "10S"),
        (Rank.ACE, Suit.CLUBS, "AC"),
        (Rank.QUEEN, Suit.DIAMONDS, "QD"),
    ],
)
def test_a_card_has_a_short_code(rank: Rank, suit: Suit, code: str) -> None:
    card = Card(rank=rank, suit=suit)
    assert card.code == str(card) == code
    assert Card.from_code(code) == Card.from_code(code.lower()) == card


@pytest.mark.parametrize("code", ["", "H", "1H", "7X", "11S", "7HH", "A"])
def test_from_code_refuses_what_is_not_a_card(code: str) -> None:
    with pytest.raises(ValueError, match="is not a card code"):
        Card.from_code(code)


def test_cards_are_frozen_and_hashable() -> None:
    card = Card.from_code("9D")
    with pytest.raises(ValidationError):
        card.rank = Rank.TEN  # type: ignore[misc]
    assert {card, Card.from_code("9D")} == {card}


@pytest.mark.parametrize("data", [{"rank": "1", "suit": "hearts"}, {"rank": "7", "suit": "H"}, {"rank": "7"}])
def test_cards_refuse_unknown_ranks_and_suits(data: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Card.model_validate(data)


@given(card=cards)
def test_cards_round_trip_through_json_and_their_code(card: Card) -> None:
    assert Card.model_validate_json(card.model_dump_json()) == card
    assert Card.from_code(card.code) == card
    assert orjson.loads(card.model_dump_json()) == {"rank": card.rank.value, "suit": card.suit.value}


class Hand(Model):
    stock: DrawBag[Card]
    """The deck to draw from."""
    held: list[Card]
    """Cards in hand."""


class HydratedHand(Hand, Hydrated[Hand]):
    pass


def test_a_deck_of_cards_in_a_hydrated_model_round_trips_through_json() -> None:
    plain = Hand(stock=DrawBag[Card](items=standard_deck()), held=[Card.from_code("10H")])
    hand = HydratedHand.hydrate(plain.model_dump_json())
    assert isinstance(hand.stock, HydratedDrawBag)
    hand.held.append(hand.stock.draw())
    assert [card.code for card in hand.held] == ["10H", "KS"]
    again = HydratedHand.hydrate(orjson.dumps(hand.dehydrate().model_dump(mode="json")))
    assert again == hand and len(again.stock) == 51
