"""Hearts against OpenSpiel's ``hearts``, deal by deal, with the same deal and the same passes.

Each deal of a long game of ours is replayed in a fresh pyspiel state: the same pass direction
(OpenSpiel's first chance outcome), the same 52 cards in the same order (card ``i`` to seat
``i mod 4`` on both sides), the same passes (OpenSpiel passes one card at a time, seat by seat)
and the same plays. At every step the legal actions are equal sets by meaning (a card), the
player to move is the same outside the simultaneous pass, and the deal's points match
OpenSpiel's returns (26 minus the points). The pass is compared by meaning too: at each of a
seat's three steps OpenSpiel's legal cards are the hand less the cards chosen so far, and our
legal passes are every three cards of that hand (``crosscheck_pass``).

Fast tests check that our rule options are OpenSpiel's parameters, with OpenSpiel's defaults.
"""

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

import pytest
from tabletop import GameEngine, IllegalActionError, new_prng_key
from tabletop.components import Card, Suit
from tabletop.testing import make_game
from tabletop_hearts import definition
from tabletop_hearts.actions.deal_card import HydratedDealCard
from tabletop_hearts.actions.pass_cards import HydratedPassCards
from tabletop_hearts.actions.play_card import HydratedPlayCard
from tabletop_hearts.components.cards import CARDS_IN_PASS, MOON_POINTS, rank_value
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig, HeartsRules
from tabletop_hearts.model.game_state import HydratedHeartsGameState

pyspiel = pytest.importorskip("pyspiel")

SUITS = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]  # OpenSpiel's suit numbers
OPTION_SETS: list[dict[str, bool]] = [
    {},
    {"pass_cards": False, "jd_bonus": True, "avoid_all_tricks_bonus": True},
    {"can_lead_any_club": True, "must_break_hearts": False, "qs_breaks_hearts": False},
    {"no_pts_on_first_trick": False, "can_lead_hearts_instead_of_qs": True, "jd_bonus": True},
    {"qs_breaks_hearts": False, "avoid_all_tricks_bonus": True, "can_lead_hearts_instead_of_qs": True},
]
DEALS_PER_SET = 60
"""5 option sets x 60 deals: 300 deals."""


def card_id(card: Card) -> int:
    """OpenSpiel's number of ``card``: rank (two = 0 .. ace = 12) times 4 plus the suit."""
    return rank_value(card) * 4 + SUITS.index(card.suit)


class MismatchError(AssertionError):
    """Our game and OpenSpiel's disagree."""


def check(condition: bool, what: str) -> None:
    if not condition:
        raise MismatchError(what)


