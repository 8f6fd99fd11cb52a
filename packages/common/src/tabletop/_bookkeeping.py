"""The framework's own consistency rules for a state: what the engine relies on to run it."""

from __future__ import annotations

from enum import StrEnum

from tabletop._machine import AnyState
from tabletop.components._turn_manager import Turn

__all__ = ["bookkeeping_problems"]


def _turn_problems(name: str, turn: Turn | None, count: int, seats: list[str]) -> list[str]:
    if turn is None:
        return []
    problems = [] if turn.player_id in seats else [f"{name} is {turn.player_id!r}'s, who has no seat"]
    if turn.start_index > count:
        problems.append(f"{name} starts at index {turn.start_index}, after the {count} actions recorded")
    end = turn.end_index
    if end is not None and not turn.start_index <= end <= count:
        problems.append(f"{name} ends at index {end}, outside {turn.start_index}..{count}")
    return problems


def bookkeeping_problems(state: AnyState, machine_states: type[StrEnum]) -> list[str]:
    """One line per broken rule of the framework's bookkeeping in a (schema-valid) state.

    Seats are unique; active players, the turn order, turn counts, turns and winners name
    seats; turns and the open simultaneous group lie within the recorded actions; a game in
    play has a turn order, its current (or else last) turn's player is in it, and it has no
    winners yet; the machine state is one of the game's.
    """
    seats = [player.player_id for player in state.players]
    problems = [f"player ids are not unique: {seats}"] if len(set(seats)) != len(seats) else []
    problems += [
        f"active player {player_id!r} has no seat"
        for player_id in state.active_player_ids
        if player_id not in seats
    ]
    turns = state.turn_manager
    order = turns.turn_order
    problems += [
        f"turn order names {player_id!r}, who has no seat" for player_id in order if player_id not in seats
    ]
    problems += [
        f"turn counts name {player_id!r}, who has no seat"
        for player_id in turns.turns_taken
        if player_id not in seats
    ]
    problems += [
        f"winner {player_id!r} has no seat"
        for player_id in state.winning_player_ids
        if player_id not in seats
    ]
    count = state.action_count
    problems += _turn_problems("the current turn", turns.current_turn, count, seats)
    problems += _turn_problems("the last turn", turns.last_turn, count, seats)
    if turns.current_turn is not None and turns.current_turn.end_index is not None:
        problems.append("the current turn has ended")
    group = state.simultaneous_group
    if group is not None and group.start_index > count:
        problems.append(
            f"the simultaneous group opens at index {group.start_index}, after the {count} actions recorded"
        )
    if state.machine_state not in set(machine_states):
        problems.append(f"machine state {state.machine_state!r} is not one of the game's")
    if state.result is None:
        if not order:
            problems.append("the game is in play but the turn order is empty")
        turn = turns.current_turn or turns.last_turn
        if turn is not None and order and turn.player_id not in order:
            problems.append(
                f"the game is in play but {turn.player_id!r}, on turn (or last), is not in the turn order"
            )
        if state.winning_player_ids:
            problems.append("the game is in play but has winners")
    return problems
