"""Go Fish end to end: whole random games through the engine, the card count, and determinism."""

from collections.abc import Callable

import orjson
import pytest
from tabletop import GameEngine, GameResult, IllegalActionError
from tabletop.bots import RandomBot, playout
from tabletop.components import Card, Rank, standard_deck
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop_go_fish import definition
from tabletop_go_fish.actions.deal_card import HydratedDealCard
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.game_state import GoFishGameState

Census = Callable[[GoFishGameState], list[Card]]
FULL_DECK = sorted(standard_deck(), key=str)


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert (definition.name, definition.min_players, definition.max_players) == ("go-fish", 2, 6)


@pytest.mark.parametrize("players", [1, 7])
def test_the_game_takes_two_to_six_players(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        GameEngine(definition).start(make_game(definition, players=players))
    assert caught.value.code == "invalid-game"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_conserve_the_deck_and_end_with_thirteen_books(
    census: Census, players: int, seed: int
) -> None:
    engine = GameEngine(definition)
    results = list(
        playout(engine, make_game(definition, players=players, seed=seed), RandomBot(engine, seed))
    )
    for result in results:
        state = result.state
        assert sorted(census(state), key=str) == FULL_DECK  # 52 cards, each once, always
        assert state.deck == [card for card in standard_deck() if card in set(state.deck)]  # no order kept
        for player in state.players:
            assert all(sum(c.rank == card.rank for c in player.hand) < 4 for card in player.hand)
        if not state.is_over:
            (player_id,) = state.active_player_ids
            assert state.player(player_id).hand  # whoever is on turn can ask
    final = results[-1].state
    assert final.machine_state is MachineState.GAME_OVER
    assert sorted(rank for p in final.players for rank in p.book_ranks()) == sorted(Rank)
    assert all(not p.hand for p in final.players) and not final.deck
    most = max(len(p.books) for p in final.players)
    leaders = [p.player_id for p in final.players if len(p.books) == most]
    expected = (GameResult.WIN, leaders) if len(leaders) == 1 else (GameResult.DRAW, [])
    assert (final.result, final.winning_player_ids, final.active_player_ids) == (*expected, [])


@pytest.mark.parametrize(("players", "hand_size"), [(3, 7), (4, 5)])
def test_every_card_leaves_the_stock_at_a_recorded_chance_point(players: int, hand_size: int) -> None:
    engine = GameEngine(definition)
    results = list(playout(engine, make_game(definition, players=players, seed=4), RandomBot(engine, 4)))
    deals = [a for a in results[0].actions if isinstance(a, HydratedDealCard)]
    assert len(deals) == players * hand_size and results[0].state.machine_state is MachineState.PLAYER_TURN
    draws = [a for r in results for a in r.actions if isinstance(a, HydratedDrawCard)]
    assert all(a.source == "system" for a in deals + draws) and all(a.metadata is not None for a in draws)
    outcomes = [a.outcome for a in deals + draws]
    assert sorted((card for card in outcomes if card is not None), key=str) == FULL_DECK  # each card once


def _replay(seed: int, players: int) -> list[bytes]:
    """Play a random game, then replay its submitted actions in a fresh harness; both byte streams."""
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    results = list(playout(engine, game, RandomBot(engine, seed), prng_key=TEST_PRNG_KEY))
    first = [orjson.dumps(result.state.model_dump(mode="json")) for result in results]
    harness = GameHarness(definition, players=players, seed=seed)
    again = [orjson.dumps(harness.state.model_dump(mode="json"))]
    for result in results[1:]:
        # What a client sends: the engine-assigned fields are not part of a request.
        submitted = result.actions[0].model_dump(
            mode="json", exclude={"index", "metadata", "source", "reveals_info", "created_at"}
        )
        again.append(orjson.dumps(harness.play(submitted).model_dump(mode="json")))
    assert again == first
    return first


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (42, 4), (2**32 - 1, 6)])
def test_same_seed_and_actions_give_byte_identical_states(seed: int, players: int) -> None:
    assert _replay(seed, players) == _replay(seed, players)


def test_different_seeds_give_different_games() -> None:
    assert _replay(1, 2)[0] != _replay(2, 2)[0]
