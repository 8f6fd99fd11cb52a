"""A serializable set of grid coordinates (territory, visited cells, highlights...).

Use it as a state field: ``claimed: NodeSet[Hex] = Field(default_factory=NodeSet[Hex])``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Generic, Self, TypeVar

from pydantic import Field, model_validator

from tabletop._model import Model
from tabletop.boards._coordinates import Hex, Square

__all__ = ["NodeSet"]

NodeT = TypeVar("NodeT", Square, Hex)


def _sort_key(node: Square | Hex) -> tuple[int, int]:
    return node.sort_key()


class NodeSet(Model, Generic[NodeT]):
    """A set of squares or hexes, kept sorted row by row without duplicates.

    Equal sets serialize to identical JSON. Change it through its methods (which keep that
    order), not by editing the nodes list.
    """

    nodes: list[NodeT] = Field(default_factory=list)
    """The members, sorted row by row (by ``y`` then ``x``, or ``r`` then ``q``), no duplicates."""

    @model_validator(mode="after")
    def _canonical(self) -> Self:
        self.nodes = sorted(set(self.nodes), key=_sort_key)
        return self

    def _index(self, node: NodeT) -> int:
        return bisect_left(self.nodes, node.sort_key(), key=_sort_key)

    def __contains__(self, node: object) -> bool:
        if not isinstance(node, Square | Hex):
            return False
        index = bisect_left(self.nodes, node.sort_key(), key=_sort_key)
        return index < len(self.nodes) and self.nodes[index] == node

    def __len__(self) -> int:
        return len(self.nodes)

    def add(self, node: NodeT) -> bool:
        """Add ``node``; True if it was not a member yet.

        Example:
            >>> from tabletop.boards import Hex, NodeSet
            >>> claimed = NodeSet[Hex](nodes=[Hex(q=1, r=0), Hex(q=0, r=0), Hex(q=1, r=0)])
            >>> len(claimed), Hex(q=0, r=0) in claimed
            (2, True)
            >>> claimed.add(Hex(q=0, r=-1)), claimed.add(Hex(q=0, r=-1))
            (True, False)
            >>> [hex_.key for hex_ in claimed.nodes]
            ['0,-1', '0,0', '1,0']
        """
        index = self._index(node)
        if index < len(self.nodes) and self.nodes[index] == node:
            return False
        self.nodes.insert(index, node)
        return True

    def discard(self, node: NodeT) -> bool:
        """Remove ``node`` if present; True if it was a member."""
        index = self._index(node)
        if index < len(self.nodes) and self.nodes[index] == node:
            del self.nodes[index]
            return True
        return False

    def update(self, nodes: Iterable[NodeT]) -> None:
        """Add every node of ``nodes``."""
        merged = set(self.nodes)
        merged.update(nodes)
        self.nodes = sorted(merged, key=_sort_key)

    def union(self, other: Iterable[NodeT]) -> Self:
        """A new set with the members of both."""
        merged = list(self.nodes)
        merged.extend(other)
        return type(self)(nodes=merged)

    def intersection(self, other: Iterable[NodeT]) -> Self:
        """A new set with the members also in ``other``."""
        keep = set(other)
        return type(self)(nodes=[node for node in self.nodes if node in keep])

    def difference(self, other: Iterable[NodeT]) -> Self:
        """A new set with the members not in ``other``."""
        drop = set(other)
        return type(self)(nodes=[node for node in self.nodes if node not in drop])
