"""Goofspiel's determinizer: full states that a seat's view cannot tell from the real one."""

import random
from collections.abc import Callable, Mapping

import pytest
from tabletop import GameEngine
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.testing import GameHarness, make_game
from tabletop.views import SPECTATOR, project
from tabletop_goofspiel import definition
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.determinizer import determinize
from tabletop_goofspiel.model.game_state import GoofspielGameState, HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


def _prizes(state: HydratedGoofspielGameState) -> list[int]:
    """Every prize card: those not up yet, the one up, and those of the resolved rounds."""
    up = [] if state.prize is None else [state.prize]
    return sorted(state.prizes_left + up + [record.prize for record in state.rounds])


def _positions(cards: int, seed: int) -> list[HydratedGoofspielGameState]:
    """Every state of a random game that is not over (both between bids and after one)."""
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed, config=GoofspielConfig(cards=cards))
    states = [result.state for result in playout(engine, game, RandomBot(engine, seed))]
    return [state for state in states if state.result is None]


def test_the_definition_declares_the_determinizer() -> None:
    assert definition.determinizer is determinize


@pytest.mark.parametrize(("cards", "seed"), [(13, 1), (6, 2), (1, 3)])
def test_a_determinized_state_projects_back_to_the_seat_s_view(cards: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in _positions(cards, seed):
        for seat in ("p1", "p2"):
            view = project(state, seat)
            before = view.model_dump_json()
            world = determinize(view, seat, rng)
            assert isinstance(world, HydratedGoofspielGameState)
            assert GoofspielGameState.model_validate_json(world.model_dump_json()) == world.dehydrate()
            assert project(world, seat) == view  # the seat cannot tell the worlds apart
            assert view.model_dump_json() == before  # and its view was left alone
            assert _prizes(world) == list(range(1, cards + 1))  # every prize once
            assert [p.hand for p in world.players] == [p.hand for p in state.players]
            assert world.prng.invocations == 0


def test_the_opponent_s_sealed_bid_is_drawn_from_their_hand(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=8, seed=3)
    harness.play(harness.action(HydratedBid, "p2", card=6))
    view = project(harness.state, "p1")
    bids = set()
    for seed in range(40):
        world = determinize(view, "p1", random.Random(seed))
        auction = world.current_auction()
        assert not auction.has_bid("p1")
        bid = auction.bid_of("p2")
        assert bid is not None and bid in world.player("p2").hand
        bids.add(bid)
    assert len(bids) > 3  # sampled, not read from the real state
    mine = determinize(project(harness.state, "p2"), "p2", random.Random(1))
    assert mine.current_auction().bid_of("p2") == 6  # a seat's own bid is kept


def test_future_prizes_are_not_in_any_world_they_are_chance_points(
    make_harness: MakeHarness, play_round: PlayRound
) -> None:
    from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize

    harness = make_harness(cards=9, seed=5, prizes=[4, 7])
    play_round(harness, {"p1": 1, "p2": 2})
    state = harness.state
    view = project(state, "p2")
    worlds = [determinize(view, "p2", random.Random(seed)) for seed in range(20)]
    assert {tuple(world.prizes_left) for world in worlds} == {(1, 2, 3, 5, 6, 8, 9)}
    assert len({world.prng.seed for world in worlds}) == 20  # a fresh seed for the hidden PRNG
    again = determinize(view, "p2", random.Random(0))
    assert again.model_dump_json() == worlds[0].model_dump_json()
    # a search meets the next prize as a chance point: each world draws its own, from its own PRNG
    engine = harness.engine
    nexts = set()
    for world in worlds:
        engine.run(harness.action(HydratedBid, "p1", card=3), world, harness.game, in_place=True)
        engine.run(harness.action(HydratedBid, "p2", card=3), world, harness.game, in_place=True)
        assert isinstance(world.prize, int) and world.prize in (1, 2, 3, 5, 6, 8, 9)
        nexts.add(world.prize)
    assert len(nexts) > 3  # not the real next prize, read from the state: there is none to read
    assert not any(
        isinstance(action, HydratedRevealPrize) and action.outcome is None for action in harness.log
    )


@pytest.mark.parametrize(("cards", "seed"), [(13, 4), (5, 5)])
def test_a_spectator_s_view_is_determinized_with_every_sealed_bid_drawn(cards: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in _positions(cards, seed):
        view = project(state, SPECTATOR)
        world = determinize(view, None, rng)
        assert project(world, SPECTATOR) == view  # a spectator cannot tell the worlds apart
        assert _prizes(world) == list(range(1, cards + 1))
        auction = world.auction
        for bid in [] if auction is None else auction.bids:
            assert bid.amount in world.player(bid.participant_id).hand  # drawn from their own hand


def test_views_that_are_not_the_seat_s_are_refused(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=5, seed=2)
    harness.play(harness.action(HydratedBid, "p1", card=3))
    with pytest.raises(ValueError, match="not 'p1'"):
        determinize(project(harness.state, SPECTATOR), "p1", random.Random(1))
    with pytest.raises(ValueError, match="own bid is hidden"):
        determinize(project(harness.state, "p2"), "p1", random.Random(1))


@pytest.mark.parametrize("seed", [1, 2])
def test_mcts_plays_whole_games_from_its_own_view(seed: int) -> None:
    engine: GameEngine[HydratedGoofspielGameState, GoofspielConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed, config=GoofspielConfig(cards=6))
    bots: dict[str, Bot[HydratedGoofspielGameState, GoofspielConfig]] = {
        "p1": MctsBot(engine, iterations=12, seed=seed),
        "p2": RandomBot(engine, seed=seed) if seed == 1 else MctsBot(engine, iterations=12, seed=7),
    }
    final = list(playout(engine, game, bots))[-1].state
    assert final.result is not None and len(final.rounds) == 6
    assert all(not player.hand for player in final.players)
