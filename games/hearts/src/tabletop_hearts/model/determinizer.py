"""Hearts' determinizer: a full state consistent with one seat's view, for search bots."""

import random
from typing import Any

from pydantic import BaseModel
from tabletop.components import Card, Suit
from tabletop.views import view_type

from tabletop_hearts.components.cards import DECK, TWO_OF_CLUBS, sort_key
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
    every hand.

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
    data: dict[str, Any] = view.model_dump(mode="json")
    players: list[dict[str, Any]] = data["players"]
    ids = [player["player_id"] for player in players]
    mine = next((player for player in players if player["player_id"] == seat), None)
    if seat is not None and (mine is None or mine.get("hand") is None):
        msg = f"not {whose}'s view of a Hearts state"
        raise ValueError(msg)
    state_ids = {"Passing", "Playing"}
    dealt = data["deal_number"] > 0 and data["machine_state"] in state_ids
    others = [player for player in players if player is not mine]
    if not dealt:
        for player in others:
            player["hand"], player["passed"], player["received"] = [], [], []
    else:
        _deal_unseen(data, mine, others, ids, rng)
    for player in players:
        player.pop("hand_count", None)
    data["prng"] = {"seed": rng.getrandbits(32)}
    return HydratedHeartsGameState.model_validate(data)


def _cards(items: list[Any]) -> list[Card]:
    return [Card.model_validate(item) for item in items]


def _deal_unseen(
    data: dict[str, Any],
    mine: dict[str, Any] | None,
    others: list[dict[str, Any]],
    ids: list[str],
    rng: random.Random,
) -> None:
    """Deal the unseen cards to ``others`` in place, then fill in their hidden passes."""
    plays = [play for trick in data["tricks"] for play in trick["cards"]] + list(data["trick"])
    played = {Card.model_validate(play["card"]): play["player_id"] for play in plays}
    held = set() if mine is None else set(_cards(mine["hand"]))
    unseen = [card for card in DECK if card not in held and card not in played]
    sizes = {player["player_id"]: int(player["hand_count"]) for player in others}
    if sum(sizes.values()) != len(unseen):
        msg = f"the view shows {sum(sizes.values())} cards in other hands, but {len(unseen)} cards are unseen"
        raise ValueError(msg)
    voids: dict[str, set[Suit]] = {pid: set() for pid in sizes}
    for trick in [*(t["cards"] for t in data["tricks"]), data["trick"]]:
        if not trick:
            continue
        led = Card.model_validate(trick[0]["card"]).suit
        for play in trick[1:]:
            if play["player_id"] in voids and Card.model_validate(play["card"]).suit is not led:
                voids[play["player_id"]].add(led)
    fixed: dict[Card, str] = {}
    playing = data["machine_state"] == "Playing"
    offset = {"left": 1, "across": 2, "right": 3, "none": 0}[data["pass_direction"]]
    if mine is not None and playing and offset:
        receiver = ids[(ids.index(mine["player_id"]) + offset) % len(ids)]
        for card in _cards(mine["passed"]):
            if card not in played and receiver in sizes:
                fixed[card] = receiver
    if playing and not played and TWO_OF_CLUBS in unseen:
        leader = str(data["active_player_ids"][0]) if data["active_player_ids"] else ""
        if leader in sizes:
            fixed[TWO_OF_CLUBS] = leader
    hands = _assign(unseen, sizes, voids, fixed, rng)
    by_id = {player["player_id"]: player for player in others}
    for pid, hand in hands.items():
        by_id[pid]["hand"] = [card.model_dump(mode="json") for card in sorted(hand, key=sort_key)]
    _fill_passes(data, mine, others, ids, offset, rng)


def _fill_passes(
    data: dict[str, Any],
    mine: dict[str, Any] | None,
    others: list[dict[str, Any]],
    ids: list[str],
    offset: int,
    rng: random.Random,
) -> None:
    """Hidden passes: drawn from the passer's hand while passing; after the pass, what is known."""
    players = {player["player_id"]: player for player in data["players"]}
    passing = data["machine_state"] == "Passing"
    for player in others:
        player["passed"], player["received"] = [], []
        if passing and player["has_passed"]:
            player["passed"] = rng.sample(player["hand"], 3)
    if passing or not offset or mine is None:
        return
    pid = mine["player_id"]
    receiver = players[ids[(ids.index(pid) + offset) % len(ids)]]
    passer = players[ids[(ids.index(pid) - offset) % len(ids)]]
    receiver["received"] = list(mine["passed"])
    passer["passed"] = list(mine["received"])


def _assign(
    cards: list[Card],
    sizes: dict[str, int],
    voids: dict[str, set[Suit]],
    fixed: dict[Card, str],
    rng: random.Random,
) -> dict[str, list[Card]]:
    """Give each player ``sizes[player]`` of ``cards``: ``fixed`` ones to their holder, no void suit."""
    for _ in range(TRIES):
        hands: dict[str, list[Card]] = {pid: [] for pid in sizes}
        room = dict(sizes)
        for card, pid in fixed.items():
            hands[pid].append(card)
            room[pid] -= 1
        free = [card for card in cards if card not in fixed]
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
