"""Ask: ask another player for a rank you hold; they hand over every card of it, or say "go fish"."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model
from tabletop.components import Card, Rank

from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.definition.actions import ActionType
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import Ctx, GoFishGameState, HydratedGoFishGameState, pass_turn


class AskMetadata(Model):
    """What an Ask did; all of it is public."""

    received: list[Card] = Field(default_factory=list)
    """The cards the target handed over, now shown to everyone; empty if they said "go fish"."""
    go_fish: bool
    """True if the target had none: the asker draws from the deck, or the turn passes if it is empty."""
    book: Rank | None = None
    """The rank of the book the handed-over cards completed, laid down at once; null if none."""


class Ask(GameAction):
    """Ask another player for every card they hold of a rank you hold."""

    type: Literal[ActionType.ASK] = ActionType.ASK
    """The action tag."""
    player_id: str
    """The asking player, who is on turn."""
    target_player_id: str
    """The player asked; not the asker, and not a player who is out."""
    rank: Rank
    """The rank asked for; the asker must hold at least one card of it."""
    metadata: AskMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedAsk(Ask, HydratedAction[Ask, HydratedGoFishGameState, GoFishConfig]):
    """Ask's rules: a match keeps the turn; "go fish" makes the asker draw (see DrawCard)."""

    @staticmethod
    def can_ask(state: GoFishGameState, player_id: str) -> bool:
        """True if ``player_id`` is on turn and holds a card (someone to ask then always exists)."""
        return state.is_active(player_id) and bool(state.player(player_id).hand)

    def check(self, ctx: Ctx) -> None:
        state, target = ctx.state, self.target_player_id
        if target == self.player_id:
            raise IllegalActionError("cannot-ask-self", "ask another player", path="target_player_id")
        if target not in {player.player_id for player in state.players}:
            raise IllegalActionError("unknown-target", f"no player {target!r}", path="target_player_id")
        if state.is_out(target):
            raise IllegalActionError("target-out", f"{target} is out of cards", path="target_player_id")
        if all(card.rank != self.rank for card in state.player(self.player_id).hand):
            raise IllegalActionError("not-holding-rank", f"you hold no {self.rank}", path="rank")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        giver = state.player(self.target_player_id)
        received = [card for card in giver.hand if card.rank == self.rank]
        giver.hand = [card for card in giver.hand if card.rank != self.rank]
        state.player(self.player_id).hand.extend(received)
        giver.note(self.rank, held=False)
        state.player(self.player_id).note(self.rank, held=True)
        book = state.lay_book(self.player_id, self.rank)
        self.metadata = AskMetadata(received=received, go_fish=not received, book=self.rank if book else None)
        if received:
            return  # the asker goes again
        if not state.deck:
            pass_turn(ctx)
        else:
            ctx.add_system_action(HydratedDrawCard, player_id=self.player_id, fishing_for=self.rank)

    @classmethod
    def enumerate(cls, state: HydratedGoFishGameState, player_id: str) -> list[Self]:
        if not cls.can_ask(state, player_id):
            return []
        held = {card.rank for card in state.player(player_id).hand}
        targets = [p.player_id for p in state.players if p.player_id != player_id]
        return [
            cls.candidate(state, player_id, target_player_id=target, rank=rank)
            for target in targets
            if not state.is_out(target)
            for rank in Rank
            if rank in held
        ]

    @classmethod
    def action_space(cls, game: Game[GoFishConfig]) -> list[dict[str, JsonValue]]:
        """Every seat (the asker's own included: seats are shared) times every rank, seat by seat."""
        return [{"target_player_id": seat.id, "rank": rank.value} for seat in game.players for rank in Rank]
