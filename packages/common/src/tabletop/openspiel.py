"""Tabletop games in OpenSpiel: every installed game as a registered Python game.

Needs the ``openspiel`` extra (``pip install 'tabletop-common[openspiel]'``).

Each game registers as ``tabletop_<name>`` (``tic-tac-toe`` -> ``tabletop_tic_tac_toe``) with
parameters ``players``, ``seed`` (the game's PRNG seed: games are deterministic given their
parameters, so OpenSpiel sees no chance nodes), ``max_game_length`` and the game's scalar
config options. Actions are numbered by :class:`tabletop.adapters.ActionCodec`; seats are
``player_0``..``player_{n-1}``; a won game returns +1 to each winner and -1 to the others, a
draw (or a game cut off after ``max_game_length`` player actions) 0 to all. Games for exactly
two players are declared zero-sum, others general-sum.

Example:
    >>> from tabletop.openspiel import load_game
    >>> game = load_game("tic-tac-toe")
    >>> state = game.new_initial_state()
    >>> state.current_player(), len(state.legal_actions())
    (0, 9)
"""

try:
    import numpy
    import pyspiel
except ImportError as error:  # pragma: no cover - exercised by removing the extra
    msg = "tabletop.openspiel needs the 'openspiel' extra: pip install 'tabletop-common[openspiel]'"
    raise ImportError(msg, name=error.name) from error

from tabletop.adapters._openspiel import (
    TabletopGame,
    TabletopState,
    load_game,
    register_all,
    register_game,
    short_name,
)

del numpy, pyspiel

__all__ = ["TabletopGame", "TabletopState", "load_game", "register_all", "register_game", "short_name"]
