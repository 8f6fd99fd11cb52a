"""A draw bag: a deck of cards, a bag of tiles, any pile that items are drawn from.

Declare it as a plain field, e.g. ``deck: DrawBag[Card] = Field(default_factory=DrawBag[Card])``;
a hydrated state holds a :class:`HydratedDrawBag`, which has the behaviour (shuffle, draw, peek,
add, remove). The **top of the bag is the end of** ``items``: :meth:`HydratedDrawBag.draw` takes
the last item, and items added "on top" are appended. Randomness comes only from the state's
:class:`~tabletop.Prng`, so the same seed gives the same order.

Example:
    >>> from tabletop import Prng, PrngState
    >>> from tabletop.components import HydratedDrawBag
    >>> bag = HydratedDrawBag[str](items=["a", "b", "c"])
    >>> bag.draw(), len(bag)
    ('c', 2)
    >>> bag.add_to_bottom(["z"])
    >>> bag.items
    ['z', 'a', 'b']
    >>> prng = Prng(PrngState(seed=1))
    >>> bag.shuffle(prng)
    >>> sorted(bag.items), prng.state.invocations  # one draw per item, less one
    (['a', 'b', 'z'], 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from pydantic import Field

from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop._prng import Prng

__all__ = ["DrawBag", "EmptyBagError", "HydratedDrawBag"]

ItemT = TypeVar("ItemT")


class EmptyBagError(ValueError):
    """Drawing or peeking more items than a draw bag holds (a programming error: check first)."""


class DrawBag(Model, Generic[ItemT]):
    """Items to draw from, bottom first: the last item is the top, the next one drawn."""

    # ItemT must be JSON-Schema compatible (a model, an enum, a string, ...).

    items: list[ItemT] = Field(default_factory=list)
    """The items from the bottom to the top; the last one is drawn next."""

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: object) -> bool:
        return item in self.items


class HydratedDrawBag(DrawBag[ItemT], Hydrated[DrawBag[ItemT]], Generic[ItemT]):
    """A draw bag's behaviour; a hydrated state's ``DrawBag`` field holds one."""

    def is_empty(self) -> bool:
        """True if nothing is left to draw."""
        return not self.items

    def count(self, item: ItemT) -> int:
        """How many items equal ``item``."""
        return self.items.count(item)

    def shuffle(self, prng: Prng) -> None:
        """Shuffle the bag in place with ``prng``.

        Draws ``len(self) - 1`` numbers from ``prng`` (none for an empty or one-item bag).
        """
        prng.shuffle(self.items)

    def draw(self) -> ItemT:
        """Remove and return the top item.

        Raises:
            EmptyBagError: The bag is empty.
        """
        return self.draw_many(1)[0]

    def draw_many(self, count: int) -> list[ItemT]:
        """Remove and return exactly ``count`` items from the top, in the order drawn.

        All or nothing: if fewer than ``count`` items are left, nothing is drawn.

        Raises:
            EmptyBagError: Fewer than ``count`` items are left.
            ValueError: ``count`` is negative.
        """
        drawn = self.peek_many(count)
        del self.items[len(self.items) - count :]
        return drawn

    def draw_up_to(self, count: int) -> list[ItemT]:
        """Remove and return up to ``count`` items from the top (fewer if the bag runs out).

        Raises:
            ValueError: ``count`` is negative.
        """
        return self.draw_many(min(count, len(self.items)))

    def peek(self) -> ItemT:
        """Return the top item without removing it.

        Raises:
            EmptyBagError: The bag is empty.
        """
        return self.peek_many(1)[0]

    def peek_many(self, count: int) -> list[ItemT]:
        """Return the top ``count`` items without removing them, in the order they would be drawn.

        Raises:
            EmptyBagError: Fewer than ``count`` items are left.
            ValueError: ``count`` is negative.
        """
        if count < 0:
            msg = f"cannot take a negative number of items ({count})"
            raise ValueError(msg)
        if count > len(self.items):
            msg = f"cannot take {count} item(s) from a bag of {len(self.items)}"
            raise EmptyBagError(msg)
        return self.items[len(self.items) - count :][::-1]

    def add_to_top(self, items: Iterable[ItemT]) -> None:
        """Put ``items`` on top, one after another: the last one given is drawn first."""
        self.items.extend(items)

    def add_to_bottom(self, items: Iterable[ItemT]) -> None:
        """Put ``items`` at the bottom, one after another: the last one given ends up lowest."""
        self.items[:0] = reversed(list(items))

    def shuffle_in(self, items: Iterable[ItemT], prng: Prng) -> None:
        """Add ``items`` and shuffle the whole bag (draws ``len(self) - 1`` numbers afterwards)."""
        self.items.extend(items)
        self.shuffle(prng)

    def remove(self, item: ItemT) -> None:
        """Take the topmost item equal to ``item`` out of the bag.

        Raises:
            ValueError: No item equals ``item``.
        """
        for index in range(len(self.items) - 1, -1, -1):
            if self.items[index] == item:
                del self.items[index]
                return
        msg = f"{item!r} is not in the bag"
        raise ValueError(msg)
