"""``fill_hidden``: a determinizer's structural copy of a view, with the hidden values it is given.

The sealed-bids fixture declares every kind of visibility: count-only hands and deck, an
owner-only optional bid, a custom policy (a target shown at the end), an ``Owner`` field in a
dict of notes, order-only burned cards and a host-only tie-break suit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from pydantic import BaseModel
from tabletop import GameEngine, PrngState
from tabletop.bots import Fill, RandomBot, fill_hidden, playout
from tabletop.testing import make_game
from tabletop.views import SPECTATOR, Perspective, project
from tabletop_fixtures.aliasing import mutable_parts
from tabletop_fixtures.sealed_bids import HydratedSealedBidsState, make_definition

PERSPECTIVES: list[Perspective] = ["p1", "p2", "p3", SPECTATOR]


def _states(seed: int) -> Iterator[HydratedSealedBidsState]:
    definition = make_definition()
    engine = GameEngine(definition)
    game = make_game(definition, players=3, seed=seed)
    for result in playout(engine, game, RandomBot(engine, seed)):
        assert isinstance(result.state, HydratedSealedBidsState)
        yield result.state


def _real(state: HydratedSealedBidsState, calls: list[tuple[str, str]]) -> Fill:
    """A fill that answers with the real state's values, recording what it was asked."""

    def fill(part: BaseModel, name: str) -> object:
        fields = part.model_dump()
        if "player_id" in fields:
            calls.append((fields["player_id"], name))
            return getattr(state.player(fields["player_id"]), name)
        if "author" in fields:
            calls.append((fields["author"], name))
            note = next(note for note in state.notes.values() if note.author == fields["author"])
            return getattr(note, name)
        calls.append(("state", name))
        return getattr(state, name)

    return fill


@pytest.mark.parametrize("seed", [1, 2])
def test_filled_with_the_real_values_the_view_gives_back_the_state(seed: int) -> None:
    for state in _states(seed):
        for perspective in PERSPECTIVES:
            view = project(state, perspective)
            world = fill_hidden(view, HydratedSealedBidsState, _real(state, []), random.Random(seed))
            assert type(world) is HydratedSealedBidsState
            assert project(world, perspective) == view
            assert world.model_copy(update={"prng": state.prng}) == state  # all but the PRNG
            assert world.prng == PrngState(seed=random.Random(seed).getrandbits(32))


def test_fill_is_asked_only_for_what_the_view_does_not_show() -> None:
    state = next(s for s in _states(3) if s.player("p1").bid is not None and s.player("p3").bid is None)
    calls: list[tuple[str, str]] = []
    fill_hidden(project(state, "p3"), HydratedSealedBidsState, _real(state, calls), random.Random(1))
    assert sorted(calls) == sorted(
        [
            ("p3", "bid"),  # p3's own bid is null: the real value is None, fill says so
            *[(pid, name) for pid in ("p1", "p2") for name in ("hand", "bid", "target")],
            *[(pid, "text") for pid in ("p1", "p2") if pid in {n.author for n in state.notes.values()}],
            ("state", "deck"),
            ("state", "burned"),
            ("state", "tie_break"),
        ]
    )
    spectator: list[tuple[str, str]] = []
    fill_hidden(project(state, SPECTATOR), HydratedSealedBidsState, _real(state, spectator), random.Random(1))
    assert {(pid, "hand") for pid in ("p1", "p2", "p3")} <= set(spectator)
    assert ("p3", "bid") in spectator and ("state", "tie_break") in spectator


def test_the_result_shares_nothing_mutable_with_the_view_or_the_fill() -> None:
    state = next(s for s in _states(4) if s.deck and s.player("p1").won)
    view = project(state, "p1")
    before = view.model_dump_json()
    answers: list[object] = []

    def fill(part: BaseModel, name: str) -> object:
        answer = _real(state, [])(part, name)
        answers.append(answer)
        return answer

    world = fill_hidden(view, HydratedSealedBidsState, fill, random.Random(1))
    assert not mutable_parts(world) & (mutable_parts(view) | mutable_parts(answers))
    assert view.model_dump_json() == before  # the view was not changed
    world.player("p1").hand.clear()
    world.player("p1").won.append(world.deck.pop())
    world.player("p2").score += 5
    world.notes.clear()
    world.active_player_ids.append("p9")
    assert view.model_dump_json() == before  # nor is it by changing the result
    assert (
        state.deck and fill_hidden(view, HydratedSealedBidsState, _real(state, []), random.Random(1)) != world
    )


def test_randomness_comes_from_rng_only() -> None:
    state = next(s for s in _states(5) if s.deck)
    view = project(state, "p2")
    worlds = []
    for seed in (1, 2):
        random.seed(seed)  # the module's generator is not used
        worlds.append(fill_hidden(view, HydratedSealedBidsState, _real(state, []), random.Random(7)))
    assert worlds[0].model_dump_json() == worlds[1].model_dump_json()
    other = fill_hidden(view, HydratedSealedBidsState, _real(state, []), random.Random(8))
    assert other.prng != worlds[0].prng


def test_a_view_of_another_state_type_is_refused() -> None:
    state = next(_states(1))
    with pytest.raises(ValueError, match="not a view of a HydratedSealedBidsState"):
        fill_hidden(state, HydratedSealedBidsState, _real(state, []), random.Random(1))
