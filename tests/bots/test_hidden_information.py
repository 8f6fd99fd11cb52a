"""Bots and hidden information: the MCTS bot sees only its seat's projected view."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel
from tabletop import AnyState, Game, GameConfig, GameEngine
from tabletop.bots import MctsBot, action_key
from tabletop.bots._hosted import DecisionRequest, decide, decide_json
from tabletop.components import standard_deck
from tabletop.games import load
from tabletop.testing import GameHarness
from tabletop.views import project, view_type
from tabletop_fixtures.sealed_bids import make_definition as make_sealed_bids
from tabletop_go_fish import definition as go_fish
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import HydratedGoFishGameState
from tabletop_goofspiel import definition as goofspiel
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

GoFish = GameHarness[HydratedGoFishGameState, GoFishConfig]
Goofspiel = GameHarness[HydratedGoofspielGameState, GoofspielConfig]


def _go_fish(seed: int) -> GoFish:
    """A two-player Go Fish game a few asks in (p1 to play, with several ranks to ask for)."""
    harness = GameHarness(go_fish, players=2, seed=seed)
    while len(harness.state.player("p1").hand) < 4 or harness.state.active_player_ids != ["p1"]:
        harness.play(harness.legal_actions(harness.state.active_player_ids[0])[-1])
    return harness


def _shuffle_hidden_cards(state: HydratedGoFishGameState, seed: int) -> HydratedGoFishGameState:
    """The same Go Fish state for p1: p2's hand and the stock dealt again, another PRNG seed."""
    data = state.model_dump()
    hand, deck = data["players"][1]["hand"], data["deck"]
    hidden = hand + deck
    random.Random(seed).shuffle(hidden)
    order = {(card.rank, card.suit): index for index, card in enumerate(standard_deck())}
    stock = sorted(hidden[len(hand) :], key=lambda card: order[card["rank"], card["suit"]])  # no order kept
    data["players"][1]["hand"], data["deck"] = hidden[: len(hand)], stock
    data["prng"]["seed"] = (data["prng"]["seed"] + 12345) % 2**32
    other = type(state).model_validate(data)
    assert other != state
    return other


def _goofspiel_after_p2_bid(card: int) -> Goofspiel:
    """Goofspiel (5 cards) in round 2 after p2 bid ``card``; its hidden PRNG (the prizes to come)
    is seeded with ``card``."""
    harness = GameHarness(goofspiel, players=2, seed=4, config=GoofspielConfig(cards=5))
    for player, bid in (("p1", 1), ("p2", 2)):
        harness.play(
            {"id": f"b{player}", "game_id": "game-1", "type": "Bid", "player_id": player, "card": bid}
        )
    harness.play({"id": "b2", "game_id": "game-1", "type": "Bid", "player_id": "p2", "card": card})
    data = harness.state.model_dump()
    data["prng"]["seed"] = card
    harness.state = type(harness.state).model_validate(data)
    return harness


def test_a_game_that_hides_information_needs_a_determinizer() -> None:
    engine = GameEngine(make_sealed_bids())  # a game with hidden information, no determinizer
    with pytest.raises(ValueError, match=r"sealed-bids hides information .* GameDefinition\(determinizer="):
        MctsBot(engine)


@pytest.mark.parametrize("name", ["go-fish", "goofspiel"])
def test_the_game_definition_s_determinizer_is_used(name: str) -> None:
    definition = load(name)
    bot = MctsBot(GameEngine(definition), iterations=5)
    assert definition.determinizer is not None and bot.determinizer is definition.determinizer
    assert bot.hidden_information
    perfect: GameEngine[AnyState, GameConfig] = GameEngine(load("tic-tac-toe"))
    assert not MctsBot(perfect).hidden_information


