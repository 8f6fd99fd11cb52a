"""LeakChecker: one subject, many views, the same answers as find_leaks for each of them."""

from __future__ import annotations

import json

import pytest
from tabletop import GameAction
from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, LeakChecker, Perspective, find_leaks, project, project_action
from tabletop_fixtures.sealed_bids import HydratedBid, SealedBidsConfig, SealedBidsState, make_definition

Harness = GameHarness[SealedBidsState, SealedBidsConfig]
PERSPECTIVES: list[Perspective] = ["p1", "p2", "p3", SPECTATOR]


@pytest.fixture
def harness() -> Harness:
    harness: Harness = GameHarness(make_definition(), players=3, seed=2024)
    for player_id in ("p1", "p2", "p3"):  # a whole round: bids, the reveal, the draws
        harness.run(harness.action(HydratedBid, player_id, card=harness.state.player(player_id).hand[0]))
    harness.run(harness.action(HydratedBid, "p2", card=harness.state.player("p2").hand[0]))
    return harness


def planted(harness: Harness, perspective: Perspective) -> str:
    """``perspective``'s view with p2's cards, the deck's top card and the seed written into it."""
    state = harness.state
    data = project(state, perspective).model_dump(mode="json")
    data["last_bids"]["x"] = state.deck[-1].model_dump(mode="json")
    data["players"][0]["won"] = [card.model_dump(mode="json") for card in state.player("p2").hand]
    data["players"][0]["score"] = state.prng.seed
    return json.dumps(data)


def test_one_checker_answers_every_perspective_as_find_leaks_does(harness: Harness) -> None:
    state = harness.state
    checker = LeakChecker(state)
    for perspective in PERSPECTIVES:
        honest = project(state, perspective).model_dump_json()
        assert checker.find(honest, perspective) == find_leaks(state, honest, perspective) == []
        leaky = planted(harness, perspective)
        found = checker.find(leaky, perspective)
        assert found == find_leaks(state, leaky, perspective)
        assert any(leak.startswith("prng") for leak in found), found
        assert any(leak.startswith("deck") for leak in found), found
        assert any(leak.startswith("players[1].hand") for leak in found) is (perspective != "p2"), found


def test_a_checker_of_an_action_redacts_per_perspective(harness: Harness) -> None:
    bid: GameAction = harness.log[-1]
    assert bid.type == "Bid"
    checker = LeakChecker(bid)
    owners = project_action(bid, "p2").model_dump_json()
    assert checker.find(owners, "p2") == []
    for perspective in ("p1", "p3", SPECTATOR):
        assert checker.find(project_action(bid, perspective), perspective) == []
        leaks = checker.find(owners, perspective)
        assert leaks == find_leaks(bid, owners, perspective)
        assert any(leak.startswith("card") for leak in leaks), leaks
