"""One configured game as the adapters play it: seats, engine, codec, turns and returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine, Paused, RunResult, resume_paused, run_paused, start_paused
from tabletop._errors import GameDefinitionError, IllegalActionError
from tabletop._game import Game, GameConfig, Player
from tabletop._machine import AnyState, HydratedAction
from tabletop._prng import Unkeyed, new_prng_key
from tabletop._state import GameResult
from tabletop.adapters._chance_codec import ChanceCodec
from tabletop.adapters._codec import ActionCodec
from tabletop.adapters._hints import DEFAULT_MAX_GAME_LENGTH, AdapterHints, adapter_hints

__all__ = ["Table", "Turn", "outcome_returns", "seat_ids"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

GAME_ID = "adapter-game"
"""The id of every game the adapters build."""


def seat_ids(players: int) -> list[str]:
    """The seat ids the adapters give a game's players: ``player_0``, ``player_1``, ..."""
    return [f"player_{seat}" for seat in range(players)]


def outcome_returns(state: AnyState, player_ids: list[str]) -> list[float]:
    """Each player's return: +1 for a winner, -1 for everyone else, 0 for all in a draw.

    A game still running, abandoned, drawn, or won by every player gives everyone 0. With two
    players this is zero-sum (win 1, loss -1, draw 0).
    """
    winners = set(state.winning_player_ids)
    if state.result is not GameResult.WIN or not winners or winners >= set(player_ids):
        return [0.0] * len(player_ids)
    return [1.0 if player_id in winners else -1.0 for player_id in player_ids]


@dataclass(frozen=True, slots=True)
class Turn(Generic[StateT, ConfigT]):
    """Who acts in a state and what they may do.

    Attributes:
        player_id: The acting player: the first active player with a legal action.
        actions: Their legal actions by codec index, in increasing index order.
    """

    player_id: str
    actions: dict[int, HydratedAction[GameAction, StateT, ConfigT]]


