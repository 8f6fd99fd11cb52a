"""A generated corpus of client payloads per game: mutated legal actions and random JSON.

States come from seeded random playouts; each payload is drawn by hypothesis against one of them:
a legal action of that state as a request body (as is, or mutated: wrong types, extra and
missing fields, huge integers, floats, booleans, long strings, lone surrogates, nested junk,
oversized bodies, broken JSON) or random JSON.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cache

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from tabletop import AnyState, GameConfig
from tabletop._request import DEFAULT_MAX_PAYLOAD_BYTES, MAX_INTEGER, MAX_STRING_LENGTH, request_model
from tabletop.games import available, load
from tabletop.testing import GameHarness

Harness = GameHarness[AnyState, GameConfig]

HUGE = 10**5000
"""Too long for Python to print (over 4,300 digits)."""
_HUGE_TEXT = {HUGE: "1" + "0" * 5000, -HUGE: "-1" + "0" * 5000}
ENGINE_FIELDS = ("source", "reveals_info", "created_at", "metadata")
SURROGATES = ("\ud800", "a\udfffb", "\ud83d", "x" * 10 + "\udc00")
OVERSIZED = DEFAULT_MAX_PAYLOAD_BYTES + 1


def to_json(value: object) -> bytes:
    """``value`` as JSON text (ASCII; lone surrogates escaped; 10**5000 written out)."""
    return _encode(value).encode("ascii")


def _encode(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{_encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_encode(item) for item in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value in _HUGE_TEXT:
        return _HUGE_TEXT[value]
    return json.dumps(value)


@dataclass(frozen=True)
class Payload:
    """One client payload: the wire body, and the decoded value when the body is JSON."""

    state: int
    kind: str
    body: bytes
    value: object = None
    has_value: bool = False


@dataclass
class GameCorpus:
    """A game's states (from seeded random playouts) and the payloads drawn against them."""

    name: str
    harness: Harness
    states: list[AnyState]
    payloads: list[Payload] = field(default_factory=list)


def _requests(harness: Harness, state: AnyState) -> list[dict[str, object]]:
    engine, game = harness.engine, harness.game
    requests = []
    for player_id in state.active_player_ids:
        for n, candidate in enumerate(engine.legal_actions(state, player_id, game)[:12]):
            body = candidate.model_dump(mode="json", include=set(request_model(type(candidate)).model_fields))
            body["id"] = f"fuzz-{state.action_count}-{player_id}-{n}"
            requests.append(body)
    return requests


def _states(name: str, playouts: int, per_playout: int) -> tuple[Harness, list[AnyState]]:
    definition = load(name)
    players = min(max(2, definition.min_players), definition.max_players)
    harness: Harness = GameHarness(definition, players=players, seed=11)
    engine, game = harness.engine, harness.game
    states: list[AnyState] = []
    for seed in range(playouts):
        rng = random.Random(seed)
        played = [harness.state]
        state = harness.state
        for step in range(400):
            if state.result is not None:
                break
            options = [a for p in state.active_player_ids for a in engine.legal_actions(state, p, game)]
            if not options:
                break
            action = rng.choice(options).model_copy(update={"id": f"play-{seed}-{step}"})
            state = engine.run(action, state, game).state
            played.append(state)
        stride = max(1, len(played) // per_playout)
        states += [*played[::stride][:per_playout], played[-1]]
    return harness, states


def _junk(example: dict[str, object]) -> st.SearchStrategy[object]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([-1, 0, MAX_INTEGER, MAX_INTEGER + 1, -MAX_INTEGER - 1, 2**63, 10**100]),
        st.sampled_from([1, -1]).map(lambda sign: sign * HUGE),  # mapped: hypothesis never prints it
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(-10, 10).map(float),
        st.integers(-10, 100).map(str),
        st.text(max_size=12),
        st.integers(MAX_STRING_LENGTH - 1, MAX_STRING_LENGTH + 2).map(lambda n: "x" * n),
        st.just("y" * 10_000),
        st.sampled_from(SURROGATES),
        st.sampled_from([str(v) for v in example.values()]),
        st.sampled_from(
            [str(v).lower() for v in example.values()] + [str(v).upper() for v in example.values()]
        ),
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=6,
    )


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


def _payload(
    draw: st.DrawFn, corpus: GameCorpus, pools: list[list[dict[str, object]]], tags: list[str]
) -> Payload:
    index = draw(st.integers(0, len(corpus.states) - 1))
    pool = pools[index] or [request for requests in pools for request in requests]
    base = dict(draw(st.sampled_from(pool)))
    kind = draw(
        st.sampled_from(
            [
                "legal",
                "pinned",
                "set",
                "set",
                "drop",
                "extra",
                "engine-field",
                "tag",
                "json",
                "bytes",
                "oversized",
            ]
        )
    )
    value: object = base
    if kind == "pinned":
        base["index"] = corpus.states[index].action_count
    elif kind == "set":
        base[draw(st.sampled_from(sorted(base)))] = draw(_junk(base))
    elif kind == "drop":
        del base[draw(st.sampled_from(sorted(base)))]
    elif kind == "extra":
        base[draw(st.text(min_size=1, max_size=90))] = draw(_junk(base))
    elif kind == "engine-field":
        base[draw(st.sampled_from(ENGINE_FIELDS))] = draw(
            st.sampled_from([None, "user", "system", True, False, "2024-05-01T12:00:00Z", {}])
        )
    elif kind == "tag":
        base["type"] = draw(
            st.sampled_from(tags)
            | st.sampled_from([t.lower() for t in tags])
            | st.text(max_size=100)
            | st.sampled_from(SURROGATES)
            | _junk(base)
        )
    elif kind == "json":
        value = draw(_JSON)
    elif kind == "bytes":
        raw = draw(
            st.binary(max_size=64) | st.sampled_from([to_json(base)[:-1], b"", b"{", b"[1,", b"\xff\xfe"])
        )
        return Payload(index, kind, raw)
    elif kind == "oversized":
        if draw(st.booleans()):
            return Payload(index, "oversized", to_json(base) + b" " * OVERSIZED)  # valid JSON, too long
        base["id"] = "z" * OVERSIZED
    return Payload(index, kind, to_json(value), value, has_value=True)


@cache
def corpus(name: str, size: int) -> GameCorpus:
    """``size`` payloads for game ``name``, reproducibly (derandomized hypothesis)."""
    harness, states = _states(name, playouts=3, per_playout=8)
    built = GameCorpus(name, harness, states)
    pools = [_requests(harness, state) for state in states]
    definition = harness.definition
    tags = sorted(
        {*definition.action_by_type, *(t for other in available() for t in load(other).action_by_type)}
    )

    @st.composite
    def payloads(draw: st.DrawFn) -> Payload:
        return _payload(draw, built, pools, tags)  # a closure: hypothesis never prints the states

    @settings(
        max_examples=size,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(payloads())
    def collect(payload: Payload) -> None:
        built.payloads.append(payload)

    collect()
    return built
