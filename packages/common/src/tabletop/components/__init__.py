"""Reusable, schema-backed building blocks for game states."""

from tabletop._frozen import FrozenDict
from tabletop.components._auction import AuctionEntry, AuctionResult, TieBreak, bidding_order
from tabletop.components._auction_fixed_price import FixedPriceAuction, HydratedFixedPriceAuction
from tabletop.components._auction_once_around import HydratedOnceAroundAuction, OnceAroundAuction
from tabletop.components._auction_open import HydratedOpenAuction, OpenAuction
from tabletop.components._auction_sealed import HydratedSealedBidAuction, SealedBid, SealedBidAuction
from tabletop.components._cards import Card, Rank, Suit, standard_deck
from tabletop.components._dice import DicePool, Die, HydratedDicePool, HydratedDie
from tabletop.components._draw_bag import DrawBag, EmptyBagError, HydratedDrawBag
from tabletop.components._phase_manager import HydratedPhaseManager, PhaseManager, PhaseSpan
from tabletop.components._round_manager import HydratedRoundManager, Round, RoundManager
from tabletop.components._turn_manager import Turn, TurnManager

__all__ = [
    "AuctionEntry",
    "AuctionResult",
    "Card",
    "DicePool",
    "Die",
    "DrawBag",
    "EmptyBagError",
    "FixedPriceAuction",
    "FrozenDict",
    "HydratedDicePool",
    "HydratedDie",
    "HydratedDrawBag",
    "HydratedFixedPriceAuction",
    "HydratedOnceAroundAuction",
    "HydratedOpenAuction",
    "HydratedPhaseManager",
    "HydratedRoundManager",
    "HydratedSealedBidAuction",
    "OnceAroundAuction",
    "OpenAuction",
    "PhaseManager",
    "PhaseSpan",
    "Rank",
    "Round",
    "RoundManager",
    "SealedBid",
    "SealedBidAuction",
    "Suit",
    "TieBreak",
    "Turn",
    "TurnManager",
    "bidding_order",
    "standard_deck",
]
