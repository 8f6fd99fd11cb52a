"""Playing games from the command line: the random demo and interactive terminal play."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import orjson

from tabletop import games
from tabletop._action import GameAction
from tabletop._cli._commands import Commands
from tabletop._cli._config import add_config_argument, read_config
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._errors import IllegalActionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._prng import UNKEYED, Unkeyed, new_prng_key
from tabletop._seating import seated_game
from tabletop._state import GameState
from tabletop._visibility import SPECTATOR, Perspective
from tabletop.bots import RandomBot, playout
from tabletop.views import project, project_action

__all__ = ["demo", "describe_action", "describe_view", "play", "register"]

_ENVELOPE = frozenset(GameAction.model_fields) - {"type", "player_id"}
_BASE_STATE_FIELDS = frozenset(GameState.model_fields)


def describe_action(action: GameAction) -> str:
    """One log line: index, who, type, payload and what the action did (its metadata)."""
    payload = action.model_dump(
        mode="json", exclude=set(_ENVELOPE) | {"type", "player_id", "metadata"}, exclude_none=True
    )
    who = action.player_id or "system"
    text = f"#{action.index:<4} {who:<8} {action.type}"
    if payload:
        text += " " + orjson.dumps(payload).decode()
    metadata = getattr(action, "metadata", None)
    if metadata is not None:
        text += "  -> " + orjson.dumps(metadata.model_dump(mode="json")).decode()
    return text


def describe_view(state: AnyState, player_id: str) -> str:
    """What ``player_id`` may see: their own player state and the game's own table fields."""
    view = project(state, player_id).model_dump(mode="json")
    seat = next(p for p in view["players"] if p["player_id"] == player_id)
    mine = {key: value for key, value in seat.items() if key not in ("player_id", "color")}
    others = {
        p["player_id"]: {key: value for key, value in p.items() if key != "player_id" and value is not None}
        for p in view["players"]
        if p["player_id"] != player_id
    }
    table = {key: value for key, value in view.items() if key not in _BASE_STATE_FIELDS}
    lines = [f"  you: {orjson.dumps(mine).decode()}", f"  others: {orjson.dumps(others).decode()}"]
    if table:
        lines.append(f"  table: {orjson.dumps(table).decode()}")
    return "\n".join(lines)


def _describe_result(state: AnyState) -> str:
    winners = ", ".join(state.winning_player_ids) or "nobody"
    return f"result: {state.result.value if state.result else 'unfinished'} (winners: {winners})"


def _start_key(definition: GameDefinition[AnyState, GameConfig], unkeyed: bool) -> str | Unkeyed | None:
    """A fresh secret key for a game that needs one; :data:`UNKEYED` if asked (``--unkeyed``)."""
    if unkeyed:
        return UNKEYED
    return new_prng_key() if definition.requires_prng_key else None


def demo(
    name: str,
    *,
    seed: int,
    players: int | None,
    out: TextIO,
    unkeyed: bool = False,
    config: str | None = None,
) -> AnyState:
    """Play ``name`` with a random bot in every seat; print the log and the result.

    ``config`` is ``--config``: the game's options as JSON, or a JSON file.

    A game with hidden information or chance gets a fresh secret PRNG key, unless ``unkeyed``
    (then the seed alone decides, and the same seed prints the same game).
    """
    definition = games.load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    count = players or max(2, definition.min_players)
    game = seated_game(definition, players=count, seed=seed, config=read_config(definition, config))
    print(
        f"{name} (logic {definition.logic_version}), seed {seed}, players "
        f"{', '.join(p.id for p in game.players)}",
        file=out,
    )
    state = None
    for result in playout(engine, game, RandomBot(engine, seed), prng_key=_start_key(definition, unkeyed)):
        for action in result.actions:
            print(describe_action(action), file=out)
        state = result.state
    assert state is not None
    print(_describe_result(state), file=out)
    return state


