"""Bots never see the future: their choices do not follow what the game's PRNG rolls next.

Each rig is two states identical except for the PRNG key, found by search so that the next
``Roll`` comes up a six in one and a one in the other. A bot that read the PRNG (searching on
copies of the full state) would roll exactly when the six is coming.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import orjson
import pytest
from tabletop import AnyState, Game, GameConfig, GameDefinition, GameEngine, PrngState
from tabletop.bots import MctsBot, RandomBot, action_key
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_fixtures import dice

GAMES = ["dice", *(["pig"] if "pig" in available() else [])]


@dataclass(frozen=True)
class Rig:
    """Two states that differ only in the PRNG key: the next roll is a six in one, a one in the other."""

    engine: GameEngine[AnyState, GameConfig]
    game: Game[GameConfig]
    six: AnyState
    one: AnyState

    @property
    def player_id(self) -> str:
        return self.six.active_player_ids[0]


def _definition(name: str) -> GameDefinition[AnyState, GameConfig]:
    return dice.definition if name == "dice" else load(name)  # type: ignore[return-value]


def _next_face(rig_engine: GameEngine[AnyState, GameConfig], game: Game[GameConfig], state: AnyState) -> int:
    """The face the active player's ``Roll`` comes up with in ``state`` (through the engine)."""
    player_id = state.active_player_ids[0]
    roll = {"id": "probe", "game_id": game.id, "type": "Roll", "player_id": player_id}
    recorded = rig_engine.run(roll, state, game).actions
    # The dice fixture records the face in its Roll's metadata; Pig in its RollDie chance point.
    faces = [getattr(getattr(action, "metadata", None), "face", None) for action in recorded]
    faces += [getattr(action, "outcome", None) for action in recorded if action.type == "RollDie"]
    (face,) = [face for face in faces if face is not None]
    assert isinstance(face, int), recorded
    return face


def _keys() -> Iterator[str]:
    for number in range(1, 10_000):
        yield f"{number:032x}"


@pytest.fixture(params=GAMES)
def rig(request: pytest.FixtureRequest) -> Rig:
    return _rig(request.param)


def _rig(name: str) -> Rig:
    definition = _definition(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=7)
    start = engine.start(game, prng_key=TEST_PRNG_KEY).state
    found: dict[int, AnyState] = {}
    for key in _keys():
        prng = PrngState(seed=start.prng.seed, invocations=start.prng.invocations, key=key)
        state = start.model_copy(update={"prng": prng})
        face = _next_face(engine, game, state)
        if face in (1, 6) and face not in found:
            found[face] = state
        if len(found) == 2:
            return Rig(engine, game, six=found[6], one=found[1])
    pytest.fail("no key rigs the next roll both ways")  # pragma: no cover


def test_the_rigged_states_differ_only_in_the_prng_and_roll_six_and_one(rig: Rig) -> None:
    six, one = rig.six.model_dump(mode="json"), rig.one.model_dump(mode="json")
    assert six.pop("prng") != one.pop("prng")
    assert six == one
    assert (_next_face(rig.engine, rig.game, rig.six), _next_face(rig.engine, rig.game, rig.one)) == (6, 1)


def _choices(rig: Rig, bot_seed: int, iterations: int) -> tuple[bytes, bytes]:
    bot = MctsBot(rig.engine, iterations=iterations, seed=bot_seed, max_rollout_actions=200)
    six = bot.choose(rig.six, rig.player_id, rig.game)
    bot = MctsBot(rig.engine, iterations=iterations, seed=bot_seed, max_rollout_actions=200)
    one = bot.choose(rig.one, rig.player_id, rig.game)
    assert six is not None and one is not None
    return action_key(six), action_key(one)


def test_mcts_chooses_the_same_whatever_the_next_roll(rig: Rig) -> None:
    pairs = [_choices(rig, bot_seed, iterations=100) for bot_seed in range(10)]
    same = sum(six == one for six, one in pairs)
    assert same == 10, pairs


def test_mcts_searches_the_same_tree_whatever_the_next_roll(rig: Rig) -> None:
    six = MctsBot(rig.engine, iterations=60, seed=3, max_rollout_actions=200)
    one = MctsBot(rig.engine, iterations=60, seed=3, max_rollout_actions=200)
    ranked_six = [
        (action_key(s.action), s.visits, s.value) for s in six.evaluate(rig.six, rig.player_id, rig.game)
    ]
    ranked_one = [
        (action_key(s.action), s.visits, s.value) for s in one.evaluate(rig.one, rig.player_id, rig.game)
    ]
    assert ranked_six == ranked_one


def test_in_the_dice_game_mcts_holds_because_a_roll_wins_one_time_in_six() -> None:
    engine: GameEngine[dice.DiceState, dice.DiceConfig] = GameEngine(dice.definition)
    game = make_game(dice.definition, players=2, seed=7)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    stats = MctsBot(engine, iterations=300, seed=1).evaluate(state, "p1", game)
    values = {str(s.action.type): s.value for s in stats}
    assert stats[0].action.type == dice.Kind.HOLD
    assert values["Hold"] == 0.5 and 0.05 < values["Roll"] < 0.35


def test_a_bot_that_read_the_game_prng_would_follow_the_rig(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: searching with the state's own PRNG (what the bot must not do) sees the six coming."""
    rig = _rig("dice")
    # Each world gets a copy of the game's PRNG (the bot owns its world's PRNG object).
    monkeypatch.setattr(MctsBot, "_own_future", lambda self, state: state.prng.model_copy())
    six, one = _choices(rig, bot_seed=0, iterations=100)
    assert (orjson.loads(six)["type"], orjson.loads(one)["type"]) == ("Roll", "Hold")


def test_the_random_bot_chooses_the_same_whatever_the_next_roll(rig: Rig) -> None:
    for bot_seed in range(10):
        six = RandomBot(rig.engine, bot_seed).choose(rig.six, rig.player_id, rig.game)
        one = RandomBot(rig.engine, bot_seed).choose(rig.one, rig.player_id, rig.game)
        assert six is not None and one is not None
        assert action_key(six) == action_key(one)