class Dealer:
    """A chance resolver drawing each dealt card at random, and recording the deal's order."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.dealt: list[Card] = []

    def __call__(self, action: Any, outcomes: Any) -> object:
        assert isinstance(action, HydratedDealCard)
        card = self.rng.choice(list(outcomes))[0]
        self.dealt.append(card)
        return card


def crosscheck_pass(
    engine: GameEngine[HydratedHeartsGameState, HeartsConfig],
    state: HydratedHeartsGameState,
    game: Any,
    os_state: Any,
    seat: str,
    rng: random.Random,
) -> list[Card]:
    """Check ``seat``'s pass against OpenSpiel's, by meaning, and make it in ``os_state``; return
    the cards chosen (at random among our legal passes) for our side.

    OpenSpiel passes one card at a time, seat by seat: at each of the seat's three steps its legal
    cards are the seat's hand less the cards already chosen. Ours is one simultaneous action: the
    seat's legal passes are every three cards of that hand, so the cards they name are OpenSpiel's
    legal cards at the seat's first step.
    """
    hand = {card_id(card) for card in state.player(seat).hand}
    passes = [c for c in engine.legal_actions(state, seat, game) if isinstance(c, HydratedPassCards)]
    ours = [frozenset(card_id(card) for card in c.cards) for c in passes]
    index = [player.player_id for player in state.players].index(seat)
    check(os_state.current_player() == index, f"OpenSpiel's passer {os_state.current_player()}, not {seat}")
    first = set(os_state.legal_actions())
    check(first == hand, f"{seat}: OpenSpiel may pass {sorted(first)}, the hand is {sorted(hand)}")
    named: set[int] = set().union(*ours)
    check(named == first, f"{seat}: our passes name {sorted(named)}, OpenSpiel's {sorted(first)}")
    trios = {frozenset(trio) for trio in combinations(sorted(first), CARDS_IN_PASS)}
    check(
        len(ours) == len(set(ours)) and set(ours) == trios, f"{seat}: our passes are not every 3 of the hand"
    )
    cards = list(rng.choice(passes).cards)
    left = set(hand)
    for card in cards:
        check(os_state.current_player() == index, f"OpenSpiel's passer {os_state.current_player()}")
        legal = set(os_state.legal_actions())
        check(legal == left, f"{seat}: OpenSpiel may pass {sorted(legal)}, not the rest {sorted(left)}")
        os_state.apply_action(card_id(card))
        left.remove(card_id(card))
    return cards


def crosscheck(options: dict[str, bool], deals: int, seed: int) -> Iterator[dict[str, int]]:
    """Play ``deals`` deals of our game with random moves, each checked against pyspiel; yields
    each deal's points."""
    rng = random.Random(seed)
    config = HeartsConfig.model_validate({"target_score": 10_000, **options})
    game_os = pyspiel.load_game("hearts", config.rules().model_dump())
    engine: GameEngine[HydratedHeartsGameState, HeartsConfig] = GameEngine(definition)
    game = make_game(definition, players=4, seed=seed, config=config)
    dealer = Dealer(rng)
    state = engine.start(game, prng_key=new_prng_key(), chance=dealer).state
    seats = [player.player_id for player in state.players]
    serial = 0
    for _ in range(deals):
        number = state.deal_number
        os_state = game_os.new_initial_state()
        check(os_state.is_chance_node(), "OpenSpiel starts on a chance node")
        os_state.apply_action(state.pass_direction.offset)
        check(len(dealer.dealt) == 52, f"deal {number}: {len(dealer.dealt)} cards dealt")
        for card in dealer.dealt:
            os_state.apply_action(card_id(card))
        dealer.dealt = []
        check(all(len(player.hand) == 13 for player in state.players), f"deal {number}: 13 cards each")
        if state.machine_state == MachineState.PASSING:
            chosen = {seat: crosscheck_pass(engine, state, game, os_state, seat, rng) for seat in seats}
            for order, seat in enumerate(rng.sample(seats, 4)):  # simultaneous: any order on our side
                serial += 1
                body = {"id": f"x{serial}", "game_id": game.id, "type": "PassCards", "player_id": seat}
                state = engine.run(
                    {**body, "cards": [c.model_dump(mode="json") for c in chosen[seat]]}, state, game
                ).state
                if order < 3:  # OpenSpiel: three cards a seat, then nothing more of it
                    check(engine.legal_actions(state, seat, game) == [], f"{seat}: nothing after its pass")
        check(state.machine_state == MachineState.PLAYING, f"deal {number} plays")
        while state.deal_number == number and state.result is None:
            (seat,) = state.active_player_ids
            check(
                os_state.current_player() == seats.index(seat),
                f"to move: {seat} vs {os_state.current_player()}",
            )
            legal = [c for c in engine.legal_actions(state, seat, game) if isinstance(c, HydratedPlayCard)]
            ours = {card_id(c.card) for c in legal}
            check(
                ours == set(os_state.legal_actions()),
                f"deal {number}, {seat}: {sorted(ours)} vs {os_state.legal_actions()}",
            )
            card = rng.choice(legal).card
            serial += 1
            body = {"id": f"x{serial}", "game_id": game.id, "type": "PlayCard", "player_id": seat}
            state = engine.run(
                {**body, "card": card.model_dump(mode="json")}, state, game, chance=dealer
            ).state
            os_state.apply_action(card_id(card))
        check(os_state.is_terminal(), f"deal {number}: OpenSpiel's deal is over")
        record = state.deals[-1]
        returns = [MOON_POINTS - record.points[seat] for seat in seats]
        check(
            returns == list(os_state.returns()), f"deal {number}: returns {returns} vs {os_state.returns()}"
        )
        yield record.points


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=[",".join(sorted(o)) or "defaults" for o in OPTION_SETS])
def test_every_deal_matches_openspiel(options: dict[str, bool]) -> None:
    points = list(crosscheck(options, DEALS_PER_SET, seed=len(options) + 11))
    assert len(points) == DEALS_PER_SET
    assert all(sum(p.values()) > 0 for p in points)


def _hearts_always_leadable(self: HydratedHeartsGameState, player_id: str) -> list[Card]:
    hand = self.player(player_id).hand
    led = self.led_suit()
    follow = [card for card in hand if card.suit is led] if led is not None else []
    if follow:
        return follow
    if self.cards_played == 0:
        return [card for card in hand if card.code == "2C"]
    return list(hand)  # broken: no first-trick rule, hearts never need breaking


