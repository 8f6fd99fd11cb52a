"""Backgammon against OpenSpiel's ``backgammon``, move for move, with the same dice.

Each game is driven on both sides at once: every roll our game records (its outcome number is
OpenSpiel's chance outcome) is applied to pyspiel's state; at every decision the legal moves are
compared by meaning, as sequences of checker steps ``(point, die)`` (OpenSpiel's action moves up
to two checkers, ours one: ours are expanded into the sequences they can start); a random legal
OpenSpiel action is played on both sides; the player to move and, at the end, the returns must be
equal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pyspiel
import pytest
from tabletop import GameEngine
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_backgammon import definition
from tabletop_backgammon.actions.move import HydratedMove
from tabletop_backgammon.actions.pass_turn import HydratedPass
from tabletop_backgammon.actions.roll_dice import HydratedRollDice
from tabletop_backgammon.components import rules
from tabletop_backgammon.model.config import BackgammonConfig, ScoringType
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Sequence_ = tuple[tuple[int | None, int], ...]
"""Checker steps ``(point or None for the bar, die)`` in the order they are played."""

BAR_POS, PASS_POS = 100, -1
"""OpenSpiel's ``kBarPos`` and ``kPassPos``."""

ENGINE = GameEngine(definition)


class MismatchError(AssertionError):
    """The two implementations disagree."""


def _spiel_sequences(state: pyspiel.State) -> dict[Sequence_, int]:
    player = state.current_player()
    sequences: dict[Sequence_, int] = {}
    for action in state.legal_actions():
        steps = tuple(
            (None if move.pos == BAR_POS else move.pos + 1, move.num)
            for move in state.spiel_move_to_checker_moves(player, action)
            if move.pos != PASS_POS
        )
        if steps in sequences:
            raise MismatchError(f"OpenSpiel lists {steps} twice")
        sequences[steps] = action
    return sequences


def _rolls(actions: Sequence[object]) -> list[int]:
    return [a.outcome for a in actions if isinstance(a, HydratedRollDice) and a.outcome is not None]


class Driver:
    """Our game, advanced by engine runs, with the rolls it records."""

    def __init__(self, seed: int, config: BackgammonConfig) -> None:
        self.game = make_game(definition, players=2, seed=seed, config=config)
        result = ENGINE.start(self.game, prng_key=TEST_PRNG_KEY)
        self.state: HydratedBackgammonGameState = result.state
        self.rolls = _rolls(result.actions)
        self.count = 0

    def run(
        self, state: HydratedBackgammonGameState, action: HydratedMove | HydratedPass
    ) -> tuple[HydratedBackgammonGameState, list[int]]:
        self.count += 1
        result = ENGINE.run(action.with_id(f"x{self.count}"), state, self.game)
        return result.state, _rolls(result.actions)

    def legal(self, state: HydratedBackgammonGameState) -> list[HydratedMove | HydratedPass]:
        (player,) = state.active_player_ids
        return ENGINE.legal_actions(state, player, self.game)  # type: ignore[return-value]

    def sequences(self) -> dict[Sequence_, list[HydratedMove | HydratedPass]]:
        """Every sequence of our actions that plays out one half of a turn, by its meaning."""
        found: dict[Sequence_, list[HydratedMove | HydratedPass]] = {}
        for first in self.legal(self.state):
            if isinstance(first, HydratedPass):
                found[()] = [first]
                continue
            after, _ = self.run(self.state, first)
            step = (first.point, first.die)
            if after.result is None and after.mover == self.state.mover and len(after.unused) == 1:
                for second in self.legal(after):
                    assert isinstance(second, HydratedMove)
                    found[(step, (second.point, second.die))] = [first, second]
            else:
                found[(step,)] = [first]
        return found


