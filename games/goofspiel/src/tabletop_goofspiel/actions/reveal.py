"""Reveal: the system turns both bids over, awards or discards the prize, and spends the bid cards."""

from typing import Literal

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState, PrizeRound


class RevealMetadata(PrizeRound):
    """What a Reveal showed and decided: the round's record and the scores after it."""

    scores: dict[str, int]
    """Each player's total after the round, by player id, in seating order."""


class Reveal(GameAction):
    """Reveal this round's bids: the higher card takes the prize's points, equal cards discard it."""

    system_only = True

    type: Literal[ActionType.REVEAL] = ActionType.REVEAL
    """The action tag."""
    metadata: RevealMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedReveal(Reveal, HydratedAction[Reveal, HydratedGoofspielGameState, GoofspielConfig]):
    """Reveal's rules: queued by the game once both bids are in; players never submit it."""

    def check(self, ctx: Ctx) -> None:
        """Code ``bids-missing``: there is no round whose bids are all in."""
        auction = ctx.state.auction
        if auction is None or not auction.is_over:
            raise IllegalActionError("bids-missing", "there are no complete bids to reveal")

    def apply(self, ctx: Ctx) -> None:
        """Award the prize to the higher bid (a tie discards it), spend both bids, close the round."""
        state = ctx.state
        auction = state.current_auction()
        result = auction.result
        assert result is not None and state.prize is not None
        bids = auction.revealed_bids()
        winner_id = None if result.tie else result.winner_id
        if winner_id is not None:
            state.player(winner_id).score += state.prize
        for player_id, card in bids.items():
            state.player(player_id).hand.remove(card)
        record = PrizeRound(round=state.round_number, prize=state.prize, bids=bids, winner_id=winner_id)
        state.rounds.append(record)
        state.prize = None
        state.auction = None
        scores = {player.player_id: player.score for player in state.players}
        self.metadata = RevealMetadata(**record.model_dump(), scores=scores)
