"""Go Fish's determinizer: full states that a seat's view cannot tell from the real one."""

import random
from collections import Counter
from collections.abc import Callable

import pytest
from tabletop import GameEngine
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.components import Card, standard_deck
from tabletop.testing import make_game
from tabletop.views import SPECTATOR, project
from tabletop_go_fish import definition
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.determinizer import determinize
from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState

Census = Callable[[GoFishGameState], list[Card]]
FULL_DECK = sorted(standard_deck(), key=str)


def _positions(players: int, seed: int) -> list[HydratedGoFishGameState]:
    """Every state of a random game that is not over."""
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    states = [result.state for result in playout(engine, game, RandomBot(engine, seed))]
    return [state for state in states if state.result is None]


def test_the_definition_declares_the_determinizer() -> None:
    assert definition.determinizer is determinize


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_a_determinized_state_projects_back_to_the_seat_s_view(
    census: Census, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    positions = _positions(players, seed)
    for state in positions[:: max(1, len(positions) // 12)]:
        for player in state.players:
            seat = player.player_id
            view = project(state, seat)
            before = view.model_dump_json()
            world = determinize(view, seat, rng)
            assert isinstance(world, HydratedGoFishGameState)
            assert GoFishGameState.model_validate_json(world.model_dump_json()) == world.dehydrate()
            assert project(world, seat) == view  # the seat cannot tell the worlds apart
            assert view.model_dump_json() == before  # and its view was left alone
            assert sorted(census(world), key=str) == FULL_DECK  # 52 cards, each once
            assert world.player(seat).hand == state.player(seat).hand
            assert world.prng.invocations == 0


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12)])
def test_a_spectator_s_view_is_determinized_with_every_hand_dealt(
    census: Census, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    positions = _positions(players, seed)
    for state in positions[:: max(1, len(positions) // 8)]:
        view = project(state, SPECTATOR)
        world = determinize(view, None, rng)
        assert project(world, SPECTATOR) == view  # a spectator cannot tell the worlds apart
        assert sorted(census(world), key=str) == FULL_DECK
        assert [len(p.hand) for p in world.players] == [len(p.hand) for p in state.players]
    assert determinize(view, None, random.Random(1)) != determinize(view, None, random.Random(2))


def test_the_unseen_cards_are_dealt_at_random_without_whole_books() -> None:
    state = _positions(3, 5)[10]
    view = project(state, "p1")
    worlds = [determinize(view, "p1", random.Random(seed)) for seed in range(30)]
    assert len({world.model_dump_json() for world in worlds}) == 30
    assert {len(world.player("p2").hand) for world in worlds} == {len(state.player("p2").hand)}

    def hidden(world: HydratedGoFishGameState) -> Counter[Card]:
        return Counter(world.player("p2").hand + world.player("p3").hand + world.deck)

    for world in worlds:
        assert hidden(world) == hidden(state)  # the same cards, elsewhere
        for seat in ("p2", "p3"):
            ranks = Counter(card.rank for card in world.player(seat).hand)
            assert max(ranks.values(), default=0) < 4
    assert len({world.prng.seed for world in worlds}) == 30  # a fresh seed for the hidden PRNG


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (5, 23)])
def test_hidden_hands_keep_what_the_table_knows(players: int, seed: int) -> None:
    rng = random.Random(seed)
    known = 0
    for state in _positions(players, seed):
        view = project(state, "p1")
        for world in (determinize(view, "p1", rng) for _ in range(3)):
            assert world.deck == [card for card in standard_deck() if card in set(world.deck)]
            for player in world.players[1:]:
                ranks = {card.rank for card in player.hand}
                assert set(player.holds) <= ranks, (player.player_id, player.holds, ranks)
                assert not set(player.lacks) & ranks, (player.player_id, player.lacks, ranks)
                known += len(player.holds) + len(player.lacks)
    assert known > 0  # the games did reveal something to keep


def test_the_same_generator_state_gives_the_same_world() -> None:
    view = project(_positions(2, 6)[5], "p2")
    first = determinize(view, "p2", random.Random(8))
    assert determinize(view, "p2", random.Random(8)).model_dump_json() == first.model_dump_json()


def test_views_that_are_not_the_seat_s_are_refused() -> None:
    state = _positions(2, 7)[3]
    with pytest.raises(ValueError, match="not 'p1'"):
        determinize(project(state, SPECTATOR), "p1", random.Random(1))
    with pytest.raises(ValueError, match="not 'p1'"):
        determinize(project(state, "p2"), "p1", random.Random(1))
    broken = project(state, "p1").model_copy(update={"deck_count": 99})
    with pytest.raises(ValueError, match="unseen"):
        determinize(broken, "p1", random.Random(1))


@pytest.mark.parametrize("players", [2, 4])
def test_mcts_plays_whole_games_from_its_own_view(players: int) -> None:
    engine: GameEngine[HydratedGoFishGameState, GoFishConfig] = GameEngine(definition)
    game = make_game(definition, players=players, seed=players)
    bots: dict[str, Bot[HydratedGoFishGameState, GoFishConfig]] = {
        p.id: RandomBot(engine, seed=n) for n, p in enumerate(game.players)
    }
    bots["p2"] = MctsBot(engine, iterations=4, seed=9, max_rollout_actions=8)
    final = list(playout(engine, game, bots))[-1].state
    assert final.result is not None
    assert sum(len(player.books) for player in final.players) == 13
