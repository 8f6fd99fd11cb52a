"""The phase manager: ordered phases, advancing and wrapping into cycles, jumps, history, errors."""

import doctest
import itertools
from collections.abc import Callable
from enum import StrEnum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, ValidationError
from tabletop import Hydrated, Model
from tabletop.components import HydratedPhaseManager, PhaseManager, PhaseSpan, _phase_manager


class Phase(StrEnum):
    DRAW = "Draw"
    PLAY = "Play"
    DISCARD = "Discard"


ORDER = [Phase.DRAW, Phase.PLAY, Phase.DISCARD]


def make_phases(**fields: object) -> HydratedPhaseManager:
    return HydratedPhaseManager.hydrate({"phases": list(ORDER), **fields})


@pytest.fixture
def phases() -> HydratedPhaseManager:
    return make_phases()


def visits(spans: list[PhaseSpan]) -> list[tuple[str, int, int, int | None]]:
    return [(s.phase, s.cycle, s.start_index, s.end_index) for s in spans]


def test_nothing_runs_before_the_first_advance(phases: HydratedPhaseManager) -> None:
    assert phases.current_phase is None
    assert phases.current_phase_name is None
    assert phases.cycle == 0
    assert phases.next_phase_name() == Phase.DRAW


@pytest.mark.parametrize(
    ("advances", "phase", "cycle"),
    [
        (1, Phase.DRAW, 1),
        (2, Phase.PLAY, 1),
        (3, Phase.DISCARD, 1),
        (4, Phase.DRAW, 2),
        (6, Phase.DISCARD, 2),
        (7, Phase.DRAW, 3),
    ],
)
def test_advance_walks_the_order_and_wraps_into_a_new_cycle(
    phases: HydratedPhaseManager, advances: int, phase: Phase, cycle: int
) -> None:
    for index in range(advances):
        span = phases.advance(index * 2)
    assert (span.phase, span.cycle, span.start_index) == (phase, cycle, (advances - 1) * 2)
    assert phases.current_phase == span
    assert phases.cycle == cycle
    assert phases.is_phase(phase)
    assert len(phases.history) == advances - 1


def test_advance_ends_the_previous_phase_at_the_same_index(phases: HydratedPhaseManager) -> None:
    phases.advance(0)
    phases.advance(3)
    phases.advance(4)
    assert visits(phases.history) == [("Draw", 1, 0, 3), ("Play", 1, 3, 4)]
    assert phases.last_phase == phases.history[-1]


def test_advancing_past_the_last_phase_without_wrap_fails(phases: HydratedPhaseManager) -> None:
    for index in range(3):
        phases.advance(index)
    assert phases.next_phase_name(wrap=False) is None
    with pytest.raises(ValueError, match="'Discard' is the last phase"):
        phases.advance(5, wrap=False)
    assert phases.current_phase_name == Phase.DISCARD
    assert phases.advance(5).phase == Phase.DRAW


def test_advance_after_an_ended_phase_continues_from_it(phases: HydratedPhaseManager) -> None:
    phases.advance(0)
    phases.end_phase(2)
    assert phases.current_phase is None
    assert phases.next_phase_name() == Phase.PLAY
    assert phases.advance(4).phase == Phase.PLAY
    assert visits(phases.history) == [("Draw", 1, 0, 2)]


def test_end_phase_without_a_phase_does_nothing(phases: HydratedPhaseManager) -> None:
    assert phases.end_phase(3) is None
    assert phases.history == []


@pytest.mark.parametrize(("new_cycle", "expected_cycle"), [(False, 1), (True, 2)])
def test_jump_to_a_named_phase_keeps_the_cycle_unless_asked(
    phases: HydratedPhaseManager, new_cycle: bool, expected_cycle: int
) -> None:
    phases.advance(0)
    span = phases.jump_to(Phase.DISCARD, 2, new_cycle=new_cycle)
    assert (span.phase, span.cycle) == ("Discard", expected_cycle)
    assert visits(phases.history) == [("Draw", 1, 0, 2)]
    assert phases.next_phase_name() == Phase.DRAW


def test_jumping_first_starts_cycle_one(phases: HydratedPhaseManager) -> None:
    span = phases.jump_to("Play", 0)
    assert (span.phase, span.cycle) == ("Play", 1)


@pytest.mark.parametrize("call", ["jump_to", "is_phase", "index_of", "visits_of"])
def test_unknown_phases_are_rejected(phases: HydratedPhaseManager, call: str) -> None:
    calls: dict[str, Callable[[], object]] = {
        "jump_to": lambda: phases.jump_to("Upkeep", 0),
        "is_phase": lambda: phases.is_phase("Upkeep"),
        "index_of": lambda: phases.index_of("Upkeep"),
        "visits_of": lambda: phases.visits_of("Upkeep"),
    }
    with pytest.raises(ValueError, match="unknown phase 'Upkeep'"):
        calls[call]()
    assert phases.current_phase is None


