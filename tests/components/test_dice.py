"""Dice and dice pools: faces in the model, rolls from the state PRNG, totals, counts, keep-n."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, ValidationError
from tabletop import Hydrated, Model, Prng, PrngState
from tabletop.components import DicePool, Die, HydratedDicePool, HydratedDie, _dice

seeds = st.integers(min_value=0, max_value=2**32 - 1)
side_lists = st.lists(st.integers(min_value=2, max_value=100), max_size=12)


def pool_showing(*faces: int, sides: int = 6) -> HydratedDicePool:
    return HydratedDicePool(dice=[Die(sides=sides, face=face) for face in faces])


@pytest.fixture
def prng() -> Prng:
    return Prng(PrngState(seed=42))


def test_a_die_is_unrolled_until_rolled(prng: Prng) -> None:
    die = HydratedDie(sides=8)
    assert (die.face, die.is_rolled) == (None, False)
    face = die.roll(prng)
    assert (die.face, die.is_rolled) == (face, True)
    assert 1 <= face <= 8
    assert prng.state.invocations == 1


def test_a_die_rolls_what_the_prng_die_roll_gives() -> None:
    die = HydratedDie(sides=12)
    assert die.roll(Prng(PrngState(seed=9))) == Prng(PrngState(seed=9)).die_roll(12)


@pytest.mark.parametrize(("sides", "face"), [(6, 0), (6, 7), (2, 3)])
def test_a_die_rejects_faces_it_does_not_have(sides: int, face: int) -> None:
    die = HydratedDie(sides=sides)
    with pytest.raises(ValueError, match="is not on a"):
        die.set_face(face)
    assert die.face is None
    with pytest.raises(ValidationError):
        Die(sides=sides, face=face)


@pytest.mark.parametrize("sides", [-1, 0, 1])
def test_a_die_needs_at_least_two_sides(sides: int) -> None:
    with pytest.raises(ValidationError):
        Die(sides=sides)


def test_set_face_turns_a_die() -> None:
    die = HydratedDie(sides=6)
    die.set_face(6)
    assert die.face == 6


def test_a_new_pool_is_unrolled_and_reading_faces_fails() -> None:
    pool = HydratedDicePool.of(3, sides=10)
    assert len(pool) == 3
    assert [die.sides for die in pool.dice] == [10, 10, 10]
    assert not pool.is_rolled
    with pytest.raises(ValueError, match=r"dice \[0, 1, 2\] have not been rolled"):
        _ = pool.total


def test_of_rejects_a_negative_count() -> None:
    with pytest.raises(ValueError, match="count >= 0"):
        HydratedDicePool.of(-1)


def test_roll_sets_every_face_in_the_model(prng: Prng) -> None:
    pool = HydratedDicePool.of(5)
    faces = pool.roll(prng)
    assert pool.is_rolled
    assert pool.faces == faces == [die.face for die in pool.dice]
    assert pool.model_dump()["dice"] == [{"sides": 6, "face": face} for face in faces]


def test_reroll_changes_only_the_selected_dice(prng: Prng) -> None:
    pool = HydratedDicePool.of(6)
    before = pool.roll(prng)
    reference = Prng(PrngState(seed=42, invocations=6))
    new = pool.reroll(prng, [4, 1])
    assert new == [reference.die_roll(6), reference.die_roll(6)]
    after = pool.faces
    assert [after[4], after[1]] == new
    assert [after[i] for i in (0, 2, 3, 5)] == [before[i] for i in (0, 2, 3, 5)]
    assert prng.state.invocations == 8


@pytest.mark.parametrize(
    ("indexes", "message"),
    [([3], "out of range"), ([-1], "out of range"), ([0, 2, 0], "repeat a die"), ([1, 9, 1], "out of range")],
)
def test_reroll_rejects_bad_indexes_without_drawing(prng: Prng, indexes: list[int], message: str) -> None:
    pool = HydratedDicePool.of(3)
    pool.roll(prng)
    before = pool.faces
    with pytest.raises(ValueError, match=message):
        pool.reroll(prng, indexes)
    assert pool.faces == before
    assert prng.state.invocations == 3


@pytest.mark.parametrize(
    ("faces", "total", "counts"),
    [
        ((), 0, {}),
        ((3,), 3, {3: 1}),
        ((6, 1, 6, 3, 1, 6), 23, {1: 2, 3: 1, 6: 3}),
        ((2, 2, 2, 2), 8, {2: 4}),
    ],
)
def test_totals_and_face_counts(faces: tuple[int, ...], total: int, counts: dict[int, int]) -> None:
    pool = pool_showing(*faces)
    assert pool.total == total
    assert pool.counts() == counts
    assert list(pool.counts()) == sorted(counts)
    assert all(pool.count(face) == n for face, n in counts.items())
    assert pool.count(5) == 0


@pytest.mark.parametrize(
    ("faces", "n", "highest", "high_total", "lowest", "low_total"),
    [
        ((4, 2, 6, 1), 3, [0, 1, 2], 12, [0, 1, 3], 7),
        ((4, 2, 6, 1), 0, [], 0, [], 0),
        ((4, 2, 6, 1), 4, [0, 1, 2, 3], 13, [0, 1, 2, 3], 13),
        ((5, 5, 5), 2, [0, 1], 10, [0, 1], 10),
        ((1, 6, 6, 1), 1, [1], 6, [0], 1),
    ],
)
def test_keep_highest_and_lowest(
    faces: tuple[int, ...],
    n: int,
    highest: list[int],
    high_total: int,
    lowest: list[int],
    low_total: int,
) -> None:
    pool = pool_showing(*faces)
    assert pool.highest_indexes(n) == highest
    assert pool.keep_highest(n) == high_total
    assert pool.lowest_indexes(n) == lowest
    assert pool.keep_lowest(n) == low_total


@pytest.mark.parametrize("n", [-1, 4])
def test_keeping_more_dice_than_the_pool_has_fails(n: int) -> None:
    with pytest.raises(ValueError, match=f"cannot keep {n} of 3 dice"):
        pool_showing(1, 2, 3).keep_highest(n)


def test_dice_can_be_added_removed_and_turned(prng: Prng) -> None:
    pool = pool_showing(2, 5)
    pool.add_die(sides=20)
    assert [(die.sides, die.face) for die in pool.dice] == [(6, 2), (6, 5), (20, None)]
    pool.reroll(prng, [2])
    assert pool.is_rolled
    removed = pool.remove_die(0)
    assert (removed.sides, removed.face) == (6, 2)
    pool.set_face(0, 1)
    assert pool.faces[0] == 1 and len(pool) == 2
    with pytest.raises(ValueError, match="is not on a 6-sided die"):
        pool.set_face(0, 7)
    with pytest.raises(ValueError, match="out of range"):
        pool.remove_die(2)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, sides=side_lists)
def test_rolled_faces_are_always_on_the_die(seed: int, sides: list[int]) -> None:
    pool = HydratedDicePool(dice=[Die(sides=s) for s in sides])
    faces = pool.roll(Prng(PrngState(seed=seed)))
    assert all(1 <= face <= s for face, s in zip(faces, sides, strict=True))


@settings(max_examples=60, deadline=None)
@given(seed=seeds, sides=side_lists, rerolls=st.lists(st.integers(min_value=0, max_value=11), max_size=12))
def test_the_same_seed_gives_the_same_rolls_with_one_draw_per_die(
    seed: int, sides: list[int], rerolls: list[int]
) -> None:
    selected = list(dict.fromkeys(index for index in rerolls if index < len(sides)))
    results = []
    for _ in range(2):
        prng = Prng(PrngState(seed=seed))
        pool = HydratedDicePool(dice=[Die(sides=s) for s in sides])
        pool.roll(prng)
        assert prng.state.invocations == len(sides)
        pool.reroll(prng, selected)
        assert prng.state.invocations == len(sides) + len(selected)
        results.append(pool.model_dump_json())
    assert results[0] == results[1]


@settings(max_examples=60, deadline=None)
@given(faces=st.lists(st.integers(min_value=1, max_value=6), max_size=10), data=st.data())
def test_keep_highest_is_the_sum_of_the_top_n_faces(faces: list[int], data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=0, max_value=len(faces)))
    pool = pool_showing(*faces)
    assert pool.keep_highest(n) == sum(sorted(faces, reverse=True)[:n])
    assert pool.keep_lowest(n) == sum(sorted(faces)[:n])
    assert sorted(pool.faces[i] for i in pool.highest_indexes(n)) == sorted(faces, reverse=True)[:n][::-1]


class Holder(Model):
    pool: DicePool = Field(default_factory=DicePool)
    """The game's dice."""
    spare: Die | None = None
    """A die set aside."""


