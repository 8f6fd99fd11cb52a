"""The determinizer: worlds a seat cannot tell from the real one, with hands and money re-sampled."""

import random
from collections.abc import Callable

import pytest
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop.views import SPECTATOR, project
from tabletop_gallery import definition
from tabletop_gallery.actions.bid import HydratedBid
from tabletop_gallery.actions.play_painting import HydratedPlayPainting
from tabletop_gallery.actions.seal_bid import HydratedSealBid
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.determinizer import determinize
from tabletop_gallery.model.game_state import HydratedGalleryGameState
from tabletop_gallery.model.invariants import invariants

Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
Rig = Callable[..., HydratedGalleryGameState]


def _states(players: int, seed: int) -> list[HydratedGalleryGameState]:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    results = playout(engine, game, RandomBot(engine, seed), max_actions=400, prng_key=TEST_PRNG_KEY)
    return [result.state for result in results][::7]


@pytest.mark.parametrize("players", [3, 5])
def test_worlds_look_the_same_to_the_seat_and_keep_every_invariant(players: int) -> None:
    rng = random.Random(players)
    for state in _states(players, seed=players):
        for seat in [*(player.player_id for player in state.players), None]:
            perspective = SPECTATOR if seat is None else seat
            view = project(state, perspective)
            world = determinize(view, seat, rng)
            assert project(world, perspective).model_dump() == view.model_dump()
            assert list(invariants(world)) == []
            assert world.prng.seed != state.prng.seed or world.prng.invocations == 0


def test_others_hands_and_money_are_resampled_and_the_seats_own_kept(harness: Harness, rig: Rig) -> None:
    rig(harness, money={"p1": 60, "p2": 150, "p3": 90})
    view = project(harness.state, "p1")
    hands, monies = set(), set()
    for seed in range(20):
        world = determinize(view, "p1", random.Random(seed))
        assert world.player("p1").hand == harness.state.player("p1").hand
        assert world.player("p1").money == 60
        assert world.player("p2").money + world.player("p3").money == 240  # the public total less p1's
        hands.add(tuple(p.id for p in world.player("p2").hand))
        monies.add(world.player("p2").money)
    assert len(hands) > 10 and len(monies) > 10


def test_money_never_falls_below_what_the_running_auction_shows(harness: Harness, rig: Rig) -> None:
    rig(harness, hands={"p1": [1]}, money={"p1": 100, "p2": 100, "p3": 5})
    harness.play(harness.action(HydratedPlayPainting, "p1", painting_id=1))
    harness.play(harness.action(HydratedBid, "p2", amount=90))
    view = project(harness.state, "p1")
    for seed in range(30):
        world = determinize(view, "p1", random.Random(seed))
        assert world.player("p2").money >= 90
        assert world.player("p2").money + world.player("p3").money == 105


def test_hidden_sealed_bids_are_sampled_within_their_bidders_money(harness: Harness, rig: Rig) -> None:
    rig(harness, hands={"p1": [3]})
    harness.play(harness.action(HydratedPlayPainting, "p1", painting_id=3))
    harness.play(harness.action(HydratedSealBid, "p2", amount=40))
    view = project(harness.state, "p1")
    for seed in range(10):
        world = determinize(view, "p1", random.Random(seed))
        (bid,) = world.current_auction().bids  # type: ignore[union-attr]
        assert bid.participant_id == "p2" and 0 <= bid.amount <= world.player("p2").money


def test_a_view_of_another_seat_is_refused(harness: Harness) -> None:
    with pytest.raises(ValueError, match="view"):
        determinize(project(harness.state, "p2"), "p1", random.Random(1))
    with pytest.raises(ValueError, match="view"):
        determinize(harness.state, "p1", random.Random(1))
