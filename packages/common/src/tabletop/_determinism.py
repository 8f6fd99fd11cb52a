"""Checking that a game is deterministic: two bot playouts from one seed and key, step by step.

Behind :func:`tabletop.testing.assert_deterministic`. Both playouts start from the same seed and
the same PRNG key (a keyed game, one with chance or hidden information, given a fresh key per
playout would differ from its first draw: that is the key doing its job, not a bug), and the
same seeded random bot plays every seat. The first step where they part is reported with what
differs (the actions chosen or recorded, or the JSON paths of the state that differ) and the
likely reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from pydantic import JsonValue

from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine, RunResult
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop._prng import Unkeyed
from tabletop._seating import seated_game
from tabletop.bots._random import RandomBot, playout
from tabletop.golden._diff import json_diff

__all__ = ["Step", "describe_divergence", "record_playout"]

SHOWN_PATHS = 8
"""How many differing state paths a report lists."""


@dataclass(frozen=True)
class Step:
    """One step of a playout: the actions it recorded and the state after them, as JSON."""

    actions: list[JsonValue]
    state: JsonValue
    state_bytes: bytes


def _step(result: RunResult[AnyState, GameConfig]) -> Step:
    state = result.state.model_dump(mode="json")
    return Step(
        actions=[action.model_dump(mode="json") for action in result.actions],
        state=state,
        state_bytes=orjson.dumps(state),
    )


def record_playout(
    definition: GameDefinition[AnyState, GameConfig],
    *,
    players: int,
    seed: int,
    config: GameConfig | None,
    prng_key: str | Unkeyed | None,
    max_actions: int,
) -> list[Step]:
    """Random bots (seeded with ``seed``) play a game of ``definition`` to its end: every step."""
    engine = GameEngine(definition)
    game = seated_game(definition, players=players, seed=seed, config=config, game_id="game-1")
    bot = RandomBot(engine, seed)
    results = playout(engine, game, bot, max_actions=max_actions, prng_key=prng_key)
    return [_step(result) for result in results]


def _short(value: JsonValue) -> str:
    text = orjson.dumps(value).decode()
    return text if len(text) <= 120 else text[:117] + "..."


def _state_paths(first: JsonValue, second: JsonValue) -> list[str]:
    ops = json_diff(first, second)
    lines = []
    for op in ops[:SHOWN_PATHS]:
        before = _pointer(first, op.path)
        after = "(absent)" if op.op == "remove" else _short(op.value)
        lines.append(f"    {op.path or '(the whole value)'}: first run {before}, second run {after}")
    if len(ops) > SHOWN_PATHS:
        lines.append(f"    ... and {len(ops) - SHOWN_PATHS} more")
    return lines


def _pointer(value: JsonValue, path: str) -> str:
    for part in [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return "(absent)"
    return _short(value)


def _submitted(step: Step) -> JsonValue:
    return step.actions[0] if step.actions else None


def describe_divergence(first: list[Step], second: list[Step]) -> str | None:
    """None if the two playouts are byte-identical, else what differs first, and why it may."""
    for index, (one, two) in enumerate(zip(first, second, strict=False)):
        if one.state_bytes == two.state_bytes and one.actions == two.actions:
            continue
        where = "at the start" if index == 0 else f"at step {index} (after {index} submitted actions)"
        lines = [f"two playouts with the same seed, PRNG key and bots differ {where}:"]
        if index > 0 and _submitted(one) != _submitted(two):
            lines.append("  the bots submitted different actions:")
            lines += _state_paths(_submitted(one), _submitted(two))
            lines.append(
                "  why: from byte-identical states the seeded bot chose differently, so the legal "
                "actions came out in another order or number: an enumerate() (or a handler's "
                "valid actions) iterates a set, or reads something outside the state (the clock, "
                "the random module, a module-level variable)."
            )
            return "\n".join(lines)
        if one.actions != two.actions:
            names = [str(a.get("type")) if isinstance(a, dict) else "?" for a in one.actions]
            lines.append(f"  the recorded actions differ ({', '.join(names)}):")
            for n, (a, b) in enumerate(zip(one.actions, two.actions, strict=False)):
                if a != b:
                    lines += [line.replace("    ", f"    action {n} ", 1) for line in _state_paths(a, b)]
            if len(one.actions) != len(two.actions):
                lines.append(f"    first run recorded {len(one.actions)} actions, second {len(two.actions)}")
        if one.state_bytes != two.state_bytes:
            lines.append("  the states differ at:")
            lines += _state_paths(one.state, two.state)
        source = "setup() or the initial state's enter()" if index == 0 else "the same action"
        lines.append(
            f"  why: {source} gave different results from the same seed and key: the game drew "
            "randomness outside ctx.prng (the random module, secrets, uuid, the clock), or "
            "depends on set or dict iteration order, object ids or a module-level variable that "
            "outlives one game. Draw every random value from ctx.prng."
        )
        return "\n".join(lines)
    if len(first) != len(second):
        return (
            f"two playouts with the same seed, PRNG key and bots differ in length: the first took "
            f"{len(first) - 1} actions, the second {len(second) - 1}, with byte-identical states up to "
            "there: the game ends on something outside the state (the clock, a module-level variable)."
        )
    return None