def play_one(seed: int, config: BackgammonConfig, rng: random.Random) -> tuple[int, list[float]]:
    """Play one game on both sides; return the number of decisions compared and the returns."""
    params = {"scoring_type": config.scoring_type, "max_player_turns": config.max_player_turns}
    spiel = pyspiel.load_game("backgammon", params).new_initial_state()
    ours = Driver(seed, config)
    pending = list(ours.rolls)
    decisions = 0
    while True:
        while spiel.is_chance_node():
            if not pending:
                raise MismatchError(f"seed {seed}: OpenSpiel rolls, ours does not\n{spiel}")
            outcome = pending.pop(0)
            if outcome not in {action for action, _ in spiel.chance_outcomes()}:
                raise MismatchError(f"outcome {outcome} is not one of OpenSpiel's")
            spiel.apply_action(outcome)
        if pending:
            raise MismatchError(f"our game rolled {pending} where OpenSpiel did not")
        if spiel.is_terminal():
            break
        if ours.state.result is not None:
            raise MismatchError("our game ended, OpenSpiel's goes on")
        expected = ours.state.players[spiel.current_player()].player_id
        if ours.state.active_player_ids != [expected]:
            raise MismatchError(f"to move: ours {ours.state.active_player_ids}, OpenSpiel's {expected}")
        theirs = _spiel_sequences(spiel)
        mine = ours.sequences()
        if set(theirs) != set(mine):
            raise MismatchError(
                f"decision {decisions} of seed {seed}: "
                f"only OpenSpiel {sorted(set(theirs) - set(mine), key=str)}, "
                f"only ours {sorted(set(mine) - set(theirs), key=str)}\n{spiel}"
            )
        decisions += 1
        chosen = rng.choice(sorted(theirs, key=str))
        spiel.apply_action(theirs[chosen])
        for action in mine[chosen]:
            ours.state, rolls = ours.run(ours.state, action)
            pending.extend(rolls)
    if ours.state.result is None:
        raise MismatchError("OpenSpiel's game ended, ours goes on")
    if ours.state.returns() != list(spiel.returns()):
        raise MismatchError(f"returns: ours {ours.state.returns()}, OpenSpiel's {spiel.returns()}")
    return decisions, ours.state.returns()


def run_crosscheck(games: int, config: BackgammonConfig, first_seed: int = 0) -> tuple[int, int]:
    """Play ``games`` games; return the decisions compared and the games that ended in a win."""
    rng = random.Random(first_seed)
    decisions = wins = 0
    for seed in range(first_seed, first_seed + games):
        compared, returns = play_one(seed, config, rng)
        decisions += compared
        wins += returns != [0.0, 0.0]
    return decisions, wins


def test_a_few_games_match_openspiel() -> None:
    decisions, wins = run_crosscheck(3, BackgammonConfig())
    assert decisions > 100 and wins >= 1


@pytest.mark.slow
def test_500_random_games_match_openspiel_move_for_move() -> None:
    decisions, wins = run_crosscheck(500, BackgammonConfig(), first_seed=1_000)
    assert wins > 400 and decisions > 500 * 50


@pytest.mark.slow
@pytest.mark.parametrize("scoring_type", ["enable_gammons", "full_scoring"])
def test_gammon_scoring_matches_openspiel(scoring_type: ScoringType) -> None:
    _, wins = run_crosscheck(40, BackgammonConfig(scoring_type=scoring_type), first_seed=5_000)
    assert wins > 30


def test_the_turn_limit_matches_openspiel() -> None:
    decisions, wins = run_crosscheck(3, BackgammonConfig(max_player_turns=20), first_seed=9_000)
    assert wins == 0 and decisions >= 3 * 21


@contextmanager
def _broken(monkeypatch: pytest.MonkeyPatch, name: str, replacement: object) -> Iterator[None]:
    import tabletop_backgammon.model.game_state as game_state

    def clear() -> None:
        rules.legal_steps.cache_clear()
        game_state._legal.cache_clear()

    clear()  # memoized moves were worked out by the real rule
    try:
        with monkeypatch.context() as patch:
            patch.setattr(rules, name, replacement)
            yield
    finally:
        clear()  # and these by the broken one


def _no_larger_die_rule(mine: list[int], theirs: list[int], dice: list[int]) -> list[rules.Step]:
    """A broken first-step rule: any step that can be played, even when only the smaller die may
    be used alone (the larger die must be played)."""
    followed: list[rules.Step] = []
    alone: list[rules.Step] = []
    for step in rules.checker_steps(mine, theirs, dice):
        after_mine, after_theirs = list(mine), list(theirs)
        rules.play_step(after_mine, after_theirs, step)
        can_follow = rules.checker_steps(after_mine, after_theirs, rules.without(dice, step[1]))
        (followed if can_follow else alone).append(step)
    return followed or alone


def test_a_broken_rule_makes_the_crosscheck_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = _broken(monkeypatch, "first_steps", _no_larger_die_rule)
    with broken, pytest.raises(MismatchError, match="only ours"):
        run_crosscheck(60, BackgammonConfig(), first_seed=0)
