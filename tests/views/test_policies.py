"""Each visibility policy, on small models: what a player, another player and a spectator see."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, Field, ValidationError
from tabletop import GameDefinitionError, GameResult, GameState, Model, PlayerState, PrngState
from tabletop.views import (
    SPECTATOR,
    CountOnly,
    CustomVisibility,
    HostOnly,
    OrderOnly,
    Owner,
    OwnerOnly,
    Perspective,
    Public,
    Viewer,
    project,
    view_type,
)

Json = dict[str, object]


class Phase(StrEnum):
    PLAY = "Play"


class Card(Model):
    """A card."""

    rank: int
    """Its rank."""


class Pile(Model):
    """A sized pile of cards."""

    cards: list[Card] = Field(default_factory=list)
    """The cards."""

    def __len__(self) -> int:
        return len(self.cards)


class Hand(Model):
    """A hand inside a player state: its owner is the enclosing player."""

    cards: Annotated[list[Card], OwnerOnly()] = Field(default_factory=list)
    """The cards."""
    size: int = 0
    """How many cards, public."""


class Sealed(Model):
    """A sealed note naming its own owner."""

    author: Annotated[str, Owner()]
    """Who wrote it."""
    text: Annotated[str, OwnerOnly()]
    """What it says."""


class RevealedOnceOver(CustomVisibility):
    def visible_to(self, viewer: Viewer) -> bool:
        return viewer.is_owner or getattr(viewer.root, "result", None) is not None


class Seat(PlayerState):
    secret: Annotated[int, OwnerOnly()] = 0
    """Owner-only."""
    hand: Hand = Field(default_factory=Hand)
    """A nested model with an owner-only field."""
    pile: Annotated[Pile, CountOnly()] = Field(default_factory=Pile)
    """A count-only sized model."""
    by_name: Annotated[dict[str, int], CountOnly()] = Field(default_factory=dict)
    """A count-only dict."""
    stack: Annotated[list[Card], OrderOnly()] = Field(default_factory=list)
    """An order-only list."""
    goal: Annotated[int, RevealedOnceOver()] = 0
    """Custom: the owner, and everyone once the game is over."""
    shown: Annotated[int, Public()] = 0
    """Declared public."""


class Table(GameState[Seat, Phase]):
    deck: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """Count-only on the state: nobody owns it."""
    burned: Annotated[list[Card], OrderOnly()] = Field(default_factory=list)
    """Order-only on the state."""
    dealer_note: Annotated[str, HostOnly()] = ""
    """Host-only."""
    lost: Annotated[int, OwnerOnly()] = 0
    """Owner-only on the state: nobody owns it, so nobody sees it."""
    notes: dict[str, Sealed] = Field(default_factory=dict)
    """A dict of owner-marked models."""
    sealed: list[Sealed] = Field(default_factory=list)
    """A list of owner-marked models."""
    maybe: Sealed | None = None
    """An optional owner-marked model."""
    public_cards: list[Card] = Field(default_factory=list)
    """Public: untouched."""


def seat(player_id: str, base: int) -> Seat:
    return Seat(
        player_id=player_id,
        secret=base,
        hand=Hand(cards=[Card(rank=base + 1)], size=1),
        pile=Pile(cards=[Card(rank=base + 2), Card(rank=base + 3)]),
        by_name={"a": base + 4},
        stack=[Card(rank=base + 5), Card(rank=base + 6), Card(rank=base + 7)],
        goal=base + 8,
        shown=base + 9,
    )


@pytest.fixture
def table() -> Table:
    return Table(
        id="s",
        game_id="g",
        players=[seat("p1", 100), seat("p2", 200)],
        prng=PrngState(seed=4242, invocations=77),
        machine_state=Phase.PLAY,
        deck=[Card(rank=1), Card(rank=2)],
        burned=[Card(rank=3)],
        dealer_note="the deck is stacked",
        lost=9,
        notes={"x": Sealed(author="p1", text="one"), "y": Sealed(author="p2", text="two")},
        sealed=[Sealed(author="p2", text="three")],
        maybe=Sealed(author="p1", text="four"),
        public_cards=[Card(rank=5)],
    )


def view(table: Table, perspective: Perspective) -> Json:
    return project(table, perspective).model_dump(mode="json")


def players(data: Json) -> dict[str, Json]:
    seats = data["players"]
    assert isinstance(seats, list)
    return {entry["player_id"]: entry for entry in seats}


def test_owner_only_is_seen_by_the_owner_null_for_others_and_left_out_for_spectators(table: Table) -> None:
    assert players(view(table, "p1"))["p1"]["secret"] == 100
    assert players(view(table, "p1"))["p2"]["secret"] is None
    assert "secret" not in players(view(table, SPECTATOR))["p1"]


def test_owner_only_on_the_state_is_seen_by_nobody(table: Table) -> None:
    assert "lost" not in view(table, "p1")
    assert "lost" not in view(table, SPECTATOR)


def test_host_only_is_left_out_of_every_view(table: Table) -> None:
    for perspective in ("p1", "p2", SPECTATOR):
        data = view(table, perspective)
        assert "dealer_note" not in data and "prng" not in data


def test_a_nested_model_inherits_the_enclosing_player_as_owner(table: Table) -> None:
    mine = players(view(table, "p1"))
    assert mine["p1"]["hand"] == {"cards": [{"rank": 101}], "size": 1}
    assert mine["p2"]["hand"] == {"cards": None, "size": 1}
    assert players(view(table, SPECTATOR))["p2"]["hand"] == {"size": 1}


def test_count_only_shows_the_count_to_everyone_and_the_items_to_the_owner(table: Table) -> None:
    mine = players(view(table, "p1"))
    assert (mine["p1"]["pile"], mine["p1"]["pile_count"]) == ({"cards": [{"rank": 102}, {"rank": 103}]}, 2)
    assert (mine["p2"]["pile"], mine["p2"]["pile_count"]) == (None, 2)
    assert (mine["p1"]["by_name"], mine["p2"]["by_name"], mine["p2"]["by_name_count"]) == (
        {"a": 104},
        None,
        1,
    )
    spectator = players(view(table, SPECTATOR))["p1"]
    assert "pile" not in spectator and spectator["pile_count"] == 2


def test_count_only_on_the_state_becomes_a_count_alone(table: Table) -> None:
    for perspective in ("p1", SPECTATOR):
        data = view(table, perspective)
        assert "deck" not in data and data["deck_count"] == 2


def test_order_only_keeps_positions_and_hides_items(table: Table) -> None:
    mine = players(view(table, "p1"))
    assert mine["p1"]["stack"] == [{"rank": 105}, {"rank": 106}, {"rank": 107}]
    assert mine["p2"]["stack"] == [None, None, None]
    assert players(view(table, SPECTATOR))["p1"]["stack"] == [None, None, None]
    assert view(table, "p1")["burned"] == [None]


def test_a_custom_policy_decides_per_viewer(table: Table) -> None:
    assert [players(view(table, "p1"))[p]["goal"] for p in ("p1", "p2")] == [108, None]
    assert players(view(table, SPECTATOR))["p1"]["goal"] is None
    table.result = GameResult.DRAW
    assert [players(view(table, SPECTATOR))[p]["goal"] for p in ("p1", "p2")] == [108, 208]


def test_public_fields_and_models_that_hide_nothing_are_untouched(table: Table) -> None:
    data = view(table, "p2")
    assert players(data)["p1"]["shown"] == 109
    assert data["public_cards"] == [{"rank": 5}]
    annotation = view_type(Table).model_fields["public_cards"].annotation
    assert get_origin(annotation) is tuple  # a view holds tuples, and models that hide nothing
    twin = get_args(annotation)[0]  # become their frozen twins: same name, schema and JSON
    assert issubclass(twin, Card) and twin.__name__ == "Card" and twin.model_config.get("frozen")
    assert twin.model_json_schema() == Card.model_json_schema()


def test_owner_marked_models_in_dicts_lists_and_optionals(table: Table) -> None:
    data = view(table, "p1")
    assert data["notes"] == {"x": {"author": "p1", "text": "one"}, "y": {"author": "p2", "text": None}}
    assert data["sealed"] == [{"author": "p2", "text": None}]
    assert data["maybe"] == {"author": "p1", "text": "four"}
    assert view(table, "p2")["maybe"] == {"author": "p1", "text": None}
    table.maybe = None
    assert view(table, "p1")["maybe"] is None
    assert view(table, SPECTATOR)["notes"] == {"x": {"author": "p1"}, "y": {"author": "p2"}}


def test_view_types_are_derived_once_closed_and_described(table: Table) -> None:
    player_view = view_type(Table)
    assert view_type(Table) is player_view
    assert view_type(Table, spectator=True) is not player_view
    assert (player_view.__name__, view_type(Table, spectator=True).__name__) == (
        "TablePlayerView",
        "TableSpectatorView",
    )
    assert player_view.model_config["extra"] == "forbid"
    fields = player_view.model_fields
    assert "prng" not in fields and "dealer_note" not in fields
    assert (
        fields["deck_count"].description == "How many items `deck` holds (count-only: which items is hidden)."
    )
    assert fields["public_cards"].description == "Public: untouched."
    assert fields["burned"].description == (
        "Order-only on the state. Only the positions show: every item is null (order-only)."
    )
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        player_view.model_validate({**project(table, "p1").model_dump(), "surprise": 1})


def test_projecting_never_aliases_the_state(table: Table) -> None:
    projected = project(table, "p1")
    table.players[0].hand.cards.append(Card(rank=1))
    table.public_cards.clear()
    assert projected.model_dump(mode="json")["public_cards"] == [{"rank": 5}]
    assert players(projected.model_dump(mode="json"))["p1"]["hand"] == {"cards": [{"rank": 101}], "size": 1}


def test_a_stranger_is_not_a_perspective(table: Table) -> None:
    with pytest.raises(ValueError, match="not a player"):
        project(table, "p9")


def test_a_policy_class_counts_like_an_instance() -> None:
    class Loose(Model):
        kept: Annotated[int, HostOnly] = 1  # the class, not an instance
        """Host-only."""

    class LooseState(GameState[PlayerState, Phase]):
        loose: Loose = Field(default_factory=Loose)
        """Holds it."""

    fields = view_type(LooseState).model_fields["loose"].annotation
    assert isinstance(fields, type) and issubclass(fields, BaseModel)
    assert "kept" not in fields.model_fields


class _OrderOnInt(Model):
    value: Annotated[int, OrderOnly()] = 0
    """Not a list."""


class _CountOnInt(Model):
    value: Annotated[int, CountOnly()] = 0
    """Not sized."""


class _Clash(Model):
    items: Annotated[list[int], CountOnly()] = Field(default_factory=list)
    """Count-only."""
    items_count: int = 0
    """Already taken."""


class _TwoPolicies(Model):
    value: Annotated[int, HostOnly(), OwnerOnly()] = 0
    """Two policies."""


class _TwoOwners(Model):
    a: Annotated[str, Owner()] = ""
    """One owner."""
    b: Annotated[str, Owner()] = ""
    """Another."""
    secret: Annotated[int, OwnerOnly()] = 0
    """Owner-only."""


class _PolicyOnItems(Model):
    values: list[Annotated[int, OwnerOnly()]] = Field(default_factory=list)
    """A policy inside the type: refused rather than ignored."""


@pytest.mark.parametrize(
    ("model", "problem"),
    [
        (_PolicyOnItems, "applies to a whole field, not inside it"),
        (_OrderOnInt, "order-only but is not a list"),
        (_CountOnInt, "count-only but is not a list, a dict or a sized model"),
        (_Clash, "'items_count' is already a field"),
        (_TwoPolicies, "several visibility policies"),
        (_TwoOwners, "several fields are marked Owner"),
    ],
)
def test_declarations_that_cannot_be_honoured_are_definition_errors(model: type[Model], problem: str) -> None:
    class Holder(GameState[PlayerState, Phase]):
        held: model | None = None  # type: ignore[valid-type]
        """Holds the broken model."""

    with pytest.raises(GameDefinitionError, match=problem):
        view_type(Holder)


class SealedLot(Model):
    """One kind of lot: its bids are sealed notes."""

    kind: Literal["sealed"] = "sealed"
    """The tag."""
    bids: list[Sealed] = Field(default_factory=list)
    """Owner-marked bids."""


class OpenLot(Model):
    """Another kind of lot: nothing hidden."""

    kind: Literal["open"] = "open"
    """The tag."""
    high: int = 0
    """The high bid."""


class Auctions(GameState[Seat, Phase]):
    lot: Annotated[SealedLot | OpenLot, Field(discriminator="kind")] | None = None
    """An optional discriminated union (a union inside a union) whose sealed member hides fields."""


@pytest.mark.parametrize("lot", [SealedLot(bids=[Sealed(author="p1", text="7")]), OpenLot(high=3), None])
def test_an_optional_discriminated_union_is_projected_by_the_values_member(
    lot: SealedLot | OpenLot | None,
) -> None:
    state = Auctions(
        id="s",
        game_id="g",
        players=[seat("p1", 1), seat("p2", 2)],
        prng=PrngState(seed=1),
        machine_state=Phase.PLAY,
        lot=lot,
    )
    mine, theirs = (
        project(state, perspective).model_dump(mode="json")["lot"] for perspective in ("p1", "p2")
    )
    if isinstance(lot, SealedLot):
        assert (mine["bids"][0]["text"], theirs["bids"][0]["text"]) == ("7", None)
        assert "text" not in project(state, SPECTATOR).model_dump(mode="json")["lot"]["bids"][0]
    else:
        assert mine == theirs == (None if lot is None else lot.model_dump(mode="json"))
    validated = view_type(Auctions).model_validate(project(state, "p2").model_dump(mode="json"))
    assert validated.model_dump(mode="json") == project(state, "p2").model_dump(mode="json")