def play(
    name: str,
    *,
    seed: int,
    players: int | None,
    seats: list[str],
    stdin: TextIO,
    out: TextIO,
    unkeyed: bool = False,
    config: str | None = None,
) -> AnyState:
    """Play ``name`` at the terminal: humans pick from numbered legal actions, bots play the rest.

    A human sees only their seat's view (:func:`tabletop.views.project`) and the log as their
    seat receives it (:func:`tabletop.views.project_action`), never the hidden state. A game
    with hidden information or chance gets a fresh secret PRNG key, so nobody can foresee it
    from the seed; ``unkeyed`` plays from the seed alone (a reproducible game). At the end of
    the input the game stops where it is, and the state so far is returned.
    """
    definition = games.load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    count = players or max(len(seats), definition.min_players, 2)
    game = seated_game(definition, players=count, seed=seed, config=read_config(definition, config))
    kinds = (seats or ["human"]) + ["bot"] * count
    humans = {seat.id for seat, kind in zip(game.players, kinds, strict=False) if kind == "human"}
    # The log shows what the human may know: their projection, or a spectator's when several
    # humans share the terminal (each then sees their own view only when choosing).
    reader: Perspective = next(iter(humans)) if len(humans) == 1 else SPECTATOR
    bot = RandomBot(engine, seed)
    state = engine.start(game, prng_key=_start_key(definition, unkeyed)).state
    while state.result is None:
        player_id = next(p for p in state.active_player_ids if engine.legal_actions(state, p, game))
        legal = engine.legal_actions(state, player_id, game)
        if player_id in humans:
            print(f"\n{player_id} to play ({state.machine_state.value}):", file=out)
            print(describe_view(state, player_id), file=out)
            for number, candidate in enumerate(legal, 1):
                print(
                    f"  {number}. {describe_action(candidate.model_copy(update={'index': 0}))[6:]}",
                    file=out,
                )
            choice = _ask(len(legal), stdin, out)
            if choice is None:
                print(f"\nend of input: {name} stops unfinished after {state.action_count} actions", file=out)
                return state
            action = legal[choice - 1]
        else:
            action = bot.rng.choice(legal)
        try:
            result = engine.run(action.model_copy(update={"id": bot.new_id()}), state, game)
        except IllegalActionError as exc:  # pragma: no cover - enumerate only offers legal moves
            print(f"illegal: {exc}", file=out)
            continue
        for recorded in result.actions:
            print(describe_action(project_action(recorded, reader)), file=out)
        state = result.state
    print(_describe_result(state), file=out)
    return state


def _ask(count: int, stdin: TextIO, out: TextIO) -> int | None:
    """The number the human chose, or None at the end of the input."""
    while True:
        print(f"choose 1-{count}: ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            return None
        if line.strip().isdigit() and 1 <= int(line) <= count:
            return int(line)
        print("not a choice", file=out)


def _demo_command(args: argparse.Namespace) -> int:
    demo(
        args.game,
        seed=args.seed,
        players=args.players,
        out=sys.stdout,
        unkeyed=args.unkeyed,
        config=args.config,
    )
    return 0


def _play_command(args: argparse.Namespace) -> int:
    play(
        args.game,
        seed=args.seed,
        players=args.players,
        seats=args.seat,
        stdin=sys.stdin,
        out=sys.stdout,
        unkeyed=args.unkeyed,
        config=args.config,
    )
    return 0


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=42, help="the game's PRNG seed (default 42)")
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument(
        "--unkeyed",
        action="store_true",
        help="play from the seed alone, without a secret PRNG key (reproducible, but foreseeable)",
    )
    add_config_argument(parser)


def register(commands: Commands) -> None:
    """Add ``demo`` and ``play``."""
    sub = commands.add_parser("demo", help="play a game with random legal actions and print its log")
    sub.add_argument("game", nargs="?", default="sample")
    _add_common(sub)
    sub.set_defaults(handler=_demo_command)
    sub = commands.add_parser("play", help="play a game at the terminal against random bots")
    sub.add_argument("game")
    _add_common(sub)
    sub.add_argument(
        "--seat",
        action="append",
        default=[],
        choices=("human", "bot"),
        help="who sits in each seat, in order (default: one human, then bots)",
    )
    sub.set_defaults(handler=_play_command)