def _winner_of_any_suit(self: HydratedHeartsGameState) -> Any:
    return max(self.trick, key=lambda play: rank_value(play.card))  # broken: ignores the suit led


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "broken"), [("legal_plays", _hearts_always_leadable), ("trick_winner", _winner_of_any_suit)]
)
def test_a_broken_rule_makes_the_crosscheck_fail(
    monkeypatch: pytest.MonkeyPatch, name: str, broken: Any
) -> None:
    monkeypatch.setattr(HydratedHeartsGameState, name, broken)
    with pytest.raises(MismatchError):
        list(crosscheck({}, 20, seed=5))


_PASS_CHECK = HydratedPassCards.check
_PASS_ENUMERATE = HydratedPassCards.enumerate


def _last_card_kept(cls: Any, state: HydratedHeartsGameState, player_id: str) -> list[HydratedPassCards]:
    player = state.player(player_id)
    if player.has_passed:
        return []
    trios = combinations(player.hand[:-1], CARDS_IN_PASS)  # broken: the hand's last card never passes
    return [cls.candidate(state, player_id, cards=list(trio)) for trio in trios]


def _queen_of_spades_kept(self: HydratedPassCards, ctx: Any) -> None:
    _PASS_CHECK(self, ctx)
    if any(card.code == "QS" for card in self.cards):  # broken: a house rule OpenSpiel does not have
        raise IllegalActionError("queen-kept", "the queen of spades may not be passed")


def _a_neighbour_s_card_too(
    cls: Any, state: HydratedHeartsGameState, player_id: str
) -> Sequence[HydratedPassCards]:
    passes = _PASS_ENUMERATE(state, player_id)
    seats = [player.player_id for player in state.players]
    neighbour = state.players[(seats.index(player_id) + 1) % len(seats)]
    hand = state.player(player_id).hand
    extra = cls.candidate(state, player_id, cards=[*hand[:2], neighbour.hand[0]])  # broken: not held
    return [*passes, extra] if passes else passes


def _any_card_of_the_deck(self: HydratedPassCards, ctx: Any) -> None:
    if ctx.state.player(self.player_id).has_passed:  # broken: the cards need not be in the hand
        raise IllegalActionError("already-passed", "passed")


@pytest.mark.slow
@pytest.mark.parametrize(
    "patches",
    [
        {"enumerate": classmethod(_last_card_kept)},
        {"check": _queen_of_spades_kept},
        {"enumerate": classmethod(_a_neighbour_s_card_too), "check": _any_card_of_the_deck},
    ],
    ids=["a-card-dropped-from-enumerate", "a-card-refused-by-check", "a-card-not-held-added"],
)
def test_a_broken_pass_makes_the_crosscheck_fail(
    monkeypatch: pytest.MonkeyPatch, patches: dict[str, Any]
) -> None:
    """A pass that offers one card too few or too many fails the pass's comparison with OpenSpiel."""
    for name, broken in patches.items():
        monkeypatch.setattr(HydratedPassCards, name, broken)
    with pytest.raises(MismatchError, match="our passes name"):
        list(crosscheck({}, 4, seed=5))


OPENSPIEL_DEFAULTS: dict[str, Any] = dict(pyspiel.load_game("hearts").get_type().parameter_specification)
"""OpenSpiel's hearts parameters and their defaults, as its game type declares them."""


def test_our_rule_options_are_openspiel_s_hearts_parameters() -> None:
    """Every OpenSpiel hearts parameter is an option of ours, and every rule option of ours is one."""
    assert set(OPENSPIEL_DEFAULTS) == set(HeartsRules.model_fields)
    assert set(OPENSPIEL_DEFAULTS) <= set(HeartsConfig.model_fields)
    assert set(HeartsConfig.model_fields) - set(OPENSPIEL_DEFAULTS) == {"target_score"}


@pytest.mark.parametrize("name", sorted(OPENSPIEL_DEFAULTS))
def test_each_rule_option_defaults_to_openspiel_s(name: str) -> None:
    """Our default of each option is OpenSpiel's, of the same type, in the spec and in a loaded game."""
    spec = OPENSPIEL_DEFAULTS[name]
    assert pyspiel.load_game("hearts").get_parameters()[name] == spec
    for ours in (HeartsConfig.model_fields[name].default, HeartsConfig().rules().model_dump()[name]):
        assert (type(ours), ours) == (type(spec), spec)


def test_our_default_rules_load_openspiel_s_default_game() -> None:
    """Our default rules, passed to OpenSpiel as they are, give its default game's parameters."""
    loaded = pyspiel.load_game("hearts", HeartsConfig().rules().model_dump()).get_parameters()
    assert loaded == pyspiel.load_game("hearts").get_parameters() == OPENSPIEL_DEFAULTS
