"""What the OpenSpiel and PettingZoo adapters share: action numbering and per-game hints.

- :class:`ActionCodec` numbers every action a game's players can take, from each action
  class's ``action_space(game)``: a stable discrete action space; :class:`ChanceCodec` numbers
  the outcomes of the declared chance points (OpenSpiel's chance actions).
- :func:`register_adapter_hints` lets a game declare its length bound (default: 1000 player
  actions, after which a game is cut off), a numeric :class:`ObservationTensor` and whether
  it has perfect information.

The adapters themselves are :mod:`tabletop.openspiel` and :mod:`tabletop.pettingzoo` (each
needs its extra).
"""

from tabletop.adapters._chance_codec import ChanceCodec
from tabletop.adapters._codec import ActionCodec
from tabletop.adapters._hints import AdapterHints, ObservationTensor, adapter_hints, register_adapter_hints

__all__ = [
    "ActionCodec",
    "AdapterHints",
    "ChanceCodec",
    "ObservationTensor",
    "adapter_hints",
    "register_adapter_hints",
]
