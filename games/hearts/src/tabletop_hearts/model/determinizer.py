"""Hearts' determinizer: a full state consistent with one seat's view, for search bots."""

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from tabletop.bots import fill_hidden
from tabletop.components import Card, Suit
from tabletop.views import view_type

from tabletop_hearts.components.cards import DECK, TWO_OF_CLUBS, card_key, sort_key
from tabletop_hearts.model.game_state import HeartsGameState, HydratedHeartsGameState

__all__ = ["TRIES", "determinize"]

TRIES = 20
"""Random deals tried before the cards are placed by matching (which always succeeds)."""


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedHeartsGameState:
    """A full Hearts state that ``seat``'s projected view cannot tell from the real one.

    Kept as seen: the seat's own hand, pass and received cards, the tricks, the points. The
    cards the seat cannot see (the deck minus its hand minus the cards played) are dealt to
    the other players, each as many as their ``hand_count``, consistently with what is public
    or known to the seat: a player who did not follow a suit holds none of it; the cards the
    seat passed (once the pass has landed) and not yet played are in their receiver's hand; the
    player to lead the deal's first trick holds the two of clubs. Another player's hidden pass
    (chosen, not landed yet) is three cards drawn from their dealt hand. The PRNG, hidden from
    every view, gets a fresh seed drawn from ``rng``. A spectator's view (``seat`` None) deals
    every hand. Everything else is a structural copy of the view (:func:`tabletop.bots.fill_hidden`).

    The deal itself is a chance point (``DealCard``, each card from those not dealt yet), so the
    unseen cards are exactly the outcomes the deal could have given the others, less what they
    have shown since; between deals (nothing dealt yet) the others hold nothing.

    Args:
        view: ``seat``'s view of a Hearts state (``project(state, seat)``); not changed.
        seat: The player whose view it is; None for a spectator's view.
        rng: The bot's generator: the only source of randomness.

    Raises:
        ValueError: ``view`` is not a view of a Hearts state for ``seat``, or its counts do not
            add up to the unseen cards, or no deal satisfies what it shows.
    """
    whose = "a spectator" if seat is None else repr(seat)
    if not isinstance(view, view_type(HeartsGameState, spectator=seat is None)):
        msg = f"not {whose}'s view of a Hearts state: a {type(view).__name__}"
        raise ValueError(msg)
    seen: Any = view  # a derived view type: its fields are the state's, read untyped
    players: Sequence[Any] = seen.players
    ids: list[str] = [player.player_id for player in players]
    mine = next((player for player in players if player.player_id == seat), None)
    if seat is not None and (mine is None or mine.hand is None):
        msg = f"not {whose}'s view of a Hearts state"
        raise ValueError(msg)
    others = [player for player in players if player is not mine]
    hidden: dict[str, dict[str, list[Card]]] = {
        name: {player.player_id: [] for player in others} for name in ("hand", "passed", "received")
    }
    if seen.deal_number > 0 and seen.machine_state in {"Passing", "Playing"}:
        _deal_unseen(seen, mine, others, ids, hidden, rng)

    def fill(part: Any, name: str) -> list[Card]:
        return hidden[name][part.player_id]

    return fill_hidden(view, HydratedHeartsGameState, fill, rng)


