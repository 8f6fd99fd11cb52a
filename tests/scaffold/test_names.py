"""Names: every spelling of a game, an action or a state is derived from one given name."""

import pytest
from tabletop._scaffold import GameNames, PartNames, ScaffoldError


@pytest.mark.parametrize("given", ["tic-tac-toe", "TicTacToe", "tic_tac_toe", "Tic tac toe", " tic-tac-toe "])
def test_a_game_name_in_any_style_gives_the_same_spellings(given: str) -> None:
    names = GameNames.parse(given)
    assert (names.kebab, names.snake, names.pascal, names.title) == (
        "tic-tac-toe",
        "tic_tac_toe",
        "TicTacToe",
        "Tic Tac Toe",
    )
    assert names.package == "tabletop_tic_tac_toe"


@pytest.mark.parametrize(
    ("given", "pascal", "member", "module"),
    [
        ("PlaceMark", "PlaceMark", "PLACE_MARK", "place_mark"),
        ("place-mark", "PlaceMark", "PLACE_MARK", "place_mark"),
        ("HTTPRequest", "HttpRequest", "HTTP_REQUEST", "http_request"),
        ("Roll2Dice", "Roll2Dice", "ROLL_2_DICE", "roll_2_dice"),
        ("Pass", "Pass", "PASS", "pass_action"),
    ],
)
def test_part_names(given: str, pascal: str, member: str, module: str) -> None:
    names = PartNames.parse(given, "action")
    assert (names.pascal, names.member, names.module) == (pascal, member, module)


def test_a_keyword_module_is_suffixed_with_its_kind() -> None:
    assert PartNames.parse("import", "state").module == "import_state"
    assert PartNames.parse("import", "state").snake == "import"


@pytest.mark.parametrize("bad", ["", "   ", "2players", "tic.tac", "tic/tac", "ü-game", "-x"])
def test_unusable_names_are_rejected(bad: str) -> None:
    with pytest.raises(ScaffoldError, match="not a usable name"):
        GameNames.parse(bad)
