"""What tic-tac-toe knows about one player."""

from tabletop import PlayerState


class TicTacToePlayerState(PlayerState):
    """A tic-tac-toe player: nothing beyond their seat; their marks are on the board."""
