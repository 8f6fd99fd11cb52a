"""``tabletop.clocks``: the pure clock (times passed in, never read) and the timeout rules."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tabletop import AnyState, GameEngine, GameResult, new_prng_key
from tabletop.clocks import (
    BotMove,
    ChessClock,
    ClockSettings,
    Correspondence,
    ExpiryRules,
    Forfeit,
    NoClock,
    PassMove,
    PerTurn,
    TimeoutPolicy,
    advance_clock,
    decide_timeout,
    default_forfeit,
    due_of,
    next_due,
    remaining_of,
    start_clock,
    take_seats,
)
from tabletop.games import load
from tabletop.testing import make_game

SEATS = ["p1", "p2"]


def test_a_per_turn_clock_restarts_for_each_decision() -> None:
    control = PerTurn(seconds=10)
    clock = start_clock(control, SEATS, ["p1"], 1_000)
    assert next_due(control, clock) == (11_000, "p1")
    assert remaining_of(control, clock.seats["p1"], 4_000) == 7_000
    assert remaining_of(control, clock.seats["p2"], 4_000) is None
    clock = advance_clock(control, clock, now_ms=5_000, acted=["p1"], active=["p2"])
    assert next_due(control, clock) == (15_000, "p2")
    clock = advance_clock(control, clock, now_ms=6_000, acted=["p2"], active=["p2"])  # p2 again
    assert next_due(control, clock) == (16_000, "p2")
    assert remaining_of(control, clock.seats["p2"], 99_000) == 0


def test_a_chess_clock_charges_the_bank_and_adds_the_increment() -> None:
    control = ChessClock(main_seconds=60, increment_seconds=2)
    clock = start_clock(control, SEATS, ["p1"], 0)
    clock = advance_clock(control, clock, now_ms=10_000, acted=["p1"], active=["p2"])
    assert clock.seats["p1"].bank_ms == 52_000 and clock.seats["p1"].since_ms is None
    assert remaining_of(control, clock.seats["p1"], 20_000) == 52_000  # waiting: its bank stands
    assert next_due(control, clock) == (70_000, "p2")
    clock = advance_clock(control, clock, now_ms=100_000, timed_out=["p2"], active=["p1"])
    assert clock.seats["p2"].bank_ms == 2_000 and clock.seats["p2"].timeouts == 1


def test_simultaneous_seats_each_run_their_own_time() -> None:
    control = PerTurn(seconds=5)
    clock = start_clock(control, SEATS, SEATS, 0)
    clock = advance_clock(control, clock, now_ms=2_000, acted=["p1"], active=["p2"])
    assert next_due(control, clock) == (5_000, "p2")  # p2's decision started at 0, not at p1's move
    assert due_of(control, clock.seats["p1"]) is None


def test_correspondence_counts_days_and_no_clock_never_runs_out() -> None:
    clock = start_clock(Correspondence(days=2), SEATS, ["p1"], 0)
    assert next_due(Correspondence(days=2), clock) == (172_800_000, "p1")
    assert next_due(NoClock(), start_clock(NoClock(), SEATS, ["p1"], 0)) is None


def test_timeouts_count_up_and_reset_when_the_seat_acts_itself() -> None:
    control = PerTurn(seconds=1)
    clock = start_clock(control, SEATS, ["p1"], 0)
    for n in range(3):
        clock = advance_clock(control, clock, now_ms=1_000 * (n + 1), timed_out=["p1"], active=["p1"])
    assert clock.seats["p1"].timeouts == 3
    clock = advance_clock(control, clock, now_ms=5_000, acted=["p1"], active=["p2"])
    assert clock.seats["p1"].timeouts == 0


def test_the_same_recorded_times_give_the_same_clock() -> None:
    control = ChessClock(main_seconds=30, increment_seconds=1)
    steps = [(1_000, ["p1"], ["p2"]), (2_500, ["p2"], ["p1"]), (9_000, ["p1"], ["p2"])]

    def run() -> str:
        clock = start_clock(control, SEATS, ["p1"], 0)
        for at, acted, active in steps:
            clock = advance_clock(control, clock, now_ms=at, acted=acted, active=active)
        return clock.model_dump_json()

    assert run() == run()


@pytest.mark.parametrize(
    "settings",
    [
        {"control": {"type": "per-turn", "seconds": 0}},
        {"control": {"type": "chess", "main_seconds": 10, "extra": 1}},
        {"control": {"type": "hourglass"}},
        {"policy": {"on_timeout": "resign"}},
        {"policy": {"away_after": 0}},
    ],
)
def test_settings_refuse_what_their_schema_refuses(settings: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ClockSettings.model_validate(settings)


def test_default_settings_are_no_clock_and_forfeit() -> None:
    settings = ClockSettings()
    assert settings.control == NoClock() and settings.policy == TimeoutPolicy()


@pytest.fixture
def pig_state() -> AnyState:
    engine = GameEngine(load("pig"))
    return engine.start(make_game(engine.definition, players=3, seed=1), prng_key=new_prng_key()).state


def test_forfeit_lets_every_other_seat_win_by_default(pig_state: AnyState) -> None:
    outcome = decide_timeout(TimeoutPolicy(on_timeout="forfeit"), None, pig_state, "p2")
    assert outcome == Forfeit(GameResult.WIN, ("p1", "p3")) == default_forfeit(pig_state, "p2")


def test_a_game_declares_its_own_forfeit_and_pass(pig_state: AnyState) -> None:
    rules: ExpiryRules[AnyState] = ExpiryRules(
        pass_action=lambda state, player_id: {"type": "Hold"},
        forfeit=lambda state, player_id: Forfeit(GameResult.DRAW, ()),
    )
    assert decide_timeout(TimeoutPolicy(on_timeout="forfeit"), rules, pig_state, "p1") == Forfeit(
        GameResult.DRAW, ()
    )
    assert decide_timeout(TimeoutPolicy(on_timeout="pass"), rules, pig_state, "p1") == PassMove(
        {"type": "Hold"}
    )
    assert decide_timeout(TimeoutPolicy(on_timeout="bot"), rules, pig_state, "p1") == BotMove()


def test_pass_falls_back_to_the_bot_without_a_pass_now(pig_state: AnyState) -> None:
    rules = load("pig").expiry
    assert rules is not None  # pig declares Hold, legal only once something was rolled
    assert decide_timeout(TimeoutPolicy(on_timeout="pass"), rules, pig_state, "p1") == BotMove()
    assert decide_timeout(TimeoutPolicy(on_timeout="pass"), None, pig_state, "p1") == BotMove()


def test_a_seat_waiting_for_its_player_does_not_run_until_taken() -> None:
    control = PerTurn(seconds=10)
    clock = start_clock(control, SEATS, ["p1"], 1_000, waiting=["p1", "p2"])
    assert next_due(control, clock) is None and clock.seats["p1"].waiting
    clock = take_seats(clock, ["p1"], now_ms=5_000, active=["p1"])
    assert next_due(control, clock) == (15_000, "p1") and not clock.seats["p1"].waiting
    clock = advance_clock(control, clock, now_ms=6_000, acted=["p1"], active=["p2"])
    assert next_due(control, clock) is None  # p2's turn, but nobody has taken p2
    clock = take_seats(clock, ["p2"], now_ms=9_000, active=["p2"])
    assert next_due(control, clock) == (19_000, "p2")
    assert take_seats(clock, ["p2"], now_ms=50_000, active=["p2"]) == clock  # taken once: no restart


def test_a_waiting_seats_chess_bank_stands_until_taken() -> None:
    control = ChessClock(main_seconds=60, increment_seconds=0)
    clock = start_clock(control, SEATS, ["p1"], 0, waiting=["p1"])
    assert remaining_of(control, clock.seats["p1"], 500_000) == 60_000
    clock = take_seats(clock, ["p1"], now_ms=500_000, active=["p1"])
    assert remaining_of(control, clock.seats["p1"], 510_000) == 50_000


def test_transitions_build_the_clock_that_validation_would() -> None:
    """The transitions build their seats without validating them again (a hot path of every
    clocked action): the same values, JSON and fields set as ``SeatClock(...)`` gives."""
    control = ChessClock(main_seconds=60, increment_seconds=2)
    clocks = [start_clock(control, [*SEATS, "p3"], ["p1"], 1_000, waiting=["p3"])]
    clocks.append(advance_clock(control, clocks[-1], now_ms=5_000, acted=["p1"], active=["p2", "p3"]))
    clocks.append(take_seats(clocks[-1], ["p3"], now_ms=6_000, active=["p2", "p3"]))
    clocks.append(advance_clock(control, clocks[-1], now_ms=9_000, timed_out=["p2"], active=["p3"]))
    for clock in clocks:
        validated = type(clock).model_validate_json(clock.model_dump_json())
        assert clock == validated
        assert clock.model_dump_json() == validated.model_dump_json()
        assert clock.model_fields_set == {"seats"}
        for player_id, seat in clock.seats.items():
            again = type(seat)(**{name: getattr(seat, name) for name in seat.model_fields_set})
            assert seat.model_dump() == again.model_dump() and seat.model_fields_set == again.model_fields_set
            assert type(seat.since_ms) in (int, type(None)) and type(seat.bank_ms) is int, player_id
    assert clocks[0].seats["p1"].model_fields_set == {"bank_ms", "since_ms", "waiting"}
    assert clocks[2].seats["p3"].model_fields_set == {"bank_ms", "since_ms", "timeouts"}
    assert clocks[3].seats["p2"].model_fields_set == {"bank_ms", "since_ms", "timeouts", "waiting"}
