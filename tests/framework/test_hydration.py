"""Hydration: plain data in, validated objects with behaviour out, and back, without aliasing."""

import orjson
import pytest
from pydantic import ValidationError
from tabletop import Hydrated, Model, hydrate
from tabletop.components import HydratedRoundManager, Round, RoundManager
from tabletop_fixtures.counter import CounterState, make_definition


class Stats(Model):
    wins: int = 0
    """Games won."""
    tags: list[str] = []
    """Free-form labels."""


class HydratedStats(Stats, Hydrated[Stats]):
    def win(self) -> None:
        self.wins += 1


class Team(Model):
    name: str
    """Team name."""
    members: list[Stats]
    """One entry per member."""
    captain: Stats | None = None
    """The captain's stats, if any."""
    by_name: dict[str, Stats] = {}
    """Stats keyed by member name."""
    manager: RoundManager = RoundManager()
    """The rounds played."""


class HydratedTeam(Team, Hydrated[Team]):
    def total_wins(self) -> int:
        return sum(member.wins for member in self.members)


TEAM = {
    "name": "red",
    "members": [{"wins": 1, "tags": ["a"]}, {"wins": 2}],
    "captain": {"wins": 3},
    "by_name": {"x": {"wins": 4}},
    "manager": {"past_rounds": [{"number": 1, "start_index": 0, "end_index": 2}], "round_count": 1},
}


@pytest.mark.parametrize(
    "source",
    [TEAM, orjson.dumps(TEAM), orjson.dumps(TEAM).decode(), Team.model_validate(TEAM)],
    ids=["dict", "bytes", "str", "plain-model"],
)
def test_hydrate_accepts_every_input_form(source: object) -> None:
    team = HydratedTeam.hydrate(source)  # type: ignore[arg-type]
    assert isinstance(team, HydratedTeam)
    assert team.total_wins() == 3


def test_nested_children_are_hydrated_automatically_in_lists_optionals_dicts_and_defaults() -> None:
    team = HydratedTeam.hydrate(TEAM)
    assert all(isinstance(member, HydratedStats) for member in team.members)
    assert isinstance(team.captain, HydratedStats)
    assert isinstance(team.by_name["x"], HydratedStats)
    assert isinstance(team.manager, HydratedRoundManager)
    assert isinstance(HydratedTeam(name="n", members=[]).manager, HydratedRoundManager)
    team.members[0].win()  # type: ignore[attr-defined]
    assert team.total_wins() == 4


def test_plain_children_passed_to_a_hydrated_constructor_are_hydrated_copies() -> None:
    plain_member = Stats(wins=5, tags=["t"])
    team = HydratedTeam(name="n", members=[plain_member])
    assert isinstance(team.members[0], HydratedStats)
    assert team.members[0] is not plain_member
    team.members[0].tags.append("changed")
    assert plain_member.tags == ["t"]


@pytest.mark.parametrize("source_kind", ["plain", "hydrated"])
def test_the_result_never_aliases_its_input(source_kind: str) -> None:
    source = Team.model_validate(TEAM) if source_kind == "plain" else HydratedTeam.hydrate(TEAM)
    copy = HydratedTeam.hydrate(source)
    copy.members[0].tags.append("new")
    copy.by_name["x"].wins = 99
    copy.manager.past_rounds.append(Round(number=2, start_index=2))
    assert source.members[0].tags == ["a"]
    assert source.by_name["x"].wins == 4
    assert len(source.manager.past_rounds) == 1


def test_dehydrate_gives_the_plain_form_back_losslessly() -> None:
    team = HydratedTeam.hydrate(TEAM)
    plain = team.dehydrate()
    assert type(plain) is Team
    assert type(plain.members[0]) is Stats
    assert plain.model_dump() == team.model_dump()
    assert HydratedTeam.hydrate(plain) == team
    plain.members[0].wins = 50
    assert team.members[0].wins == 1


def test_invalid_data_raises_a_readable_validation_error() -> None:
    with pytest.raises(ValidationError) as caught:
        HydratedTeam.hydrate({"name": "n", "members": [{"wins": "many"}], "extra": 1})
    text = str(caught.value)
    assert "members.0.wins" in text
    assert "extra" in text


def test_functional_hydrate_matches_the_classmethod() -> None:
    assert hydrate(HydratedTeam, TEAM) == HydratedTeam.hydrate(TEAM)


def test_a_plain_state_type_gets_a_derived_hydrated_class() -> None:
    definition = make_definition()
    assert definition.state_type is not CounterState
    assert issubclass(definition.state_type, CounterState)
    assert definition.state_type.__name__ == "HydratedCounterState"
