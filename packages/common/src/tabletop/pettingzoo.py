"""Tabletop games in PettingZoo: any installed game as an AEC environment.

Needs the ``pettingzoo`` extra (``pip install 'tabletop-common[pettingzoo]'``).

Example:
    >>> from tabletop.pettingzoo import TabletopEnv
    >>> env = TabletopEnv("tic-tac-toe")
    >>> env.reset(seed=42)
    >>> env.agent_selection, int(env.observe(env.agent_selection)["action_mask"].sum())
    ('player_0', 9)
"""

try:
    import gymnasium
    import numpy
    import pettingzoo
except ImportError as error:  # pragma: no cover - exercised by removing the extra
    msg = "tabletop.pettingzoo needs the 'pettingzoo' extra: pip install 'tabletop-common[pettingzoo]'"
    raise ImportError(msg, name=error.name) from error

from tabletop.adapters._pettingzoo import DEFAULT_OBSERVATION_BYTES, Observation, TabletopEnv

del gymnasium, numpy, pettingzoo

__all__ = ["DEFAULT_OBSERVATION_BYTES", "Observation", "TabletopEnv"]
