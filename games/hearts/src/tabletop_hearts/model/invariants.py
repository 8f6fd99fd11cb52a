"""Hearts' invariants: the 52 cards are each somewhere exactly once, and the counts add up."""

from collections import Counter
from collections.abc import Iterator

from tabletop_hearts.components.cards import CARDS_IN_PASS, DECK, PLAYERS, TRICKS, sort_key
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HeartsGameState


def invariants(state: HeartsGameState) -> Iterator[str]:
    """One line per broken rule.

    Once dealt, the hands, the trick on the table and the finished tricks hold the 52 cards once
    each; hands are sorted; every finished trick has four cards, played and taken by seated players,
    each playing once; a pass is three cards of the
    passer's hand; a player's points this deal are those of the tricks they took (until the deal
    is settled) and their total is the sum of the finished deals'.
    """
    if state.deal_number == 0:
        return
    cards = Counter(card for player in state.players for card in player.hand)
    cards.update(play.card for play in state.trick)
    cards.update(play.card for trick in state.tricks for play in trick.cards)
    missing = [card.code for card in DECK if card not in cards]
    doubled = [f"{card.code} x{times}" for card, times in cards.items() if times > 1]
    if missing:
        yield f"{len(missing)} card(s) are nowhere: {' '.join(missing)}"
    if doubled:
        yield f"cards are in several places: {' '.join(doubled)}"
    if len(state.tricks) > TRICKS or len(state.trick) >= PLAYERS:
        yield f"{len(state.tricks)} finished tricks and {len(state.trick)} cards on the table"
    seated = {player.player_id for player in state.players}
    for where, plays in [
        ("the table", state.trick),
        *((f"trick {n + 1}", t.cards) for n, t in enumerate(state.tricks)),
    ]:
        players = [play.player_id for play in plays]
        if not set(players) <= seated or len(set(players)) != len(players):
            yield f"{where} has plays by {players}: each seat plays at most once, and only seats play"
    strangers = sorted({trick.winner_id for trick in state.tricks} - seated)
    if strangers:
        yield f"tricks were taken by {strangers}, who are not seated"
    settled = len(state.deals) == state.deal_number
    for player in state.players:
        pid = player.player_id
        if sorted(player.hand, key=sort_key) != player.hand:
            yield f"{pid}'s hand is not sorted"
        passing = state.machine_state == MachineState.PASSING and player.passed
        if passing and (len(player.passed) != CARDS_IN_PASS or not set(player.passed) <= set(player.hand)):
            yield f"{pid} passes {len(player.passed)} cards, not three of their hand"
        taken = [trick for trick in state.tricks if trick.winner_id == pid]
        if player.tricks_won != len(taken):
            yield f"{pid} won {player.tricks_won} tricks by their count, {len(taken)} by the tricks"
        if not settled and player.points != sum(trick.points for trick in taken):
            yield f"{pid} has {player.points} points but took tricks worth {sum(t.points for t in taken)}"
        total = sum(deal.points.get(pid, 0) for deal in state.deals)
        if player.score != total:
            yield f"{pid} has a total of {player.score}, the deals add up to {total}"


def config_invariants(state: HeartsGameState, config: HeartsConfig) -> Iterator[str]:
    """The state plays by its config's rule options."""
    if state.rules != config.rules():
        yield f"the state's rules {state.rules!r} are not its config's"