def test_the_determinizer_gets_only_the_seat_s_projected_view_and_the_bot_s_generator() -> None:
    harness = _go_fish(2)
    definition = harness.engine.definition
    assert definition.determinizer is not None
    real = definition.determinizer
    seen: list[tuple[BaseModel, str | None, random.Random]] = []

    def recording(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGoFishGameState:
        seen.append((view, seat, rng))
        return real(view, seat, rng)

    bot = MctsBot(harness.engine, iterations=15, seed=3, determinizer=recording)
    before = harness.state.model_dump_json()
    ranked = bot.evaluate(harness.state, "p1", harness.game)
    assert len(seen) == 15 and sum(stats.visits for stats in ranked) == 15  # one world per iteration
    expected = project(harness.state, "p1")
    for view, seat, rng in seen:
        assert type(view) is view_type(type(harness.state)) and view == expected
        assert seat == "p1" and rng is bot.rng
    assert harness.state.model_dump_json() == before  # the state and its PRNG did not move
    legal = harness.engine.legal_actions(harness.state, "p1", harness.game)
    assert sorted(action_key(stats.action) for stats in ranked) == sorted(action_key(a) for a in legal)


@pytest.mark.parametrize("seed", [1, 2])
def test_go_fish_states_that_differ_only_in_hidden_cards_get_the_same_choices(seed: int) -> None:
    harness = _go_fish(seed)
    state = harness.state
    other = _shuffle_hidden_cards(state, seed)
    assert project(other, "p1") == project(state, "p1")
    assert other.player("p2").hand != state.player("p2").hand  # what p1 may not see differs
    first, second = (
        MctsBot(harness.engine, iterations=25, seed=seed, max_rollout_actions=10) for _ in range(2)
    )
    for _ in range(3):  # a sequence of decisions: the bots' generators advance alike
        mine = first.choose(state, "p1", harness.game)
        theirs = second.choose(other, "p1", harness.game)
        assert mine is not None and theirs is not None
        assert (action_key(mine), mine.id) == (action_key(theirs), theirs.id)
    ranked = [(action_key(s.action), s.visits, s.value) for s in first.evaluate(state, "p1", harness.game)]
    assert ranked == [
        (action_key(s.action), s.visits, s.value) for s in second.evaluate(other, "p1", harness.game)
    ]


def test_a_sealed_goofspiel_bid_does_not_change_the_bot_s_choices() -> None:
    low, high = (
        _goofspiel_after_p2_bid(3),
        _goofspiel_after_p2_bid(5),
    )
    assert project(low.state, "p1") == project(high.state, "p1")
    assert low.state.current_auction().bid_of("p2") != high.state.current_auction().bid_of("p2")
    assert low.state.prng != high.state.prng  # the hidden PRNG that will draw the prizes to come
    first, second = (MctsBot(low.engine, iterations=60, seed=5) for _ in range(2))
    for _ in range(3):
        mine = first.choose(low.state, "p1", low.game)
        theirs = second.choose(high.state, "p1", high.game)
        assert mine is not None and theirs is not None
        assert (action_key(mine), mine.id) == (action_key(theirs), theirs.id)


def _request(state: AnyState, game: Game[GameConfig], kind: str, seed: int) -> DecisionRequest:
    return DecisionRequest(
        game="go-fish",
        state_json=state.model_dump_json(),
        game_json=game.model_dump_json(),
        player_id="p1",
        kind=kind,
        iterations=20,
        time_limit=60.0,
        seed=seed,
    )


@pytest.mark.parametrize("kind", ["random", "mcts"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hosts_bot_decides_from_the_seats_view_alone(kind: str, seed: int) -> None:
    # What the server plays for a seat (a bot seat, a seat handed to a bot, a timeout's bot move)
    # is ``decide``: two Go Fish states that differ only in what p1 may not see (p2's hand, the
    # stock, the PRNG) get the same move, in process and through the bot processes' JSON path.
    harness = _go_fish(seed)
    state, other = harness.state, _shuffle_hidden_cards(harness.state, seed)
    assert project(other, "p1") == project(state, "p1")
    assert other.player("p2").hand != state.player("p2").hand
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load("go-fish"))  # as the host holds it
    game = engine.definition.game_type.model_validate_json(harness.game.model_dump_json())
    moves = [decide(engine, world, game, _request(world, game, kind, seed)) for world in (state, other)]
    assert moves[0] is not None and moves[1] is not None
    assert action_key(moves[0]) == action_key(moves[1])
    assert action_key(moves[0]) in {action_key(a) for a in engine.legal_actions(state, "p1", game)}
    answers = [decide_json(_request(world, game, kind, seed)) for world in (state, other)]
    assert answers[0] is not None and answers[0] == answers[1]