class Table(Generic[StateT, ConfigT]):
    """A game with seats ``player_0``..``player_{n-1}``, a config and a seed, ready to play by index.

    Several active players act one after the other: the first active player with a legal
    action is the one to act.

    Args:
        definition: The game.
        players: How many seats.
        seed: The game's PRNG seed.
        config: The game's config (default: the config type's defaults).
        max_game_length: The most player actions before the game is cut off (default: the
            game's hint, else 1000).
        prng_key: The games' PRNG key (every seed of this table uses it), or
            :data:`tabletop.UNKEYED` to play from the seed alone. None: a fresh secret key
            (``tabletop.new_prng_key()``) for a game that needs one (hidden information or
            chance), drawn once per table, so the same seed replays the same game on this
            table, and two tables agree only when given the same key.

    Raises:
        ValueError: The game does not take that many players, or the seed is out of range.
        GameDefinitionError: The game's action spaces are inconsistent (see :class:`ActionCodec`).
    """

    def __init__(
        self,
        definition: GameDefinition[StateT, ConfigT],
        *,
        players: int,
        seed: int = 0,
        config: ConfigT | None = None,
        max_game_length: int | None = None,
        prng_key: str | Unkeyed | None = None,
    ) -> None:
        if not definition.min_players <= players <= definition.max_players:
            allowed = f"{definition.min_players}..{definition.max_players}"
            msg = f"{definition.name} takes {allowed} players, not {players}"
            raise ValueError(msg)
        self.definition = definition
        self.hints: AdapterHints = adapter_hints(definition.name)
        self.player_ids = seat_ids(players)
        self._config = config if config is not None else definition.config_type()
        if prng_key is None and definition.requires_prng_key:
            prng_key = new_prng_key()
        self.prng_key = prng_key
        self.game: Game[ConfigT] = self._make_game(seed)
        self.engine = GameEngine(definition)
        self.codec = ActionCodec(definition, self.game)
        self.chance_codec: ChanceCodec[StateT, ConfigT] | None = (
            ChanceCodec(definition, self.game) if definition.chance_actions else None
        )
        """The numbering of the declared chance points' outcomes; None for a game without any."""
        if max_game_length is None:
            max_game_length = self.hints.max_game_length or DEFAULT_MAX_GAME_LENGTH
        self.max_game_length = max_game_length
        if max_game_length < 1:
            msg = f"max_game_length must be positive, not {self.max_game_length}"
            raise ValueError(msg)

    def _make_game(self, seed: int) -> Game[ConfigT]:
        if not 0 <= seed <= 0xFFFFFFFF:
            msg = f"a seed is a 32-bit unsigned integer, not {seed}"
            raise ValueError(msg)
        seats = [Player(id=player_id, name=f"Player {n}") for n, player_id in enumerate(self.player_ids)]
        return self.definition.game_type(
            id=GAME_ID, type_id=self.definition.name, players=seats, config=self._config, seed=seed
        )

    def reseed(self, seed: int) -> None:
        """Play the next games with another seed (the codec stays the same)."""
        self.game = self._make_game(seed)

    def start(self) -> RunResult[StateT, ConfigT]:
        """The initial state, with the system actions recorded while setting it up."""
        return self.engine.start(self.game, prng_key=self.prng_key)

    def turn(self, state: StateT) -> Turn[StateT, ConfigT] | None:
        """Who acts now and their legal actions by index; None once the game is over.

        Raises:
            RuntimeError: The game is not over but no active player has a legal action.
            GameDefinitionError: A legal action is missing from the action space, or two legal
                actions have the same index.
        """
        if state.result is not None:
            return None
        for player_id in state.active_player_ids:
            legal = self.engine.legal_actions(state, player_id, self.game)
            if not legal:
                continue
            actions = {self.codec.encode(action): action for action in legal}
            if len(actions) != len(legal):
                problem = (
                    f"{player_id} has {len(legal)} legal actions but only {len(actions)} distinct payloads"
                )
                raise GameDefinitionError(self.definition.name, [problem])
            return Turn(player_id, dict(sorted(actions.items())))
        msg = f"no active player can act in {state.machine_state} (active: {state.active_player_ids})"
        raise RuntimeError(msg)

    def play(self, state: StateT, player_id: str, index: int) -> RunResult[StateT, ConfigT]:
        """What ``player_id`` playing the action numbered ``index`` does (``state`` is untouched).

        The action gets the deterministic id ``a<action count>``. The result holds the new state
        and every action recorded: the played one, then the system actions it caused.

        Raises:
            IllegalActionError: The action may not be played now.
            IndexError: ``index`` is out of range.
        """
        action = self.codec.decode(index, player_id, action_id=f"a{state.action_count}")
        return self.engine.run(action, state, self.game)

    def start_paused(self) -> Paused[StateT, ConfigT]:
        """:meth:`start`, stopping at the first chance point (its ``pending`` is then not empty)."""
        return start_paused(self.engine, self.game, self.prng_key)

    def play_paused(self, state: StateT, player_id: str, index: int) -> Paused[StateT, ConfigT]:
        """:meth:`play` (on a copy of ``state``), stopping at the first chance point met."""
        action = self.codec.decode(index, player_id, action_id=f"a{state.action_count}")
        return run_paused(self.engine, action, self.engine.copy_state(state), self.game)

    def decide(
        self, state: StateT, pending: list[HydratedAction[GameAction, StateT, ConfigT]], index: int
    ) -> Paused[StateT, ConfigT]:
        """The pending chance point of ``state`` decided as outcome number ``index`` (on copies).

        Raises:
            IllegalActionError: Nothing is pending, or the outcome is not possible now.
            IndexError: ``index`` is out of range.
        """
        if self.chance_codec is None or not pending:
            raise IllegalActionError("not-a-chance-node", "no chance point is pending")
        tag, outcome = self.chance_codec.decode(index)
        if tag != str(pending[0].type):
            msg = f"chance outcome {index} is a {tag} outcome, not a {pending[0].type} one"
            raise IllegalActionError("impossible-chance-outcome", msg, path="outcome")
        copies = [action.with_id(action.id) for action in pending]
        return resume_paused(self.engine, copies, outcome, self.engine.copy_state(state), self.game)

    def returns(self, state: StateT) -> list[float]:
        """Every seat's return in seating order (see :func:`outcome_returns`)."""
        return outcome_returns(state, self.player_ids)