class HydratedHolder(Holder, Hydrated[Holder]):
    pass


def test_dice_round_trip_through_json_and_come_back_hydrated(prng: Prng) -> None:
    holder = HydratedHolder(pool=HydratedDicePool.of(3), spare=HydratedDie(sides=4))
    assert isinstance(holder.pool, HydratedDicePool)
    assert all(isinstance(die, HydratedDie) for die in holder.pool.dice)
    holder.pool.roll(prng)
    text = holder.model_dump_json()

    plain = Holder.model_validate_json(text)
    assert type(plain.pool) is DicePool and type(plain.pool.dice[0]) is Die
    assert plain == holder.dehydrate()
    assert Holder.model_validate_json(plain.model_dump_json()) == plain

    hydrated = HydratedHolder.hydrate(text)
    assert isinstance(hydrated.pool, HydratedDicePool)
    assert all(isinstance(die, HydratedDie) for die in hydrated.pool.dice)
    assert isinstance(hydrated.spare, HydratedDie) and hydrated.spare.face is None
    assert hydrated.model_dump_json() == text
    assert hydrated.pool.faces == holder.pool.faces
    hydrated.pool.set_face(0, 6 if holder.pool.faces[0] != 6 else 1)
    assert hydrated.pool.faces[0] != holder.pool.faces[0]  # no aliasing


def test_the_module_examples_run() -> None:
    result = doctest.testmod(_dice)
    assert result.attempted > 0 and result.failed == 0
