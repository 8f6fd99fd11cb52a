"""Tic-tac-toe as a numeric tensor, for learning agents in OpenSpiel and PettingZoo."""

from tabletop.adapters import ObservationTensor

from tabletop_tic_tac_toe.model.game_state import TicTacToeGameState


def observation_planes(state: TicTacToeGameState, player_id: str) -> list[float]:
    """Three 3x3 planes, row by row: the player's marks, the opponent's marks, the empty squares."""
    cells = [cell for row in state.board.cells for cell in row]
    theirs = [float(cell is not None and cell != player_id) for cell in cells]
    return [*(float(cell == player_id) for cell in cells), *theirs, *(float(cell is None) for cell in cells)]


OBSERVATION_TENSOR = ObservationTensor(shape=(3, 3, 3), encode=observation_planes)
"""The planes as a tensor of shape (plane, row, column), values 0 or 1."""
