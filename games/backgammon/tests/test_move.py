"""Move: one checker by one die; bar entry, hitting, blocks, bearing off, both dice or the larger."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_backgammon.actions.move import HydratedMove, MoveMetadata
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]
Place = Callable[..., None]


def steps(harness: Harness, player: str = "p1") -> set[tuple[int | None, int]]:
    return {(a.point, a.die) for a in harness.legal_actions(player) if isinstance(a, HydratedMove)}


def move(harness: Harness, point: int | None, die: int, player: str = "p1") -> HydratedMove:
    result = harness.run(harness.action(HydratedMove, player, point=point, die=die))
    recorded = result.actions[0]
    assert isinstance(recorded, HydratedMove)
    return recorded


def test_the_opening_position_has_15_checkers_a_side_on_the_usual_points(harness: Harness) -> None:
    white, black = harness.state.players
    assert {i + 1: n for i, n in enumerate(white.points) if n} == {1: 2, 12: 5, 17: 3, 19: 5}
    assert {i + 1: n for i, n in enumerate(black.points) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert (white.bar, white.off, black.bar, black.off) == (0, 0, 0, 0)


def test_a_checker_on_the_bar_must_enter_first(harness: Harness, place: Place) -> None:
    # Black holds point 3 (White's entry with a 3); point 5 is open: only the 5 enters.
    place(harness.state, {12: 14}, {3: 2, 13: 13}, dice=(3, 5), bars=(1, 0))
    assert steps(harness) == {(None, 5)}
    with pytest.raises(IllegalActionError) as refused:
        harness.run(harness.action(HydratedMove, "p1", point=12, die=3))
    assert refused.value.code == "illegal-move"
    assert move(harness, None, 5).metadata == MoveMetadata(to=5, hit=False, turn_over=False)
    assert harness.state.player("p1").bar == 0 and harness.state.player("p1").points[4] == 1


def test_entering_a_blot_hits_it(harness: Harness, place: Place) -> None:
    place(harness.state, {12: 14}, {4: 1, 13: 14}, dice=(4, 6), bars=(1, 0))
    recorded = move(harness, None, 4)
    assert recorded.metadata is not None and recorded.metadata.hit and recorded.metadata.to == 4
    black = harness.state.player("p2")
    assert black.points[3] == 0 and black.bar == 1


def test_a_fully_blocked_bar_checker_passes(harness: Harness, place: Place) -> None:
    place(harness.state, {12: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, dice=(2, 5), bars=(1, 0))
    assert [a.type for a in harness.legal_actions("p1")] == ["Pass"]


def test_a_point_held_by_two_opponents_is_blocked(harness: Harness, place: Place) -> None:
    place(harness.state, {10: 15}, {13: 2, 14: 13}, dice=(3, 4))
    assert (10, 3) not in steps(harness) and (10, 4) not in steps(harness)
    assert harness.state.legal_steps("p1") == []


def test_hitting_a_blot_sends_it_to_the_bar(harness: Harness, place: Place) -> None:
    place(harness.state, {10: 15}, {13: 1, 2: 14}, dice=(3, 1))
    recorded = move(harness, 10, 3)
    assert recorded.metadata == MoveMetadata(to=13, hit=True, turn_over=False)
    assert harness.state.player("p2").bar == 1 and harness.state.player("p1").points[12] == 1


def test_both_dice_must_be_used_when_possible(harness: Harness, place: Place) -> None:
    # White on 1 and 10 with 1-6; Black holds 8 and 11. 1->7 (the 6) leaves the 1 unplayable
    # (7->8 and 10->11 are blocked), while 1->2 then 10->16, or 10->16 then 1->2, use both dice.
    place(harness.state, {1: 1, 10: 1, 24: 13}, {3: 11, 8: 2, 11: 2}, dice=(1, 6))
    assert steps(harness) == {(1, 1), (10, 6)}
    with pytest.raises(IllegalActionError) as refused:
        harness.run(harness.action(HydratedMove, "p1", point=1, die=6))
    assert refused.value.code == "illegal-move"
    move(harness, 1, 1)
    assert steps(harness) == {(10, 6)}  # the second step of the half


def test_only_the_playable_die_is_offered(harness: Harness, place: Place) -> None:
    # White on 1 with 1-6: 1->2 is blocked, 1->7 then 7->8 is blocked: only the 6 can be played.
    place(harness.state, {1: 1, 24: 14}, {2: 2, 8: 2, 20: 2, 21: 9}, dice=(1, 6))
    assert steps(harness) == {(1, 6)}


def test_the_larger_die_must_be_played_when_only_one_can(harness: Harness, place: Place) -> None:
    # White's lone checker on 1: a 2 (to 3) or a 5 (to 6) can each be played, never both
    # (3 + 5 = 8 and 6 + 2 = 8 are held by Black).
    place(harness.state, {1: 1, 24: 14}, {8: 2, 20: 13}, dice=(2, 5))
    assert steps(harness) == {(1, 5)}
    recorded = move(harness, 1, 5)
    assert recorded.metadata is not None and recorded.metadata.turn_over
    assert harness.state.mover == "p2"


def test_the_smaller_die_is_played_when_it_is_the_only_one(harness: Harness, place: Place) -> None:
    place(harness.state, {1: 1, 24: 14}, {6: 2, 8: 2, 20: 11}, dice=(2, 5))
    assert steps(harness) == {(1, 2)}


def test_bearing_off_needs_every_checker_home(harness: Harness, place: Place) -> None:
    place(harness.state, {18: 1, 23: 14}, {1: 15}, dice=(2, 3))
    assert (23, 2) not in steps(harness)  # 18 is outside White's home (19..24)
    place(harness.state, {19: 1, 23: 14}, {1: 15}, dice=(2, 3))
    assert {(23, 2), (19, 3)} <= steps(harness)


def test_a_higher_die_bears_off_only_the_farthest_checker(harness: Harness, place: Place) -> None:
    # Checkers on 22 and 23 (3 and 2 pips from off); a 6 and a 5.
    place(harness.state, {22: 1, 23: 1}, {1: 15}, dice=(5, 6))
    assert steps(harness) == {(22, 5), (22, 6)}  # never 23 while 22 is still on the board
    recorded = move(harness, 22, 6)
    assert recorded.metadata == MoveMetadata(to=None, hit=False, turn_over=False)
    assert steps(harness) == {(23, 5)}  # now 23 is the farthest


def test_a_higher_die_bears_off_the_farthest_checker_not_a_nearer_one(harness: Harness, place: Place) -> None:
    place(harness.state, {20: 1, 24: 1}, {1: 15}, dice=(6, 6))
    # 20 is 5 pips from off: a 6 may bear it off (the farthest checker), never the one on 24.
    assert steps(harness) == {(20, 6)}


def test_a_double_is_played_four_times(harness: Harness, place: Place) -> None:
    place(harness.state, {1: 4, 24: 11}, {13: 15}, dice=(2, 2))
    for played in range(4):
        assert harness.state.mover == "p1" and harness.state.active_player_ids == ["p1"]
        recorded = move(harness, 1, 2)
        assert recorded.metadata is not None and recorded.metadata.turn_over is (played == 3)
        if played == 1:
            assert harness.state.double_half and harness.state.unused == [2, 2]
    assert harness.state.player("p1").points[2] == 4 and harness.state.mover == "p2"
    assert harness.state.turns == 1  # a double's halves are one turn


def test_a_double_whose_first_half_plays_one_die_has_no_second_half(harness: Harness, place: Place) -> None:
    # One checker on 1 with 3-3: 1->4, then 4->7 is blocked; nothing else can move.
    place(harness.state, {1: 1, 24: 14}, {7: 2, 20: 13}, dice=(3, 3))
    recorded = move(harness, 1, 3)
    assert recorded.metadata is not None and recorded.metadata.turn_over and harness.state.mover == "p2"


def test_the_die_must_be_unused(harness: Harness, place: Place) -> None:
    place(harness.state, {1: 15}, {24: 15}, dice=(3, 4))
    with pytest.raises(IllegalActionError) as refused:
        harness.run(harness.action(HydratedMove, "p1", point=1, die=5))
    assert (refused.value.code, refused.value.path) == ("die-not-available", "die")
    assert harness.state.unused == [3, 4]  # nothing changed
