"""Tabletop games as registered OpenSpiel Python games.

Observations are projected views (:mod:`tabletop.views`), never the state itself:

- a player's **observation string** is their view of the current state,
  ``project(state, player_id)``, as compact JSON;
- a player's **information state string** is their history as they know it: their seat id,
  then for each step (the start, then every player action) the actions that step recorded as
  the player receives them (``project_log``, a JSON array), then their view of the state after
  them: one line each. It holds exactly what the framework sends that player over the game (its
  views and its log), so nothing any projected view hides, and it has perfect recall: it grows
  by two lines per action, and holds who did what in public (an ask, a bid being made) that
  views alone would not show. A game keeps a secret carried by an action (a sealed bid's card)
  by declaring it on the action too;
- ``str(state)`` is OpenSpiel's omniscient state string: the whole tabletop state as JSON, PRNG
  and secrets included (it is what serialization checks compare; never show it to a player).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import ClassVar

import numpy as np
import numpy.typing as npt
import pyspiel

from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._prng import UNKEYED, Unkeyed
from tabletop.adapters._hints import DEFAULT_MAX_GAME_LENGTH, ObservationTensor, adapter_hints
from tabletop.adapters._snapshot import Snapshot, information_lines, recorded_actions
from tabletop.adapters._table import Table, Turn
from tabletop.games import available, load

__all__ = ["TabletopGame", "TabletopState", "load_game", "register_all", "register_game", "short_name"]

AnyDefinition = GameDefinition[AnyState, GameConfig]
AnyTable = Table[AnyState, GameConfig]
ParameterValue = bool | int | float | str

_RESERVED = ("players", "seed", "max_game_length", "prng_key")
_GAME_CLASSES: dict[str, type[TabletopGame]] = {}


def short_name(game: str) -> str:
    """The OpenSpiel name of a tabletop game: ``"tic-tac-toe"`` -> ``"tabletop_tic_tac_toe"``."""
    return "tabletop_" + game.replace("-", "_")


def _default_players(definition: AnyDefinition) -> int:
    return max(definition.min_players, min(2, definition.max_players))


def _config_parameters(definition: AnyDefinition) -> dict[str, ParameterValue]:
    """The config options OpenSpiel can set: those whose default is a bool, int, float or string."""
    parameters: dict[str, ParameterValue] = {}
    for name, field in definition.config_type.model_fields.items():
        default = field.get_default(call_default_factory=True)
        if isinstance(default, Enum):
            default = default.value
        if isinstance(default, bool | int | float | str):
            if name in _RESERVED:
                raise GameDefinitionError(
                    definition.name, [f"config option {name!r} clashes with an adapter parameter"]
                )
            parameters[name] = default
    return parameters


def _parameter_specification(definition: AnyDefinition) -> dict[str, ParameterValue]:
    max_game_length = adapter_hints(definition.name).max_game_length or DEFAULT_MAX_GAME_LENGTH
    return {
        "players": _default_players(definition),
        "seed": 0,
        "max_game_length": max_game_length,
        "prng_key": "",
        **_config_parameters(definition),
    }


def _prng_key(value: str) -> str | Unkeyed | None:
    """The ``prng_key`` parameter: ``""`` (a fresh key if needed), ``"unkeyed"``, or a key."""
    if value == "unkeyed":
        return UNKEYED
    return value or None


def _game_type(definition: AnyDefinition) -> pyspiel.GameType:
    hints = adapter_hints(definition.name)
    two_player = definition.min_players == definition.max_players == 2
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(definition.name),
        long_name=f"tabletop {definition.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if definition.chance_actions
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=information.PERFECT_INFORMATION
        if hints.perfect_information
        else information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_player else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=definition.max_players,
        min_num_players=definition.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=hints.observation_tensor is not None,
        parameter_specification=_parameter_specification(definition),
    )


class TabletopGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """An installed tabletop game as an OpenSpiel game (one subclass is registered per game).

    Game parameters: ``players`` (default 2 where the game allows it), ``seed`` (the game's PRNG
    seed, default 0: the game is deterministic given its parameters), ``max_game_length`` (the
    most player actions before a game is cut off as a draw; default: the game's hint, else
    1000), ``prng_key`` (the games' PRNG key as hex digits; ``"unkeyed"`` plays from the seed
    alone; default ``""``: a game with hidden information or chance gets a fresh secret key per
    game object, see :class:`~tabletop.adapters.Table`), and each config option whose default
    is a bool, int, float or string.

    Attributes:
        table: The configured game: seats ``player_0``.., engine, codec, length bound.
    """

    game_name: ClassVar[str]
    """The tabletop game this class plays."""

    def __init__(self, params: Mapping[str, ParameterValue] | None = None) -> None:
        definition = load(self.game_name)
        values = {**_parameter_specification(definition), **(params or {})}
        config_values = {name: values[name] for name in _config_parameters(definition)}
        table: AnyTable = Table(
            definition,
            players=int(values["players"]),
            seed=int(values["seed"]),
            config=definition.config_type.model_validate(config_values),
            max_game_length=int(values["max_game_length"]),
            prng_key=_prng_key(str(values["prng_key"])),
        )
        two_player = definition.min_players == definition.max_players == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=table.codec.size,
            max_chance_outcomes=table.chance_codec.size if table.chance_codec is not None else 0,
            num_players=len(table.player_ids),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if two_player else None,
            max_game_length=table.max_game_length,
        )
        super().__init__(_game_type(definition), info, values)
        self.table = table
        if table.chance_codec is None:
            start = table.start()
            self._initial = Snapshot(state=start.state, actions=start.actions)
        else:  # the deal at the start, if any, is chance nodes too
            paused = table.start_paused()
            self._initial = Snapshot(
                state=paused.state, actions=paused.actions, pending=tuple(paused.pending)
            )

    def new_initial_state(self) -> TabletopState:
        """The start of a game (built once per game object and shared)."""
        return TabletopState(self, (self._initial,))

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, object] | None = None,
    ) -> _Observer:
        """An observer: observations, or with ``perfect_recall`` information states."""
        if params:
            msg = f"observation parameters are not supported; got {dict(params)}"
            raise ValueError(msg)
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return _Observer(self.table, perfect_recall=perfect_recall)


class TabletopState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state over a tabletop state.

    The acting player is the first active player with a legal action (several active players
    act one after the other; each one's observation is their own). A game with a result is
    terminal; so is one cut off after ``max_game_length`` player actions (a draw).
    """

    def __init__(self, game: TabletopGame, trail: tuple[Snapshot, ...]) -> None:
        super().__init__(game)
        self._trail = trail
        self._moves = 0
        """Player actions played (chance outcomes do not count towards ``max_game_length``)."""

    @property
    def _table(self) -> AnyTable:
        table: AnyTable = self.get_game().table
        return table

    @property
    def tabletop_state(self) -> AnyState:
        """The current tabletop state (do not mutate it: clones share it)."""
        return self._trail[-1].state(self._table)

    def _turn(self, table: AnyTable) -> Turn[AnyState, GameConfig] | None:
        if self._moves >= table.max_game_length or self._trail[-1].is_chance():
            return None  # at a chance node nobody may be active yet (the outcome gives the turn)
        return self._trail[-1].turn(table)

    def current_player(self) -> int:
        """The acting seat's index, ``PlayerId.CHANCE`` at a chance node, or ``PlayerId.TERMINAL``."""
        table = self._table
        if self._trail[-1].is_chance() and self._moves < table.max_game_length:
            return int(pyspiel.PlayerId.CHANCE)
        turn = self._turn(table)
        if turn is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return table.player_ids.index(turn.player_id)

    def _legal_actions(self, player: int) -> list[int]:
        table = self._table
        turn = self._turn(table)
        if turn is None or table.player_ids[player] != turn.player_id:
            return []
        return list(turn.actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, the pending chance point's outcomes: (number, probability), by number."""
        table = self._table
        last = self._trail[-1]
        if table.chance_codec is None or not last.is_chance():
            msg = "not a chance node"
            raise RuntimeError(msg)
        pending = last.pending(table)[0]
        return table.chance_codec.outcomes(pending, last.state(table), table.game)  # type: ignore[arg-type]

    def _apply_action(self, action: int) -> None:
        table = self._table
        last = self._trail[-1]
        if last.is_chance():
            step = table.decide(last.state(table), last.pending(table), action)
        else:
            turn = self._turn(table)
            if turn is None:
                msg = "the game is over"
                raise RuntimeError(msg)
            if table.chance_codec is None:
                run = table.play(last.state(table), turn.player_id, action)
                self._trail = (*self._trail, Snapshot(state=run.state, actions=run.actions))
                self._moves += 1
                return
            step = table.play_paused(last.state(table), turn.player_id, action)
            self._moves += 1
        snapshot = Snapshot(state=step.state, actions=step.actions, pending=tuple(step.pending))
        self._trail = (*self._trail, snapshot)

    def _action_to_string(self, player: int, action: int) -> str:
        table = self._table
        if player == int(pyspiel.PlayerId.CHANCE) and table.chance_codec is not None:
            return f"chance: {table.chance_codec.describe(action)}"
        return f"{table.player_ids[player]}: {table.codec.describe(action)}"

    def is_terminal(self) -> bool:
        """True once the game has a result or was cut off (never at a chance node: play goes on)."""
        table = self._table
        if self._trail[-1].is_chance() and self._moves < table.max_game_length:
            return False
        return self._turn(table) is None

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for everyone else once the game is won; 0 otherwise."""
        table = self._table
        return table.returns(self._trail[-1].state(table))

    def __str__(self) -> str:
        return self._trail[-1].json().decode()  # the whole state, secrets included: never a player's

    def observation_for(self, player: int) -> str:
        """Seat ``player``'s view of the current state (``tabletop.views.project``), as JSON."""
        table = self._table
        return self._trail[-1].observation(table, table.player_ids[player])

    def information_state_for(self, player: int) -> str:
        """Seat ``player``'s history as they know it: their seat id, then two lines per step.

        Each step (the start, then each player action) adds the actions it recorded as the
        player receives them (a JSON array of :func:`tabletop.views.project_log`), then the
        player's view of the state after them (their observation). Nothing the views hide.
        """
        table = self._table
        player_id = table.player_ids[player]
        return "\n".join([player_id, *information_lines(self._trail, table, player_id)])

    @property
    def action_log(self) -> list[GameAction]:
        """Every action the game recorded so far, system actions included, in order.

        This is the host's log, hidden fields included (do not mutate the actions: clones share
        them); each player's information state holds its projection.
        """
        return recorded_actions(self._trail, self._table)


class _Observer:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, table: AnyTable, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self._spec: ObservationTensor[AnyState] | None = (
            None if perfect_recall else table.hints.observation_tensor
        )
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if self._spec is not None:
            self.tensor = np.zeros(self._spec.size, np.float32)
            self.dict["observation"] = self.tensor.reshape(self._spec.shape)

    def set_from(self, state: TabletopState, player: int) -> None:
        """Write the game's observation tensor of ``state`` for seat ``player``."""
        if self._spec is None or self.tensor is None:
            return
        player_id = state.get_game().table.player_ids[player]
        self.tensor[:] = self._spec.values(state.tabletop_state, player_id)

    def string_from(self, state: TabletopState, player: int) -> str:
        """The observation (or information state) string of ``state`` for seat ``player``."""
        return state.information_state_for(player) if self.perfect_recall else state.observation_for(player)


def register_game(game: str) -> str:
    """Register an installed tabletop game with OpenSpiel (once); return its OpenSpiel name.

    Raises:
        UnknownGameError: No installed game has that name.
        GameDefinitionError: A config option clashes with an adapter parameter.
    """
    name = short_name(game)
    if name not in _GAME_CLASSES:
        definition = load(game)
        game_class = type(
            f"TabletopGame_{name}", (TabletopGame,), {"game_name": game, "__module__": __name__}
        )
        pyspiel.register_game(_game_type(definition), game_class)
        _GAME_CLASSES[name] = game_class  # the registry holds the class for the whole process
    return name


def register_all() -> list[str]:
    """Register every installed tabletop game; return their OpenSpiel names."""
    return [register_game(game) for game in available()]


def load_game(game: str, **params: ParameterValue) -> TabletopGame:
    """Register ``game`` if needed and load it with ``params`` (e.g. ``players=3, seed=7``).

    Raises:
        UnknownGameError: No installed game has that name.
        ValueError: The game does not take that many players, or a parameter is out of range.
    """
    loaded = pyspiel.load_game(register_game(game), params)
    if not isinstance(loaded, TabletopGame):
        msg = f"OpenSpiel returned a {type(loaded).__name__} for {game!r}"
        raise TypeError(msg)
    return loaded
