"""Draw bags: the top is the end of ``items``; shuffles come from the state PRNG; JSON round trips."""

import doctest

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field
from tabletop import Hydrated, Model, Prng, PrngState
from tabletop.components import Card, DrawBag, EmptyBagError, HydratedDrawBag, _draw_bag, standard_deck

seeds = st.integers(min_value=0, max_value=2**32 - 1)
item_lists = st.lists(st.integers(min_value=0, max_value=20), max_size=40)


def bag_of(*items: str) -> HydratedDrawBag[str]:
    """A bag holding ``items`` bottom first: the last one is on top."""
    return HydratedDrawBag[str](items=list(items))


def test_the_module_examples_run() -> None:
    assert doctest.testmod(_draw_bag).failed == 0


def test_draw_takes_the_last_item() -> None:
    bag = bag_of("a", "b", "c")
    assert (bag.draw(), bag.draw(), bag.items) == ("c", "b", ["a"])


@pytest.mark.parametrize(
    ("count", "drawn", "left"), [(0, [], ["a", "b", "c"]), (2, ["c", "b"], ["a"]), (3, ["c", "b", "a"], [])]
)
def test_draw_many_takes_exactly_count_items_from_the_top(
    count: int, drawn: list[str], left: list[str]
) -> None:
    bag = bag_of("a", "b", "c")
    assert bag.draw_many(count) == drawn
    assert bag.items == left


def test_draw_many_is_all_or_nothing() -> None:
    bag = bag_of("a", "b")
    with pytest.raises(EmptyBagError, match="cannot take 3 item"):
        bag.draw_many(3)
    assert bag.items == ["a", "b"]


@pytest.mark.parametrize(("count", "drawn"), [(1, ["b"]), (2, ["b", "a"]), (5, ["b", "a"])])
def test_draw_up_to_stops_when_the_bag_runs_out(count: int, drawn: list[str]) -> None:
    bag = bag_of("a", "b")
    assert bag.draw_up_to(count) == drawn
    assert len(bag) == 2 - len(drawn)


@pytest.mark.parametrize("method", ["draw", "peek"])
def test_drawing_or_peeking_an_empty_bag_is_an_error(method: str) -> None:
    bag = bag_of()
    with pytest.raises(EmptyBagError) as caught:
        getattr(bag, method)()
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("method", ["draw_many", "draw_up_to", "peek_many"])
def test_a_negative_count_is_refused(method: str) -> None:
    with pytest.raises(ValueError, match="negative"):
        getattr(bag_of("a"), method)(-1)


def test_peek_shows_the_top_without_removing_it() -> None:
    bag = bag_of("a", "b", "c")
    assert (bag.peek(), bag.peek_many(2), bag.items) == ("c", ["c", "b"], ["a", "b", "c"])


def test_items_added_on_top_are_drawn_first_and_at_the_bottom_last() -> None:
    bag = bag_of("m")
    bag.add_to_top(["t1", "t2"])
    bag.add_to_bottom(["b1", "b2"])
    assert bag.items == ["b2", "b1", "m", "t1", "t2"]
    assert bag.draw_many(5) == ["t2", "t1", "m", "b1", "b2"]


def test_counting_and_membership() -> None:
    bag = bag_of("x", "y", "x")
    assert (len(bag), bag.count("x"), bag.count("z")) == (3, 2, 0)
    assert "y" in bag and "z" not in bag
    assert not bag.is_empty() and bag_of().is_empty()


def test_remove_takes_out_the_topmost_equal_item() -> None:
    bag = HydratedDrawBag[Card](items=[*standard_deck(), Card.from_code("AC")])
    bag.remove(Card.from_code("AC"))
    assert len(bag) == 52 and bag.items[0].code == "AC"
    bag.remove(Card.from_code("AC"))
    assert Card.from_code("AC") not in bag
    with pytest.raises(ValueError, match="is not in the bag"):
        bag.remove(Card.from_code("AC"))


@settings(max_examples=60)
@given(items=item_lists, seed=seeds)
def test_shuffle_is_a_permutation_drawing_one_number_per_item_but_one(items: list[int], seed: int) -> None:
    bag = HydratedDrawBag[int](items=items)
    prng = Prng(PrngState(seed=seed, invocations=3))
    bag.shuffle(prng)
    assert sorted(bag.items) == sorted(items)
    assert prng.state.invocations == 3 + max(len(items) - 1, 0)


@settings(max_examples=60)
@given(items=item_lists, seed=seeds)
def test_the_same_seed_gives_the_same_order(items: list[int], seed: int) -> None:
    first, second = HydratedDrawBag[int](items=items), HydratedDrawBag[int](items=items)
    first.shuffle(Prng(PrngState(seed=seed)))
    second.shuffle(Prng(PrngState(seed=seed)))
    assert first.items == second.items == Prng(PrngState(seed=seed)).shuffled(items)


@settings(max_examples=30)
@given(items=item_lists, added=item_lists, seed=seeds)
def test_shuffle_in_adds_then_shuffles_the_whole_bag(items: list[int], added: list[int], seed: int) -> None:
    bag = HydratedDrawBag[int](items=items)
    prng = Prng(PrngState(seed=seed))
    bag.shuffle_in(added, prng)
    assert bag.items == Prng(PrngState(seed=seed)).shuffled(items + added)
    assert prng.state.invocations == max(len(items) + len(added) - 1, 0)


def test_a_shuffled_deck_differs_between_seeds() -> None:
    orders = set()
    for seed in range(5):
        bag = HydratedDrawBag[Card](items=standard_deck())
        bag.shuffle(Prng(PrngState(seed=seed)))
        orders.add(tuple(card.code for card in bag.items))
    assert len(orders) == 5


class Table(Model):
    deck: DrawBag[Card] = Field(default_factory=DrawBag[Card])
    """The stock."""
    discards: DrawBag[str] | None = None
    """An optional second bag."""


class HydratedTable(Table, Hydrated[Table]):
    pass


def test_a_bag_in_a_hydrated_model_round_trips_through_json_and_comes_back_hydrated() -> None:
    plain = Table(deck=DrawBag[Card](items=standard_deck()[:3]), discards=DrawBag[str](items=["x"]))
    table = HydratedTable.hydrate(orjson.dumps(plain.model_dump(mode="json")))
    assert isinstance(table.deck, HydratedDrawBag) and isinstance(table.discards, HydratedDrawBag)
    assert table.deck.draw().code == "3C"
    back = table.dehydrate()
    assert type(back) is Table and type(back.deck) is DrawBag[Card]
    assert back.model_dump(mode="json") == {
        "deck": {"items": [{"rank": "A", "suit": "clubs"}, {"rank": "2", "suit": "clubs"}]},
        "discards": {"items": ["x"]},
    }
    assert HydratedTable.hydrate(back.model_dump_json()) == table


def test_a_default_bag_in_a_hydrated_model_is_hydrated_and_empty() -> None:
    table = HydratedTable()
    assert isinstance(table.deck, HydratedDrawBag) and table.deck.is_empty()
