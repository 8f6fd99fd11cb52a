"""The PRNG reproduces the reference JavaScript implementation bit for bit."""

import pytest
from pydantic import ValidationError
from tabletop import Model, Prng, PrngState


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (
            42,
            [
                0.12848330102860928,
                0.03353364090435207,
                0.07509804493747652,
                0.7065966189838946,
                0.21141720796003938,
            ],
        ),
        (123456789, [0.4514785776846111, 0.50175736611709, 0.6584966199006885]),
    ],
)
def test_random_matches_known_answer_vectors(seed: int, expected: list[float]) -> None:
    prng = Prng(PrngState(seed=seed))
    assert [prng.random() for _ in expected] == expected
    assert prng.state.invocations == len(expected)


def test_shuffle_matches_known_answer_vector() -> None:
    items = list(range(10))
    Prng(PrngState(seed=42)).shuffle(items)
    assert items == [6, 2, 5, 7, 3, 9, 4, 8, 0, 1]


def test_rand_id_matches_known_answer_vectors_and_costs_35_draws() -> None:
    prng = Prng(PrngState(seed=42))
    assert prng.rand_id() == "r2652AMFsgH3rulqeOVbc"
    assert prng.state.invocations == 35
    assert prng.rand_id() == "nT6s7bKILeE3y0LzQdify"
    assert prng.state.invocations == 70


@pytest.mark.parametrize("draws", [0, 1, 7, 1000])
def test_resuming_at_invocation_n_continues_the_same_stream(draws: int) -> None:
    reference = Prng(PrngState(seed=7))
    for _ in range(draws):
        reference.random()
    resumed = Prng(PrngState(seed=7, invocations=draws))
    assert [resumed.random() for _ in range(5)] == [reference.random() for _ in range(5)]


def test_a_draw_makes_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = PrngState(seed=1)
    prng = Prng(state)
    prng.die_roll(6)
    prng.rand_range(3, 4)
    assert prng.state.invocations == 2 and state.invocations == 0
    with pytest.raises(ValidationError):
        state.invocations = 5  # type: ignore[misc]
    assert PrngState.model_validate(state) is state  # shared, not copied


def test_a_prng_over_an_owner_keeps_its_prng_field_up_to_date() -> None:
    class Owner(Model):
        prng: PrngState

    owner = Owner(prng=PrngState(seed=42))
    prng = Prng.over(owner)
    first = prng.random()
    assert owner.prng.invocations == 1 and prng.state is owner.prng and "prng" in owner.model_fields_set
    owner.prng = PrngState(seed=42)  # replaced: the PRNG reads the stream from the owner
    assert prng.random() == first
    prng.shuffle(list(range(5)))
    assert owner.prng.invocations == 1 + 4
    assert prng.rand_id() == Prng(PrngState(seed=42, invocations=5)).rand_id()
    assert owner.prng.invocations == 5 + 35


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1])
def test_helpers_stay_in_their_ranges(seed: int) -> None:
    prng = Prng(PrngState(seed=seed))
    for _ in range(200):
        assert 0 <= prng.random() < 1
        assert 0 <= prng.rand_int(3) < 3
        assert 2 <= prng.rand_range(2, 5) <= 5
        assert 1 <= prng.die_roll(6) <= 6
        assert prng.pick_random("abc") in "abc"


def test_rand_range_is_floor_of_r_times_width_plus_low() -> None:
    first = Prng(PrngState(seed=42)).random()
    assert Prng(PrngState(seed=42)).rand_range(10, 19) == int(first * 10) + 10


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda p: p.rand_int(0), "positive maximum"),
        (lambda p: p.rand_range(5, 4), "low <= high"),
        (lambda p: p.pick_random([]), "non-empty"),
    ],
)
def test_bad_arguments_raise_and_draw_nothing(call: object, message: str) -> None:
    prng = Prng(PrngState(seed=3))
    with pytest.raises(ValueError, match=message):
        call(prng)  # type: ignore[operator]
    assert prng.state.invocations == 0
