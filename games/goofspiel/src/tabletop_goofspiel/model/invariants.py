"""Goofspiel's invariants: one sealed bid per player, and every card and prize accounted for."""

from collections import Counter
from collections.abc import Iterator

from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import GoofspielGameState


def _card_count(state: GoofspielGameState) -> int:
    """N: a player's hand (bid cards leave it at the reveal) plus the rounds played."""
    return len(state.players[0].hand) + len(state.rounds) if state.players else 0


def _seen(state: GoofspielGameState) -> list[int]:
    """The prizes turned up so far, in the order they came up."""
    return [record.prize for record in state.rounds] + ([] if state.prize is None else [state.prize])


def invariants(state: GoofspielGameState) -> Iterator[str]:
    """One line per broken rule.

    With N cards (each hand plus the rounds played), the prizes turned up (past and up) are
    among 1..N, once each; each player's hand and the cards they bid in past rounds are 1..N
    once each; each score is the sum of the prizes its player took; rounds are numbered 1, 2,
    ...; the open auction holds at most one bid per player, from a participant, of a card in
    their hand. While the bidding is on, either a prize is up with its auction and the round's
    simultaneous group open, or no prize is up yet (its ``RevealPrize`` is pending), no auction
    is open and nobody is active.
    """
    cards = list(range(1, _card_count(state) + 1))
    prizes = _seen(state)
    if len(set(prizes)) != len(prizes) or not set(prizes) <= set(cards):
        yield f"the prizes turned up are {prizes}, not among 1..{len(cards)} once each"
    if (
        state.result is None
        and state.machine_state != MachineState.GAME_OVER
        and len(state.rounds) >= len(cards)
    ):
        yield f"{len(state.rounds)} rounds of {len(cards)} are played, but the game is not over"
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
    if bidding and state.prize is not None and (auction is None or state.simultaneous_group is None):
        yield "a prize is up for bidding, but no auction or no simultaneous group is open"
    if bidding and state.prize is None and (auction is not None or state.active_player_ids):
        yield "no prize is up, but an auction is open or a player is active"
    if auction is not None:
        if state.prize is None:
            yield "an auction is open, but no prize is up"
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
    """The game has the config's N cards (each hand plus the rounds); a fixed order was kept."""
    count = _card_count(state)
    if count != config.cards:
        yield f"the state has {count} cards, its config {config.cards}"
    prizes = _seen(state)
    if config.points_order != "random":
        first = config.cards if config.points_order == "descending" else 1
        step = -1 if config.points_order == "descending" else 1
        expected = [first + step * index for index in range(len(prizes))]
        if prizes != expected:
            yield f"the prizes came up as {prizes}, not in {config.points_order} order"