@pytest.mark.parametrize("call", ["advance", "next_phase_name"])
def test_an_empty_phase_list_cannot_advance(call: str) -> None:
    phases = HydratedPhaseManager()
    with pytest.raises(ValueError, match="the phase list is empty"):
        phases.advance(0) if call == "advance" else phases.next_phase_name()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"phases": ["a", "b", "a"]}, "repeated: \\['a'\\]"),
        ({"phases": ["a"], "cycle": 1, "current_phase": {"phase": "z", "cycle": 1, "start_index": 0}}, "'z'"),
    ],
)
def test_inconsistent_phase_managers_are_rejected(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        PhaseManager.model_validate(data)


@pytest.mark.parametrize("call", ["advance", "jump_to", "end_phase"])
@pytest.mark.parametrize(
    ("setup", "index"),
    [([], -1), ([("advance", 5)], 4), ([("advance", 5), ("end", 8)], 7)],
)
def test_action_indexes_never_go_back(
    phases: HydratedPhaseManager, call: str, setup: list[tuple[str, int]], index: int
) -> None:
    for operation, at in setup:
        phases.advance(at) if operation == "advance" else phases.end_phase(at)
    before = phases.model_dump()
    calls: dict[str, Callable[[], object]] = {
        "advance": lambda: phases.advance(index),
        "jump_to": lambda: phases.jump_to(Phase.PLAY, index),
        "end_phase": lambda: phases.end_phase(index),
    }
    with pytest.raises(ValueError, match="action index"):
        calls[call]()
    assert phases.model_dump() == before


@pytest.mark.parametrize(("limit", "kept"), [(None, 5), (2, 2), (0, 0)])
def test_history_limit_keeps_the_newest_visits(
    phases: HydratedPhaseManager, limit: int | None, kept: int
) -> None:
    phases.history_limit = limit
    for index in range(6):
        phases.advance(index)
    assert len(phases.history) == kept
    assert [s.start_index for s in phases.history] == list(range(5))[5 - kept :]


def test_visits_of_lists_every_visit_with_the_running_one_last(phases: HydratedPhaseManager) -> None:
    for index in range(4):
        phases.advance(index)
    assert visits(phases.visits_of(Phase.DRAW)) == [("Draw", 1, 0, 1), ("Draw", 2, 3, None)]
    assert visits(phases.visits_of(Phase.DISCARD)) == [("Discard", 1, 2, 3)]


def test_strenum_values_are_stored_as_plain_strings(phases: HydratedPhaseManager) -> None:
    span = phases.advance(0)
    assert type(span.phase) is str and type(phases.phases[0]) is str
    assert span.phase == Phase.DRAW
    assert phases.model_dump()["phases"] == ["Draw", "Play", "Discard"]


@settings(max_examples=80, deadline=None)
@given(
    operations=st.lists(
        st.tuples(st.sampled_from(["advance", "jump", "end"]), st.sampled_from(ORDER), st.integers(0, 3)),
        max_size=30,
    )
)
def test_visits_are_contiguous_and_cycles_never_decrease(operations: list[tuple[str, Phase, int]]) -> None:
    phases = make_phases()
    index = 0
    for operation, phase, gap in operations:
        index += gap
        if operation == "advance":
            expected = phases.next_phase_name()
            assert phases.advance(index).phase == expected
        elif operation == "jump":
            phases.jump_to(phase, index)
        else:
            phases.end_phase(index)
    every = [*phases.history, *([] if phases.current_phase is None else [phases.current_phase])]
    assert [s.cycle for s in every] == sorted(s.cycle for s in every)
    assert all(1 <= s.cycle <= phases.cycle for s in every)
    for earlier, later in itertools.pairwise(every):
        assert earlier.end_index is not None and earlier.start_index <= earlier.end_index <= later.start_index


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 5), advances=st.integers(1, 20))
def test_k_advances_land_on_phase_k_mod_n_in_cycle_k_div_n(count: int, advances: int) -> None:
    phases = HydratedPhaseManager(phases=[f"phase-{n}" for n in range(count)])
    for index in range(advances):
        span = phases.advance(index)
    assert span.phase == f"phase-{(advances - 1) % count}"
    assert span.cycle == phases.cycle == (advances - 1) // count + 1


class Holder(Model):
    phases: PhaseManager = Field(default_factory=PhaseManager)
    """The game's phases."""


class HydratedHolder(Holder, Hydrated[Holder]):
    pass


def test_a_phase_manager_round_trips_through_json_and_comes_back_hydrated() -> None:
    holder = HydratedHolder(phases=make_phases(history_limit=10))
    assert isinstance(holder.phases, HydratedPhaseManager)
    for index in range(4):
        holder.phases.advance(index)
    text = holder.model_dump_json()

    plain = Holder.model_validate_json(text)
    assert type(plain.phases) is PhaseManager
    assert plain == holder.dehydrate()
    assert Holder.model_validate_json(plain.model_dump_json()) == plain

    hydrated = HydratedHolder.hydrate(text)
    assert isinstance(hydrated.phases, HydratedPhaseManager)
    assert hydrated.model_dump_json() == text
    assert hydrated.phases.current_phase_name == Phase.DRAW and hydrated.phases.cycle == 2
    assert hydrated.phases.advance(5).phase == Phase.PLAY
    assert holder.phases.current_phase_name == Phase.DRAW  # no aliasing


def test_the_module_examples_run() -> None:
    result = doctest.testmod(_phase_manager)
    assert result.attempted > 0 and result.failed == 0
