"""One handler instance per machine state."""

from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.state_handlers.dealing import Dealing
from tabletop_gallery.state_handlers.double_offer import DoubleOffer
from tabletop_gallery.state_handlers.fixed_price_offer import FixedPriceOffer
from tabletop_gallery.state_handlers.game_over import GameOver
from tabletop_gallery.state_handlers.once_around_bidding import OnceAroundBidding
from tabletop_gallery.state_handlers.open_bidding import OpenBidding
from tabletop_gallery.state_handlers.player_turn import PlayerTurn
from tabletop_gallery.state_handlers.price_setting import PriceSetting
from tabletop_gallery.state_handlers.revealing import Revealing
from tabletop_gallery.state_handlers.round_end import RoundEnd
from tabletop_gallery.state_handlers.sealed_bidding import SealedBidding
from tabletop_gallery.state_handlers.selling import Selling

state_handlers = {
    MachineState.DEALING: Dealing(),
    MachineState.PLAYER_TURN: PlayerTurn(),
    MachineState.DOUBLE_OFFER: DoubleOffer(),
    MachineState.OPEN_BIDDING: OpenBidding(),
    MachineState.ONCE_AROUND_BIDDING: OnceAroundBidding(),
    MachineState.SEALED_BIDDING: SealedBidding(),
    MachineState.REVEALING: Revealing(),
    MachineState.PRICE_SETTING: PriceSetting(),
    MachineState.FIXED_PRICE_OFFER: FixedPriceOffer(),
    MachineState.SELLING: Selling(),
    MachineState.ROUND_END: RoundEnd(),
    MachineState.GAME_OVER: GameOver(),
}
