"""Goofspiel end to end: scripted and random games through the engine, seats, and determinism."""

from collections.abc import Callable, Mapping

import orjson
import pytest
from tabletop import GameEngine, GameResult, IllegalActionError
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop_goofspiel import definition
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]
Strategy = Callable[[int, int], int]
"""A bid chosen from (prize, N); it must spend each card once over a game."""


def _match(prize: int, cards: int) -> int:
    return prize


def _mirror(prize: int, cards: int) -> int:
    return cards + 1 - prize


def _play_game(
    harness: Harness, play_round: PlayRound, p1: Strategy, p2: Strategy, *, p2_first: bool
) -> None:
    cards = harness.game.config.cards
    while not harness.state.is_over:
        prize = harness.state.prize
        assert prize is not None
        bids = {"p1": p1(prize, cards), "p2": p2(prize, cards)}
        play_round(harness, dict(reversed(bids.items())) if p2_first else bids)


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "goofspiel"


@pytest.mark.parametrize("players", [1, 3])
def test_the_game_takes_exactly_two_players(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        GameEngine(definition).start(make_game(definition, players=players))
    assert caught.value.code == "invalid-game"


@pytest.mark.parametrize("p2_first", [False, True])
@pytest.mark.parametrize(
    ("cards", "p1", "p2", "winners", "p1_score", "p2_score"),
    [
        (5, _match, _mirror, ["p1"], 4 + 5, 1 + 2),  # the higher half goes to whoever bids the prize
        (5, _mirror, _match, ["p2"], 1 + 2, 4 + 5),
        (4, _match, _mirror, ["p1"], 3 + 4, 1 + 2),
        (6, _match, _match, [], 0, 0),  # every round ties: every prize is discarded
    ],
)
def test_scripted_games_score_and_end_by_the_rules(
    make_harness: MakeHarness,
    play_round: PlayRound,
    p2_first: bool,
    cards: int,
    p1: Strategy,
    p2: Strategy,
    winners: list[str],
    p1_score: int,
    p2_score: int,
) -> None:
    harness = make_harness(cards=cards, seed=11)
    _play_game(harness, play_round, p1, p2, p2_first=p2_first)
    state = harness.state
    assert state.machine_state is MachineState.GAME_OVER
    assert (state.result, state.winning_player_ids) == (
        GameResult.WIN if winners else GameResult.DRAW,
        winners,
    )
    assert (state.player("p1").score, state.player("p2").score) == (p1_score, p2_score)
    # each round: its prize by chance, two bids, the reveal
    assert [action.type for action in harness.log] == ["RevealPrize", "Bid", "Bid", "Reveal"] * cards
    assert state.action_count == len(harness.log)
    assert sum(state.discarded) == cards * (cards + 1) // 2 - p1_score - p2_score
    assert (state.prize, state.auction, state.prizes_left, state.active_player_ids) == (None, None, [], [])
    reveals = [action for action in harness.log if isinstance(action, HydratedReveal)]
    assert [action.metadata.round for action in reveals if action.metadata] == list(range(1, cards + 1))


def _assert_invariants(state: HydratedGoofspielGameState, cards: int) -> None:
    rounds = len(state.rounds)
    revealed = sum(record.prize for record in state.rounds)
    awarded = sum(player.score for player in state.players)
    assert awarded + sum(state.discarded) == revealed
    for player in state.players:
        assert len(player.hand) == cards - rounds
        spent = [record.bids[player.player_id] for record in state.rounds]
        assert sorted(spent + player.hand) == list(range(1, cards + 1))
    for record in state.rounds:
        p1, p2 = record.bids["p1"], record.bids["p2"]
        assert record.winner_id == (None if p1 == p2 else "p1" if p1 > p2 else "p2")
    up = [] if state.prize is None else [state.prize]
    assert sorted([record.prize for record in state.rounds] + up + state.prizes_left) == list(
        range(1, cards + 1)
    )


@pytest.mark.parametrize("order", ["random", "descending", "ascending"])
@pytest.mark.parametrize("cards", [1, 2, 5, 13])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_random_games_keep_every_invariant_and_end_after_n_rounds(cards: int, seed: int, order: str) -> None:
    engine = GameEngine(definition)
    config = GoofspielConfig.model_validate({"cards": cards, "points_order": order})
    game = make_game(definition, players=2, seed=seed, config=config)
    results = list(playout(engine, game, RandomBot(engine, seed)))
    for result in results:
        _assert_invariants(result.state, cards)
        if result.state.machine_state is MachineState.BIDDING:
            assert result.state.active_player_ids == ["p1", "p2"]
    state = results[-1].state
    assert len(state.rounds) == cards
    assert all(player.hand == [] for player in state.players)
    prizes = [record.prize for record in state.rounds]
    expected = {"descending": list(range(cards, 0, -1)), "ascending": list(range(1, cards + 1))}
    assert prizes == expected.get(order, prizes) and sorted(prizes) == list(range(1, cards + 1))
    # random: one chance point a round (the first at the start), recording the prize it turned up
    actions = [action for result in results for action in result.actions]
    revealed = [action.outcome for action in actions if isinstance(action, HydratedRevealPrize)]
    assert revealed == (prizes if order == "random" else [])
    scores = {player.player_id: player.score for player in state.players}
    if scores["p1"] == scores["p2"]:
        assert (state.result, state.winning_player_ids) == (GameResult.DRAW, [])
    else:
        assert (state.result, state.winning_player_ids) == (
            GameResult.WIN,
            [max(scores, key=scores.__getitem__)],
        )


def _replay(seed: int, moves: list[tuple[str, int]], cards: int = 13) -> list[bytes]:
    harness = GameHarness(definition, players=2, seed=seed, config=GoofspielConfig(cards=cards))
    states = [harness.state]
    for player_id, card in moves:
        states.append(harness.play(harness.action(HydratedBid, player_id, card=card)))
    return [orjson.dumps(state.model_dump(mode="json")) for state in states]


MOVES = [("p1", 5), ("p2", 7), ("p2", 1), ("p1", 13), ("p1", 2), ("p2", 2)]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    first = _replay(seed, MOVES)
    assert first == _replay(seed, MOVES)
    assert len(set(first)) == len(MOVES) + 1  # every bid changed the state
    assert _replay(seed, MOVES) != _replay(seed + 1 if seed < 2**32 - 1 else 0, MOVES)


def test_same_seed_gives_byte_identical_random_games() -> None:
    def run(seed: int) -> list[bytes]:
        engine = GameEngine(definition)
        game = make_game(definition, seed=seed)
        results = playout(engine, game, RandomBot(engine, seed), prng_key=TEST_PRNG_KEY)
        return [orjson.dumps(result.state.model_dump(mode="json")) for result in results]

    assert run(7) == run(7)
    assert run(7) != run(8)
