"""Goofspiel's invariants: one sealed bid per player, and every card and prize accounted for."""

from collections import Counter
from collections.abc import Iterator

from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import GoofspielGameState


def _card_count(state: GoofspielGameState) -> int:
    return len(state.rounds) + (0 if state.prize is None else 1) + len(state.prize_deck)


def invariants(state: GoofspielGameState) -> Iterator[str]:
    """One line per broken rule.

    With N cards (the prizes up, in the deck and won or discarded), the prizes are 1..N once
    each; each player's hand and the cards they bid in past rounds are 1..N once each; each
    score is the sum of the prizes its player took; rounds are numbered 1, 2, ...; the open
    auction holds at most one bid per player, from a participant, of a card in their hand.
    While the bidding is on, a prize is up, its auction is open and so is the round's
    simultaneous group.
    """
    up = [] if state.prize is None else [state.prize]
    prizes = sorted([record.prize for record in state.rounds] + up + list(state.prize_deck))
    cards = list(range(1, len(prizes) + 1))
    if prizes != cards:
        yield f"the prizes are {prizes}, not 1..{len(prizes)} once each"
    numbers = [record.round for record in state.rounds]
    if numbers != list(range(1, len(numbers) + 1)):
        yield f"rounds are numbered {numbers}"
    for player in state.players:
        spent = [record.bids.get(player.player_id) for record in state.rounds]
        if None in spent:
            yield f"{player.player_id} has no bid in some past round"
        held = sorted([*player.hand, *(card for card in spent if card is not None)])
        if sorted(player.hand) != player.hand or held != cards:
            yield (
                f"{player.player_id}'s hand {player.hand} and past bids {spent} are not 1..{len(cards)} once"
            )
        won = sum(record.prize for record in state.rounds if record.winner_id == player.player_id)
        if player.score != won:
            yield f"{player.player_id} scores {player.score} but took prizes worth {won}"
    auction = state.auction
    bidding = state.result is None and state.machine_state == MachineState.BIDDING
    if bidding and (state.prize is None or auction is None or state.simultaneous_group is None):
        yield "the bidding is on, but no prize is up, no auction or no simultaneous group is open"
    if auction is not None:
        bids = Counter(bid.participant_id for bid in auction.bids)
        for bidder, times in sorted(bids.items()):
            if times > 1:
                yield f"{bidder} has {times} sealed bids"
            if bidder not in auction.participants:
                yield f"{bidder} bid but is not in the auction"
        for bid in auction.bids:
            hand = next((p.hand for p in state.players if p.player_id == bid.participant_id), [])
            if bid.amount not in hand:
                yield f"{bid.participant_id} bid a card they do not hold"


def config_invariants(state: GoofspielGameState, config: GoofspielConfig) -> Iterator[str]:
    """The game has the config's N cards (each hand, the prizes)."""
    count = _card_count(state)
    if count != config.cards:
        yield f"the state has {count} prize cards, its config {config.cards}"
