"""Reveals: did a step from one state to the next show a perspective a value hidden from it before?

Derived from the view declarations alone, never from an action's ``reveals_info``: a host uses it
to refuse an undo across a step that showed a seat something (a card taken from another hand, a
card drawn, a sealed bid turned up), which a player could otherwise probe again and again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic_core import from_json, to_json

from tabletop._machine import AnyState
from tabletop._visibility import SPECTATOR, Perspective, Spectator
from tabletop.views._leaks import _NOT_VALUES, _collect_model, _Text, _Walk
from tabletop.views._projection import state_plan

__all__ = ["HiddenValues", "find_reveals"]

_HOST_ONLY_PRNG = "prng"
"""The PRNG's draw count changes with every draw: a draw is the host's business (a chance
outcome), judged by the host from ``prng.invocations``, not a value shown to anyone."""


class HiddenValues:
    """What a state hides from each perspective, as counted values (made once per state).

    A hidden value is a scalar token or an innermost object (a card, a bid) in a part of the
    state the perspective may not see, by the declarations the views apply (owner-only,
    count-only, order-only, host-only, custom policies), the PRNG left out.

    Nothing is computed until a perspective is asked for, and only its counts are kept (not the
    state's parsed JSON), so a host may keep one beside each state it caches.

    Args:
        state: The state.
        state_json: ``state.model_dump_json()``, when the caller has it already (a host that
            stores the state has): it is read instead of dumping the state again.
    """

    __slots__ = ("_counted", "_json", "state")

    def __init__(self, state: AnyState, state_json: str | bytes | None = None) -> None:
        self.state = state
        self._json = state_json
        self._counted: dict[Perspective, Counter[bytes]] = {}

    def of(self, perspective: Perspective) -> Counter[bytes]:
        """The values hidden from ``perspective``, each with how often it is hidden."""
        counted = self._counted.get(perspective)
        if counted is not None:
            return counted
        state = self.state
        if self._json is None:
            self._json = state.model_dump_json()
        plan = state_plan(type(state), spectator=isinstance(perspective, Spectator))
        regions: list[tuple[str, object]] = []
        _collect_model(plan, state, from_json(self._json), _Walk(perspective, state, regions, []), None, "")
        text = _Text(b",".join([to_json(value) for path, value in regions if path != _HOST_ONLY_PRNG]))
        counted = text.scalars()  # this text's own: kept, less what hiding leaves and the keys
        for token in [token for token in counted if token in _NOT_VALUES or token[-1:] == b"\x02"]:
            del counted[token]
        for body, count in text.objects().items():
            key = b"{" + body + b"}"
            counted[key] = counted.get(key, 0) + count
        self._counted[perspective] = counted
        return counted


def find_reveals(
    before: AnyState | HiddenValues,
    after: AnyState | HiddenValues,
    perspectives: Iterable[Perspective] | None = None,
) -> list[Perspective]:
    """The perspectives that ``after`` shows a value ``before`` hid from them.

    A value hidden from a perspective is revealed when it is hidden fewer times after the step
    than before: it moved where the perspective sees it (a card taken from another hand, a card
    drawn from a face-down deck, a sealed bid turned up, a hidden field turned public), or it
    left the state. The second case is counted too, on purpose: a host uses the answer to refuse
    an undo, and refusing one too many is safe where allowing one too many leaks. Values that
    stay hidden, move between hidden places (a card drawn into a hand the others see only the
    count of) or are new (a sealed bid made) reveal nothing. The PRNG is left out: a draw is a
    chance outcome, which the host judges from ``prng.invocations``.

    Args:
        before: The state before the step (or its :class:`HiddenValues`, to reuse its work).
        after: The state after it.
        perspectives: Whom to check; default every seat of ``after`` and :data:`SPECTATOR`.

    Returns:
        The perspectives shown something, in the order checked (empty: nothing was revealed).
        Never the values themselves.
    """
    old = before if isinstance(before, HiddenValues) else HiddenValues(before)
    new = after if isinstance(after, HiddenValues) else HiddenValues(after)
    if perspectives is None:
        perspectives = [*(player.player_id for player in new.state.players), SPECTATOR]
    shown: list[Perspective] = []
    for perspective in perspectives:
        hidden_before = old.of(perspective)
        if not hidden_before:
            continue
        hidden_after = new.of(perspective)
        if any(hidden_after.get(value, 0) < count for value, count in hidden_before.items()):
            shown.append(perspective)
    return shown
