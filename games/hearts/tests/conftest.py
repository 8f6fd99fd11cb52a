"""Fixtures for Hearts' tests.

Game modules are imported inside fixtures and helpers, not at module level: pytest loads conftest
files before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.components import Card
    from tabletop.testing import GameHarness
    from tabletop_hearts.model.config import HeartsConfig
    from tabletop_hearts.model.game_state import HydratedHeartsGameState

    Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]

Arrange = Callable[..., "Harness"]


@pytest.fixture
def harness() -> Harness:
    """A started four-player game (``p1``..``p4``), seed 42, default options: the first pass is on."""
    from tabletop.testing import GameHarness
    from tabletop_hearts import definition

    return GameHarness(definition, players=4, seed=42)


def cards(codes: str) -> list[Card]:
    """Cards from short codes: ``"2C QS 10H"``."""
    from tabletop.components import Card

    return [Card.from_code(code) for code in codes.split()]


@pytest.fixture
def arrange() -> Arrange:
    """``arrange(hands, **options)``: a game in its first deal's play with the hands given.

    ``hands`` maps seats to card codes (``{"p1": "2C 3C", ...}``); the cards nobody was given are
    dealt round the table to fill every hand to 13. The pass is off unless ``pass_cards=True``
    is given (then the game is in Passing with these hands). The holder of the two of clubs is on turn.
    """

    def build(hands: dict[str, str] | None = None, **options: object) -> Harness:
        from tabletop.testing import GameHarness
        from tabletop_hearts import definition
        from tabletop_hearts.components.cards import DECK, HAND_SIZE, TWO_OF_CLUBS, sort_key
        from tabletop_hearts.definition.states import MachineState
        from tabletop_hearts.model.config import HeartsConfig

        options.setdefault("pass_cards", False)
        config = HeartsConfig.model_validate(options)
        harness = GameHarness(definition, players=4, seed=42, config=config)
        given = {seat: cards(codes) for seat, codes in (hands or {}).items()}
        taken = {card for held in given.values() for card in held}
        rest = [card for card in DECK if card not in taken]
        ctx = harness.context()
        for player in ctx.state.players:
            hand = list(given.get(player.player_id, []))
            while len(hand) < HAND_SIZE:
                hand.append(rest.pop(0))
            player.hand = sorted(hand, key=sort_key)
        if ctx.state.machine_state == MachineState.PLAYING:
            holder = ctx.state.holder_of(TWO_OF_CLUBS)
            assert holder is not None
            ctx.start_turn_of(holder)
        harness.state = ctx.state
        return harness

    return build
