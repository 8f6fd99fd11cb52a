"""Tabletop games as PettingZoo AEC environments.

An agent's generic observation is their projected view of the state (``tabletop.views.project``)
as JSON bytes; the ``"ansi"`` rendering is the spectator's view. Neither holds anything the
views hide (other players' secrets, the PRNG).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt
import orjson
from gymnasium import spaces
from pettingzoo import AECEnv

from tabletop._errors import IllegalActionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._prng import Unkeyed
from tabletop._visibility import SPECTATOR
from tabletop.adapters._observation import observation_json
from tabletop.adapters._table import Table, Turn
from tabletop.games import load

__all__ = ["DEFAULT_OBSERVATION_BYTES", "Observation", "TabletopEnv"]

DEFAULT_OBSERVATION_BYTES = 4096
"""Size of the generic observation: the player's view as JSON bytes, zero-padded.

Room for the installed games' views with their default configs: a 6-player Go Fish view takes
at most about 2.5 KB (a player holding all 52 cards), Goofspiel's about 1.7 KB. A bigger config
(Goofspiel with 52 cards: about 5 KB) needs a larger ``observation_bytes``.
"""

Observation = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.uint8] | npt.NDArray[np.int8]]
"""An observation: ``observation`` (float32 tensor or uint8 JSON bytes) and ``action_mask`` (int8)."""


class TabletopEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """An installed tabletop game as a PettingZoo AEC environment.

    Agents are the seat ids ``player_0``..``player_{n-1}``; the agent to act is the first active
    player with a legal action. Actions are ``Discrete`` over the game's
    :class:`~tabletop.adapters.ActionCodec`. Each observation is a dict: ``observation`` (the
    game's :class:`~tabletop.adapters.ObservationTensor` as float32 if it registered one, else
    the agent's view of the state, ``tabletop.views.project``, as JSON bytes in a zero-padded
    uint8 vector of ``observation_bytes``) and ``action_mask`` (int8, 1 for each legal action
    of the agent to act, all 0 for everyone else). Rewards come at the end: +1 for each winner, -1 for the
    others, 0 for everyone in a draw. A game still running after ``max_game_length`` player
    actions is truncated. ``reset(seed=s)`` starts a game with PRNG seed ``s``; ``reset()``
    draws the next seed from the last one given.

    Args:
        game: The installed game's name, e.g. ``"tic-tac-toe"``.
        players: How many seats (default: 2 where the game allows it).
        config: The game's config (default: its defaults).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the spectator's view as text).
        max_game_length: The most player actions before truncation (default: the game's
            hint, else 1000).
        observation_bytes: Size of the generic observation (a view longer than that raises
            ``ValueError`` when observed).
        prng_key: The games' PRNG key, or :data:`tabletop.UNKEYED` (see
            :class:`~tabletop.adapters.Table`: by default a game with hidden information or
            chance gets a fresh secret key per environment, so ``reset(seed=s)`` replays the same
            game in this environment; give two environments the same key to compare them).

    Raises:
        UnknownGameError: No installed game has that name.
        ValueError: The game does not take that many players, the render mode is unknown, or
            ``observation_bytes`` is not positive.
    """

    metadata = {"render_modes": ["ansi"], "name": "tabletop_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        config: GameConfig | None = None,
        render_mode: str | None = None,
        max_game_length: int | None = None,
        observation_bytes: int = DEFAULT_OBSERVATION_BYTES,
        prng_key: str | Unkeyed | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            msg = f"render_mode must be None or 'ansi', not {render_mode!r}"
            raise ValueError(msg)
        if observation_bytes < 1:
            msg = f"observation_bytes must be positive, not {observation_bytes}"
            raise ValueError(msg)
        definition = load(game)
        if players is None:
            players = max(definition.min_players, min(2, definition.max_players))
        self.table: Table[AnyState, GameConfig] = Table(
            definition, players=players, config=config, max_game_length=max_game_length, prng_key=prng_key
        )
        self.render_mode = render_mode
        self.observation_bytes = observation_bytes
        self.metadata = {**self.metadata, "name": f"tabletop_{game.replace('-', '_')}_v0"}
        self.possible_agents: list[str] = list(self.table.player_ids)
        self.agents: list[str] = []
        size = self.table.codec.size
        tensor = self.table.hints.observation_tensor
        observation: spaces.Box = (
            spaces.Box(low=tensor.low, high=tensor.high, shape=tensor.shape, dtype=np.float32)
            if tensor is not None
            else spaces.Box(low=0, high=255, shape=(observation_bytes,), dtype=np.uint8)
        )
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._state: AnyState | None = None
        self._turn: Turn[AnyState, GameConfig] | None = None
        self._moves = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object every call)."""
        return self.action_spaces[agent]

    @property
    def tabletop_state(self) -> AnyState:
        """The current tabletop state (do not mutate it).

        Raises:
            RuntimeError: ``reset()`` was never called.
        """
        if self._state is None:
            msg = "call reset() first"
            raise RuntimeError(msg)
        return self._state

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """Start a new game: with PRNG seed ``seed``, or the next seed drawn from the last one."""
        if seed is not None:
            self.table.reseed(seed)
            self._seeds = random.Random(seed)
        else:
            self.table.reseed(self._seeds.getrandbits(32))
        self._state = self.table.start().state
        self._moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._turn = self.table.turn(self._state)
        if self._turn is None:
            msg = f"{self.table.definition.name} ended before anyone acted"
            raise RuntimeError(msg)
        self.agent_selection = self._turn.player_id

    def observe(self, agent: str) -> Observation:
        """What ``agent`` observes now, and which actions they may take."""
        state = self.tabletop_state
        mask = np.zeros(self.table.codec.size, np.int8)
        if self._turn is not None and self._turn.player_id == agent:
            mask[list(self._turn.actions)] = 1
        tensor = self.table.hints.observation_tensor
        if tensor is None:
            return {"observation": self._json_observation(state, agent), "action_mask": mask}
        values = np.asarray(tensor.values(state, agent), np.float32).reshape(tensor.shape)
        return {"observation": values, "action_mask": mask}

    def _json_observation(self, state: AnyState, agent: str) -> npt.NDArray[np.uint8]:
        data = observation_json(state, agent)
        if len(data) > self.observation_bytes:
            msg = (
                f"{agent}'s observation of {self.table.definition.name} takes {len(data)} bytes, more than "
                f"observation_bytes={self.observation_bytes}; pass a larger observation_bytes"
            )
            raise ValueError(msg)
        padded = np.zeros(self.observation_bytes, np.uint8)
        padded[: len(data)] = np.frombuffer(data, np.uint8)
        return padded

    def step(self, action: SupportsIndex | None) -> None:
        """Play ``action`` (an index into the action space) for the agent to act.

        A terminated or truncated agent must step with ``None`` to leave.

        Raises:
            IllegalActionError: The action is not legal now (code ``illegal-action-index``).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        turn = self._turn
        assert turn is not None and turn.player_id == agent
        index = None if action is None else operator.index(action)
        if index not in turn.actions:
            legal = list(turn.actions)
            raise IllegalActionError(
                "illegal-action-index", f"{action} is not one of {agent}'s legal actions {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        self._state = self.table.play(self.tabletop_state, agent, index).state
        self._moves += 1
        self._turn = self.table.turn(self._state)
        if self._turn is None:
            self.rewards = dict(zip(self.table.player_ids, self.table.returns(self._state), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._moves >= self.table.max_game_length:
            self._turn = None
            self._clear_rewards()
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            self.agent_selection = self._turn.player_id
        self._accumulate_rewards()

    def render(self) -> str | None:
        """In ``"ansi"`` mode, the spectator's view of the state as indented JSON; None otherwise.

        The view is ``tabletop.views.project(state, SPECTATOR)``: what every player may see.
        """
        if self.render_mode != "ansi" or self._state is None:
            return None
        shown = orjson.loads(observation_json(self._state, SPECTATOR))
        return orjson.dumps(shown, option=orjson.OPT_INDENT_2).decode()

    def close(self) -> None:
        """Nothing to release."""
