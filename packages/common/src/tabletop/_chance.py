"""Declared chance points: system actions whose outcome the engine, not a player, decides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar, cast

from tabletop._action import GameAction
from tabletop._errors import GameDefinitionError, IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, ChanceOutcomes, ChanceResolver, HydratedAction, MachineContext
from tabletop._prng import Prng

__all__ = [
    "ChanceAction",
    "HydratedChanceAction",
    "draw_outcome",
    "resolve_chance",
]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)
ActionT = TypeVar("ActionT", bound=GameAction, covariant=True)


class ChanceAction(GameAction):
    """The model of a chance point: a system action whose ``outcome`` the engine decides.

    A game's chance model narrows ``type`` to its tag and declares the recorded outcome as
    ``outcome: <type> | None = None`` (with a visibility policy if some seats may not see it,
    e.g. ``Annotated[Card | None, OwnerOnly()]`` for a card dealt to ``player_id``). Game code
    queues it with ``ctx.add_system_action`` and never sets ``outcome``: the engine draws it
    (or takes the one a test, a search or an adapter chose) and records it before ``apply``.
    """

    system_only: ClassVar[bool] = True


class HydratedChanceAction(
    ChanceAction, HydratedAction[ActionT, StateT, ConfigT], Generic[ActionT, StateT, ConfigT]
):
    """The rules of a chance point. Subclass it together with the chance action's plain model.

    Implement :meth:`chances` (the outcomes possible now, with weights) and :meth:`chance_space`
    (every outcome the chance point can ever have in a game, in a fixed order); ``apply`` reads
    the decided ``self.outcome``.

    Example:
        ``class HydratedRollDie(RollDie, HydratedChanceAction[RollDie, PigState, PigConfig])``
    """

    def chances(self, ctx: MachineContext[StateT, ConfigT]) -> ChanceOutcomes:
        """The outcomes possible now, each with its positive integer weight (never empty).

        Called by the engine right before ``apply`` (and by adapters at a chance node); it must
        not change anything nor draw from the PRNG. The outcomes are in a fixed order, each
        among :meth:`chance_space`.
        """
        msg = f"{type(self).__name__} does not declare its chances"
        raise NotImplementedError(msg)

    @classmethod
    def chance_space(cls, game: Game[ConfigT]) -> Sequence[object]:
        """Every outcome this chance point can ever have in ``game``, in a fixed order.

        It depends only on the game (seats and config): its length is the most outcomes one
        chance node can have (OpenSpiel's ``max_chance_outcomes``), and an outcome's position
        in it is its number in OpenSpiel's chance action space.
        """
        msg = f"{cls.__name__} does not declare its chance space"
        raise NotImplementedError(msg)


def draw_outcome(prng: Prng, outcomes: ChanceOutcomes, name: str) -> object:
    """Draw one of ``outcomes`` by weight with one ``rand_int`` of the weights' sum.

    With equal weights the drawn position is exactly ``prng.rand_int(len(outcomes))``.

    Raises:
        GameDefinitionError: The outcomes are empty or a weight is not a positive integer.
    """
    total = 0
    for _, weight in outcomes:
        if type(weight) is not int or weight <= 0:
            raise GameDefinitionError(name, [_bad_weight(weight)])
        total += weight
    if not total:
        raise GameDefinitionError(name, ["a chance point has no outcomes"])
    pick = prng.rand_int(total)
    for outcome, weight in outcomes:
        if pick < weight:
            return outcome
        pick -= weight
    raise AssertionError("unreachable")  # pragma: no cover


def resolve_chance(
    action: HydratedChanceAction[GameAction, StateT, ConfigT],
    ctx: MachineContext[StateT, ConfigT],
    resolver: ChanceResolver | None,
    name: str,
) -> None:
    """Decide and record ``action.outcome`` before it is applied.

    An outcome already set (applied by an adapter, or a recorded action replayed) must be one of
    :meth:`~HydratedChanceAction.chances`; otherwise ``resolver`` chooses one, or else the
    state's PRNG draws one (:func:`draw_outcome`).

    Raises:
        IllegalActionError: The outcome set or chosen is not possible now
            (``impossible-chance-outcome``, path ``outcome``).
        GameDefinitionError: The chances are empty or badly weighted.
    """
    outcomes = action.chances(ctx)
    given = action.__dict__.get("outcome")
    if given is None and resolver is None:
        action.__dict__["outcome"] = draw_outcome(ctx.prng, outcomes, name)
        action.__pydantic_fields_set__.add("outcome")
        return
    if given is None:
        assert resolver is not None
        given = resolver(cast(HydratedAction[GameAction, AnyState, GameConfig], action), outcomes)
    for outcome, weight in outcomes:
        if outcome == given:
            if type(weight) is not int or weight <= 0:
                raise GameDefinitionError(name, [_bad_weight(weight)])
            action.__dict__["outcome"] = outcome
            action.__pydantic_fields_set__.add("outcome")
            return
    raise IllegalActionError(
        "impossible-chance-outcome",
        f"{action.type} cannot come out as {given!r} now",
        path="outcome",
    )


def _bad_weight(weight: object) -> str:
    return f"a chance outcome has weight {weight!r}, not a positive integer"
