"""A discriminated union whose members hide fields goes through the compiled projector, and its
views equal the reference projection's (an undiscriminated one keeps the reference path)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

import orjson
import pytest
from pydantic import Field
from tabletop import GameState, Model, PlayerState, PrngState, dump_json
from tabletop._copier import copier
from tabletop.components import RoundManager
from tabletop.games import load
from tabletop.views import SPECTATOR, Owner, OwnerOnly, Perspective, project, project_seats
from tabletop.views._projection import project_reference, state_plan
from tabletop.views._projector import projector
from tabletop_fixtures.aliasing import mutable_parts
from tabletop_fixtures.models import model_classes


class Phase(StrEnum):
    PLAY = "Play"


class Note(Model):
    """A sealed note naming its own owner."""

    author: Annotated[str, Owner()]
    """Who wrote it."""
    text: Annotated[str, OwnerOnly()]
    """What it says."""


class SealedLot(Model):
    """A lot whose bids are sealed notes."""

    kind: Literal["sealed"] = "sealed"
    """The tag."""
    bids: list[Note] = Field(default_factory=list)
    """Owner-marked bids."""


class OpenLot(Model):
    """A lot hiding nothing."""

    kind: Literal["open"] = "open"
    """The tag."""
    high: int = 0
    """The high bid."""
    bidders: list[str] = Field(default_factory=list)
    """Who bid (a mutable part the views must not share)."""


class Seat(PlayerState):
    secret: Annotated[int, OwnerOnly()] = 0
    """Owner-only."""


class Discriminated(GameState[Seat, Phase]):
    lot: Annotated[SealedLot | OpenLot, Field(discriminator="kind")] | None = None
    """An optional discriminated union whose sealed member hides fields."""


class Undiscriminated(GameState[Seat, Phase]):
    lot: SealedLot | OpenLot | None = None
    """The same union without a discriminator: pydantic's smart mode picks the member."""


LOTS: list[SealedLot | OpenLot | None] = [
    SealedLot(bids=[Note(author="p1", text="7"), Note(author="p2", text="9")]),
    OpenLot(high=3, bidders=["p1"]),
    None,
]


def _state(cls: type[Discriminated] | type[Undiscriminated], lot: SealedLot | OpenLot | None) -> GameState:  # type: ignore[type-arg]
    return cls(
        id="s",
        game_id="g",
        players=[Seat(player_id="p1", secret=1), Seat(player_id="p2", secret=2)],
        prng=PrngState(seed=1),
        machine_state=Phase.PLAY,
        lot=lot,
    )


def test_a_discriminated_union_that_hides_fields_is_compiled() -> None:
    for spectator in (False, True):
        assert projector(state_plan(Discriminated, spectator=spectator)) is not None


def test_an_undiscriminated_union_that_hides_fields_keeps_the_reference_path() -> None:
    assert projector(state_plan(Undiscriminated, spectator=False)) is None


def test_gallery_projects_through_its_compiled_projector() -> None:
    state_type = load("gallery").state_type
    for spectator in (False, True):
        assert projector(state_plan(state_type, spectator=spectator)) is not None


@pytest.mark.parametrize("cls", [Discriminated, Undiscriminated])
@pytest.mark.parametrize("lot", LOTS)
def test_union_views_equal_the_reference_projection(
    cls: type[Discriminated] | type[Undiscriminated], lot: SealedLot | OpenLot | None
) -> None:
    state = _state(cls, lot)
    perspectives: list[Perspective] = ["p1", "p2", SPECTATOR]
    seats = project_seats(state, perspectives)
    for perspective in perspectives:
        expected = project_reference(state, perspective)
        for got in (project(state, perspective), seats[perspective]):
            assert got == expected
            assert model_classes(got) == model_classes(expected)
            assert dump_json(got) == orjson.dumps(expected.model_dump(mode="json"))
            assert not mutable_parts(got) & mutable_parts(state)
    parts = [mutable_parts(view) for view in seats.values()]
    for index, mine in enumerate(parts):
        for theirs in parts[index + 1 :]:
            assert not mine & theirs  # no seat's view shares a mutable part with another's


def test_a_round_manager_is_copied_structurally_not_validated() -> None:
    rounds = RoundManager(max_rounds=3, round_count=1)
    copy = copier(RoundManager)
    assert getattr(copy, "__name__", "") == "copy"  # the compiled copier, not the validating fallback
    copied = copy(rounds)
    assert copied == RoundManager.model_validate(rounds.model_dump())
    assert copied.past_rounds is not rounds.past_rounds
