"""Hearts' determinizer: full states a seat's view cannot tell from the real one, voids respected."""

import random

import pytest
from tabletop import GameEngine
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.components import Card
from tabletop.testing import GameHarness, make_game
from tabletop.views import SPECTATOR, project
from tabletop_hearts import definition
from tabletop_hearts.actions.pass_cards import HydratedPassCards
from tabletop_hearts.components.cards import DECK
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.determinizer import determinize
from tabletop_hearts.model.game_state import HeartsGameState, HydratedHeartsGameState

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]
SEATS = ["p1", "p2", "p3", "p4"]


def _positions(seed: int, **options: object) -> list[HydratedHeartsGameState]:
    """Every state of the first deal of a random game (every 5th, to keep it quick)."""
    engine = GameEngine(definition)
    config = HeartsConfig.model_validate({"target_score": 1, **options})
    game = make_game(definition, players=4, seed=seed, config=config)
    states = [result.state for result in playout(engine, game, RandomBot(engine, seed))]
    return [state for state in states if state.result is None][::5]


def _cards(world: HydratedHeartsGameState) -> list[Card]:
    held = [card for player in world.players for card in player.hand]
    played = [play.card for trick in world.tricks for play in trick.cards] + [
        play.card for play in world.trick
    ]
    return sorted(held + played, key=DECK.index)


def _voids(state: HydratedHeartsGameState) -> dict[str, set[str]]:
    voids: dict[str, set[str]] = {seat: set() for seat in SEATS}
    for trick in [*(t.cards for t in state.tricks), state.trick]:
        for play in trick[1:]:
            if play.card.suit is not trick[0].card.suit:
                voids[play.player_id].add(trick[0].card.suit.value)
    return voids


def test_the_definition_declares_the_determinizer() -> None:
    assert definition.determinizer is determinize


@pytest.mark.parametrize(("seed", "pass_cards"), [(1, True), (2, False)])
def test_a_determinized_state_projects_back_to_the_seat_s_view(seed: int, pass_cards: bool) -> None:
    rng = random.Random(seed)
    for state in _positions(seed, pass_cards=pass_cards):
        voids = _voids(state)
        for seat in SEATS:
            view = project(state, seat)
            before = view.model_dump_json()
            world = determinize(view, seat, rng)
            assert HeartsGameState.model_validate_json(world.model_dump_json()) == world.dehydrate()
            assert project(world, seat) == view  # the seat cannot tell the worlds apart
            assert view.model_dump_json() == before
            assert _cards(world) == list(DECK)  # the 52 cards, each once
            assert definition.invariants is not None and list(definition.invariants(world)) == []
            for player in world.players:
                assert not voids[player.player_id] & {card.suit.value for card in player.hand}
            for player in state.players:  # the seat's passed cards sit with their receiver until played
                if player.player_id == seat and state.machine_state == "Playing" and player.passed:
                    receiver = world.player(state.receiver_of(seat))
                    held = [card for card in player.passed if card in state.player(receiver.player_id).hand]
                    assert all(card in receiver.hand for card in held)
            for active in state.active_player_ids:  # whoever is on turn can move
                assert world.legal_plays(active) or state.machine_state == "Passing"


def test_other_hands_are_sampled_and_a_hidden_pass_is_drawn_from_its_hand(harness: Harness) -> None:
    p2 = harness.state.player("p2")
    harness.play(harness.action(HydratedPassCards, "p2", cards=p2.hand[:3]))
    view = project(harness.state, "p1")
    worlds = [determinize(view, "p1", random.Random(seed)) for seed in range(20)]
    assert len({tuple(world.player("p2").hand) for world in worlds}) > 10
    for world in worlds:
        assert world.player("p1").hand == harness.state.player("p1").hand
        passed = world.player("p2").passed
        assert len(passed) == 3 and all(card in world.player("p2").hand for card in passed)
    assert len({world.prng.seed for world in worlds}) == 20
    again = determinize(view, "p1", random.Random(0))
    assert again.model_dump_json() == worlds[0].model_dump_json()


def test_a_spectator_s_view_deals_every_hand() -> None:
    rng = random.Random(3)
    for state in _positions(3)[::3]:
        view = project(state, SPECTATOR)
        world = determinize(view, None, rng)
        assert project(world, SPECTATOR) == view and _cards(world) == list(DECK)


def test_views_that_are_not_the_seat_s_are_refused(harness: Harness) -> None:
    with pytest.raises(ValueError, match="not 'p1'"):
        determinize(project(harness.state, SPECTATOR), "p1", random.Random(1))
    data = project(harness.state, "p1").model_dump(mode="json")
    data["players"][1]["hand_count"] = 12
    broken = type(project(harness.state, "p1")).model_validate(data)
    with pytest.raises(ValueError, match="unseen"):
        determinize(broken, "p1", random.Random(1))


@pytest.mark.parametrize("seed", [1])
def test_mcts_plays_a_whole_deal_from_its_own_view(seed: int) -> None:
    engine: GameEngine[HydratedHeartsGameState, HeartsConfig] = GameEngine(definition)
    game = make_game(definition, players=4, seed=seed, config=HeartsConfig(target_score=1))
    bots: dict[str, Bot[HydratedHeartsGameState, HeartsConfig]] = {
        "p1": MctsBot(engine, iterations=8, seed=seed),
        "p2": RandomBot(engine, seed=seed),
        "p3": RandomBot(engine, seed=seed + 1),
        "p4": RandomBot(engine, seed=seed + 2),
    }
    final = list(playout(engine, game, bots))[-1].state
    assert final.result is not None and len(final.deals) == 1
    assert all(not player.hand for player in final.players)
