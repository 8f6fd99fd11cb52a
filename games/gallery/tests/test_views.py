"""What each seat sees: its own hand and money, others' hand sizes; sealed bids only after the reveal."""

from collections.abc import Callable

from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, LeakChecker, Perspective, project, project_action
from tabletop_gallery.actions.play_painting import HydratedPlayPainting
from tabletop_gallery.actions.seal_bid import HydratedSealBid
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import HydratedGalleryGameState

Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
Rig = Callable[..., HydratedGalleryGameState]


def test_a_player_sees_their_own_hand_and_money_and_only_counts_of_the_others(
    harness: Harness, rig: Rig
) -> None:
    rig(harness, money={"p1": 71, "p2": 129})
    view = project(harness.state, "p1").model_dump(mode="json")
    mine, theirs = view["players"][0], view["players"][1]
    assert mine["money"] == 71 and len(mine["hand"]) == 10
    assert (theirs["money"], theirs["hand"], theirs["hand_count"]) == (None, None, 10)
    assert view["deck_count"] == 40 and "deck" not in view
    assert "prng" not in view
    assert LeakChecker(harness.state).find(project(harness.state, "p1"), "p1") == []


def test_a_spectator_sees_no_hand_and_no_money(harness: Harness) -> None:
    view = project(harness.state, SPECTATOR).model_dump(mode="json")
    for seat in view["players"]:
        assert "money" not in seat and "hand" not in seat and seat["hand_count"] == 10


def test_a_sealed_bid_is_the_bidders_alone_until_the_reveal(harness: Harness, rig: Rig) -> None:
    rig(harness, hands={"p1": [3]})
    harness.play(harness.action(HydratedPlayPainting, "p1", painting_id=3))
    result = harness.run(harness.action(HydratedSealBid, "p2", amount=23))
    (sealed,) = result.actions
    assert project_action(sealed, "p2").model_dump(mode="json")["amount"] == 23
    assert project_action(sealed, "p3").model_dump(mode="json")["amount"] is None
    seats: list[Perspective] = ["p1", "p3", SPECTATOR]
    for seat in seats:
        text = project(harness.state, seat).model_dump_json()
        assert LeakChecker(harness.state).find(text, seat) == []
