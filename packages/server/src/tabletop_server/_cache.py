"""The worker's cache of hydrated matches: a hint, never the truth.

A submission starts from the cached match (its row at one revision, its seats, its game and its
hydrated state) instead of reading and re-hydrating it, runs the engine, and writes with the
store's compare-and-set on that revision. If another worker (or an undo) wrote the match since,
the write fails and the submission re-reads the match and runs again; a refusal computed from a
cached match (an illegal move, an unknown token) is likewise checked again against a fresh read
before it is answered. So a stale entry costs a retry, never a wrong answer, and workers still
hold no authoritative match state.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tabletop_server._match import LoadedMatch

__all__ = ["MatchCache"]


class MatchCache:
    """The most recently used matches of this worker, by id (thread-safe).

    Args:
        size: How many matches to keep.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._matches: OrderedDict[str, LoadedMatch] = OrderedDict()

    def get(self, match_id: str) -> LoadedMatch | None:
        """The cached match, or None."""
        with self._lock:
            match = self._matches.get(match_id)
            if match is not None:
                self._matches.move_to_end(match_id)
            return match

    def put(self, match: LoadedMatch) -> None:
        """Remember ``match`` unless a newer revision of it is cached already."""
        if self.size <= 0:
            return
        match_id = match.row.id
        with self._lock:
            known = self._matches.get(match_id)
            if known is not None and known.row.revision > match.row.revision:
                return
            self._matches[match_id] = match
            self._matches.move_to_end(match_id)
            while len(self._matches) > self.size:
                self._matches.popitem(last=False)

    def drop(self, match_id: str, *, unless_revision: int | None = None) -> None:
        """Forget a match (kept if it is cached at exactly ``unless_revision``)."""
        with self._lock:
            known = self._matches.get(match_id)
            if known is None:
                return
            if unless_revision is not None and known.row.revision == unless_revision:
                return
            del self._matches[match_id]

    def __len__(self) -> int:
        with self._lock:
            return len(self._matches)
