"""Realtime: the hub that wakes event streams when a match changes.

Stream tokens (single-use, short-lived) are kept by the store, so any worker can redeem them;
the streams themselves read what changed from the action log (``tabletop_server._streams``).
``hub_for(url)`` picks the hub: ``PostgresHub`` (``LISTEN``/``NOTIFY``, several workers) for
PostgreSQL, ``InProcessHub`` for SQLite. ``make_delta``/``apply_delta`` are the compact diffs an
``update`` event carries (what changed in a perspective's view since an earlier event).
``SharedSteps`` and ``BoundedWriter`` are the fan-out: in-step streams share each change's work,
and a client that does not read is dropped instead of holding anything up.
"""

from tabletop_server.events._delta import DeltaError, apply_delta, make_delta
from tabletop_server.events._fanout import BoundedWriter, SharedSteps, StreamCounter
from tabletop_server.events._hub import EventHub, InProcessHub, MatchChange, Subscription
from tabletop_server.events._postgres import LISTENER_APPLICATION_NAME, PostgresHub, hub_for

__all__ = [
    "LISTENER_APPLICATION_NAME",
    "BoundedWriter",
    "DeltaError",
    "EventHub",
    "InProcessHub",
    "MatchChange",
    "PostgresHub",
    "SharedSteps",
    "StreamCounter",
    "Subscription",
    "apply_delta",
    "hub_for",
    "make_delta",
]
