"""Source edits: enum members, imports and collection items land where ruff would put them."""

import pytest
from tabletop._scaffold import ScaffoldError
from tabletop._scaffold._edits import (
    LINE_LENGTH,
    add_class_constant,
    add_collection_item,
    add_enum_member,
    add_import,
)

ENUM = '''"""Doc."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action."""

    END_GAME = "EndGame"


other = 1
'''


def test_an_enum_member_is_appended_after_the_last_member() -> None:
    edited = add_enum_member(ENUM, "ActionType", "PLACE_MARK", "PlaceMark", where="actions.py")
    assert '    END_GAME = "EndGame"\n    PLACE_MARK = "PlaceMark"\n\n\nother = 1\n' in edited


@pytest.mark.parametrize(("member", "value"), [("END_GAME", "Other"), ("OTHER", "EndGame")])
def test_a_taken_enum_member_or_value_is_refused(member: str, value: str) -> None:
    with pytest.raises(ScaffoldError, match="already has"):
        add_enum_member(ENUM, "ActionType", member, value, where="actions.py")


def test_a_missing_enum_class_is_named() -> None:
    with pytest.raises(ScaffoldError, match=r"actions\.py has no class MachineState"):
        add_enum_member(ENUM, "MachineState", "X", "X", where="actions.py")


IMPORTS = """from tabletop import GameDefinition

from game_x.actions.end_game import HydratedEndGame
from game_x.definition.states import MachineState

x = 1
"""


@pytest.mark.parametrize(
    ("module", "expected_order"),
    [
        ("game_x.actions.alpha", ["alpha", "end_game", "states"]),
        ("game_x.actions.place_mark", ["end_game", "place_mark", "states"]),
        ("game_x.model.config", ["end_game", "states", "config"]),
    ],
)
def test_an_import_goes_where_isort_puts_it(module: str, expected_order: list[str]) -> None:
    edited = add_import(IMPORTS, module, "Thing")
    lines = [line for line in edited.splitlines() if line.startswith("from game_x")]
    assert [line.split()[1].rsplit(".", 1)[1] for line in lines] == expected_order
    assert f"from {module} import Thing" in edited


def test_an_import_from_an_imported_module_adds_the_name_in_order() -> None:
    edited = add_import(IMPORTS, "game_x.definition.states", "LAST_STATE")
    assert "from game_x.definition.states import LAST_STATE, MachineState\n" in edited
    assert edited.count("game_x.definition.states") == 1


def test_a_long_import_is_wrapped_one_name_a_line() -> None:
    module = "game_x.definition." + "x" * LINE_LENGTH
    edited = add_import(IMPORTS, module, "Thing")
    assert f"from {module} import (\n    Thing,\n)\n" in edited


def test_an_import_needs_a_block_of_the_same_package() -> None:
    with pytest.raises(ScaffoldError, match="no imports from other"):
        add_import(IMPORTS, "other.module", "Thing")


DEFINITION = """definition = GameDefinition(
    name="x",
    actions=[HydratedEndGame],
    handlers=state_handlers,
)
state_handlers = {MachineState.A: A()}
"""


def test_a_list_item_is_added_on_one_line_while_it_fits() -> None:
    edited = add_collection_item(DEFINITION, "actions", "HydratedPass", where="game.py")
    assert "    actions=[HydratedEndGame, HydratedPass],\n" in edited


def test_a_collection_that_no_longer_fits_is_written_one_item_a_line() -> None:
    long_name = "Hydrated" + "X" * 100
    edited = add_collection_item(DEFINITION, "actions", long_name, where="game.py")
    assert f"    actions=[\n        HydratedEndGame,\n        {long_name},\n    ],\n" in edited
    again = add_collection_item(edited, "actions", "HydratedPass", where="game.py")
    assert f"        {long_name},\n        HydratedPass,\n    ],\n" in again


def test_a_dict_entry_is_added_to_a_module_level_dict() -> None:
    edited = add_collection_item(DEFINITION, "state_handlers", "MachineState.B: B()", where="x.py")
    assert edited.endswith("state_handlers = {MachineState.A: A(), MachineState.B: B()}\n")


def test_a_present_item_or_a_missing_collection_is_refused() -> None:
    with pytest.raises(ScaffoldError, match="already holds HydratedEndGame"):
        add_collection_item(DEFINITION, "actions", "HydratedEndGame", where="game.py")
    with pytest.raises(ScaffoldError, match=r"game\.py has no collection 'setup'"):
        add_collection_item(DEFINITION, "setup", "x", where="game.py")
    with pytest.raises(ScaffoldError, match="not a literal"):
        add_collection_item(DEFINITION, "handlers", "x", where="game.py")


HANDLER = """class Turn(StateHandler[S, C]):
    accepts = ()
    transitions_to = (MachineState.GAME_OVER,)
"""


def test_class_tuples_grow_and_keep_the_one_item_comma() -> None:
    edited = add_class_constant(HANDLER, "Turn", "accepts", "ActionType.PASS", where="turn.py")
    assert "    accepts = (ActionType.PASS,)\n" in edited
    edited = add_class_constant(edited, "Turn", "transitions_to", "MachineState.TURN", where="turn.py")
    assert "    transitions_to = (MachineState.GAME_OVER, MachineState.TURN)\n" in edited
    with pytest.raises(ScaffoldError, match=r"turn\.py has no Turn\.enter"):
        add_class_constant(HANDLER, "Turn", "enter", "x", where="turn.py")