def _deal_unseen(
    seen: Any,
    mine: Any,
    others: list[Any],
    ids: list[str],
    hidden: dict[str, dict[str, list[Card]]],
    rng: random.Random,
) -> None:
    """Deal the unseen cards to ``others`` (into ``hidden``), then fill in their hidden passes."""
    tricks: list[Sequence[Any]] = [trick.cards for trick in seen.tricks]
    plays = [play for cards in tricks for play in cards] + list(seen.trick)
    played = {card_key(play.card) for play in plays}  # plain tuples: a card model hashes slowly
    held = set() if mine is None else {card_key(card) for card in mine.hand}
    unseen = [card for card in DECK if card_key(card) not in held and card_key(card) not in played]
    sizes: dict[str, int] = {player.player_id: int(player.hand_count) for player in others}
    if sum(sizes.values()) != len(unseen):
        msg = f"the view shows {sum(sizes.values())} cards in other hands, but {len(unseen)} cards are unseen"
        raise ValueError(msg)
    voids: dict[str, set[Suit]] = {pid: set() for pid in sizes}
    for trick in [*tricks, list(seen.trick)]:
        if not trick:
            continue
        led = trick[0].card.suit
        for play in trick[1:]:
            if play.player_id in voids and play.card.suit is not led:
                voids[play.player_id].add(led)
    fixed: dict[Card, str] = {}
    playing = seen.machine_state == "Playing"
    offset: int = seen.pass_direction.offset
    if mine is not None and playing and offset:
        receiver = ids[(ids.index(mine.player_id) + offset) % len(ids)]
        for card in mine.passed:
            if card_key(card) not in played and receiver in sizes:
                fixed[card] = receiver
    if playing and not played and card_key(TWO_OF_CLUBS) not in held:
        leader = str(seen.active_player_ids[0]) if seen.active_player_ids else ""
        if leader in sizes:
            fixed[TWO_OF_CLUBS] = leader
    hands = _assign(unseen, sizes, voids, fixed, rng)
    for pid, hand in hands.items():
        hidden["hand"][pid] = sorted(hand, key=sort_key)
    _fill_passes(seen, mine, others, ids, offset, hidden, rng)


def _fill_passes(
    seen: Any,
    mine: Any,
    others: list[Any],
    ids: list[str],
    offset: int,
    hidden: dict[str, dict[str, list[Card]]],
    rng: random.Random,
) -> None:
    """Hidden passes: drawn from the passer's hand while passing; after the pass, what is known."""
    passing = seen.machine_state == "Passing"
    for player in others:
        if passing and player.has_passed:
            hidden["passed"][player.player_id] = rng.sample(hidden["hand"][player.player_id], 3)
    if passing or not offset or mine is None:
        return
    pid = mine.player_id
    hidden["received"][ids[(ids.index(pid) + offset) % len(ids)]] = list(mine.passed)
    hidden["passed"][ids[(ids.index(pid) - offset) % len(ids)]] = list(mine.received)


def _assign(
    cards: list[Card],
    sizes: dict[str, int],
    voids: dict[str, set[Suit]],
    fixed: dict[Card, str],
    rng: random.Random,
) -> dict[str, list[Card]]:
    """Give each player ``sizes[player]`` of ``cards``: ``fixed`` ones to their holder, no void suit."""
    taken = {card_key(card) for card in fixed}
    for _ in range(TRIES):
        hands: dict[str, list[Card]] = {pid: [] for pid in sizes}
        room = dict(sizes)
        for card, pid in fixed.items():
            hands[pid].append(card)
            room[pid] -= 1
        free = [card for card in cards if card_key(card) not in taken]
        rng.shuffle(free)
        free.sort(key=lambda card: sum(card.suit not in voids[pid] for pid in sizes))
        failed = min(room.values(), default=0) < 0
        for card in free:
            if failed:
                break
            choices = [pid for pid in sizes if room[pid] > 0 and card.suit not in voids[pid]]
            if not choices:
                failed = True
                break
            pid = rng.choices(choices, weights=[room[c] for c in choices])[0]
            hands[pid].append(card)
            room[pid] -= 1
        if not failed:
            return hands
    return _match(cards, sizes, voids, fixed, rng)


def _match(
    cards: list[Card],
    sizes: dict[str, int],
    voids: dict[str, set[Suit]],
    fixed: dict[Card, str],
    rng: random.Random,
) -> dict[str, list[Card]]:
    """Place the cards by bipartite matching (cards to seats' free places); raises if impossible."""
    slots = [pid for pid in sizes for _ in range(sizes[pid])]
    rng.shuffle(slots)
    owner: dict[int, Card] = {}

    def allowed(card: Card, pid: str) -> bool:
        return fixed[card] == pid if card in fixed else card.suit not in voids[pid]

    def place(card: Card, seen: set[int]) -> bool:
        for slot, pid in enumerate(slots):
            if slot in seen or not allowed(card, pid):
                continue
            seen.add(slot)
            if slot not in owner or place(owner[slot], seen):
                owner[slot] = card
                return True
        return False

    for card in cards:
        if not place(card, set()):
            msg = f"no deal of the unseen cards fits what the view shows ({card.code} has no place)"
            raise ValueError(msg)
    hands: dict[str, list[Card]] = {pid: [] for pid in sizes}
    for slot, card in owner.items():
        hands[slots[slot]].append(card)
    return hands
