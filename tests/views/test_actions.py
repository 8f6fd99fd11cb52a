"""Projecting actions and action logs: payload and metadata fields the viewer may not see."""

from __future__ import annotations

from typing import Annotated, Literal, assert_type

import pytest
from tabletop import GameAction, Hydrated, Model
from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, OwnerOnly, Perspective, action_view_type, project_action, project_log
from tabletop_fixtures.sealed_bids import (
    Bid,
    Draw,
    HydratedBid,
    HydratedDraw,
    Reveal,
    SealedBidsConfig,
    SealedBidsState,
    make_definition,
)

Harness = GameHarness[SealedBidsState, SealedBidsConfig]


@pytest.fixture(scope="module")
def round_played() -> Harness:
    """Three players bid once each: three bids, the reveal, three draws."""
    harness: Harness = GameHarness(make_definition(), players=3, seed=13)
    for player_id in ("p1", "p2", "p3"):
        card = harness.state.player(player_id).hand[0]
        harness.play(harness.action(HydratedBid, player_id, card=card))
    assert [action.type for action in harness.log] == ["Bid"] * 3 + ["Reveal"] + ["Draw"] * 3
    return harness


def logged(harness: Harness, index: int) -> GameAction:
    return harness.log[index]


def test_a_secret_payload_is_seen_by_the_acting_player_only(round_played: Harness) -> None:
    bid = logged(round_played, 0)
    assert isinstance(bid, Bid)
    mine = project_action(bid, "p1").model_dump(mode="json")
    assert mine["card"] == bid.card.model_dump(mode="json")
    for perspective in ("p2", SPECTATOR):
        theirs = project_action(bid, perspective).model_dump(mode="json")
        assert theirs["card"] is None
        assert {k: v for k, v in theirs.items() if k != "card"} == {
            k: v for k, v in mine.items() if k != "card"
        }


@pytest.mark.parametrize("perspective", ["p1", "p2", "p3", SPECTATOR])
def test_a_drawn_card_is_seen_by_the_drawer_named_by_the_owner_field(
    round_played: Harness, perspective: Perspective
) -> None:
    for index in range(4, 7):
        draw = logged(round_played, index)
        assert isinstance(draw, Draw) and draw.metadata is not None
        projected = project_action(draw, perspective).model_dump(mode="json")
        expected = draw.metadata.card.model_dump(mode="json") if draw.drawer == perspective else None
        assert projected["metadata"] == {"card": expected}
        assert projected["drawer"] == draw.drawer


def test_an_action_hiding_nothing_is_returned_as_its_plain_model(round_played: Harness) -> None:
    reveal = logged(round_played, 3)
    projected = project_action(reveal, "p2")
    assert type(projected) is Reveal
    assert not isinstance(projected, Hydrated)
    assert isinstance(reveal, Hydrated)
    assert projected == reveal.dehydrate()


def test_the_log_a_player_receives_is_made_of_projected_actions(round_played: Harness) -> None:
    log = project_log(round_played.log, "p2")
    assert [action.type for action in log] == [action.type for action in round_played.log]
    assert [action.index for action in log] == list(range(7))
    bids = [action.model_dump(mode="json")["card"] for action in log[:3]]
    assert [card is not None for card in bids] == [False, True, False]
    assert all(not isinstance(action, Hydrated) for action in log)


def test_action_view_types() -> None:
    assert action_view_type(HydratedBid).__name__ == "BidActionView"
    assert action_view_type(Bid) is action_view_type(HydratedBid)
    assert action_view_type(Reveal) is Reveal
    assert issubclass(action_view_type(Draw), GameAction)
    fields = action_view_type(Bid).model_fields
    assert fields["card"].is_required() is False
    assert (
        fields["card"].description
        == "The card bid: secret to the bidder. Null unless the viewer owns it (owner-only)."
    )


class Peek(GameAction):
    type: Literal["Peek"] = "Peek"
    """Tag."""
    seen: Annotated[int, OwnerOnly()]
    """What was seen."""


class Hint(Model):
    """What a hint revealed."""

    about: Annotated[str, OwnerOnly()]
    """Secret."""
    public: str
    """Not secret."""


class Hinted(GameAction):
    type: Literal["Hinted"] = "Hinted"
    """Tag."""
    metadata: Hint | None = None
    """The hint."""


def test_an_owner_only_field_of_an_action_without_a_player_is_hidden_from_everyone() -> None:
    peek = Peek(id="a", game_id="g", seen=3)
    assert project_action(peek, "p1").model_dump()["seen"] is None
    assert project_action(peek.model_copy(update={"player_id": "p1"}), "p1").model_dump()["seen"] == 3


def test_metadata_fields_are_owned_by_the_acting_player() -> None:
    hinted = Hinted(id="a", game_id="g", player_id="p2", metadata=Hint(about="the ace", public="a hint"))
    assert project_action(hinted, "p2").model_dump()["metadata"] == {"about": "the ace", "public": "a hint"}
    assert project_action(hinted, "p1").model_dump()["metadata"] == {"about": None, "public": "a hint"}
    empty = Hinted(id="b", game_id="g", player_id="p2")
    assert project_action(empty, "p1").model_dump()["metadata"] is None


def test_projected_actions_keep_the_games_action_types(round_played: Harness) -> None:
    """``project_action``/``project_log`` are typed as the action: ``.metadata.<field>`` type-checks."""
    draw = round_played.recorded(HydratedDraw)[0]
    assert draw.metadata is not None
    seen = project_action(draw, draw.drawer)
    assert_type(seen, HydratedDraw)  # checked by mypy --strict (make typecheck)
    assert seen.metadata is not None and seen.metadata.card == draw.metadata.card
    other = next(player.player_id for player in round_played.state.players if player.player_id != draw.drawer)
    hidden = project_action(draw, other)
    # typed as the action's (a Card), but null for this viewer: what the viewer may not see is None
    assert hidden.model_dump()["metadata"]["card"] is None
    assert type(hidden) is action_view_type(Draw)
    logged_draws = project_log(round_played.recorded(HydratedDraw), other)
    assert_type(logged_draws, list[HydratedDraw])
    assert [action.drawer for action in logged_draws] == [
        action.drawer for action in round_played.recorded(HydratedDraw)
    ]
