"""View types derived from several threads at once, as a host's worker threads do."""

from __future__ import annotations

import threading
from enum import StrEnum
from typing import Annotated

import pytest
from pydantic import BaseModel, Field, create_model
from tabletop import GameState, Model, PlayerState
from tabletop.views import Owner, OwnerOnly, view_type


class Phase(StrEnum):
    PLAY = "Play"


def _fresh_state_model(depth: int) -> type[GameState[PlayerState, Phase]]:
    """A state type never seen before, over a chain of ``depth`` nested models each hiding a field."""
    chain: list[type[Model]] = [
        create_model(
            "Leaf",
            __base__=Model,
            secret=(Annotated[int, OwnerOnly()], 0),
            owner=(Annotated[str, Owner()], "p1"),
        )
    ]
    for level in range(depth):
        below = chain[-1]
        level_model: type[Model] = create_model(
            f"Level{level}",
            __base__=Model,
            child=(below, Field(default_factory=below)),
            hidden=(Annotated[int, OwnerOnly()], 0),
            owner=(Annotated[str, Owner()], "p1"),
        )
        chain.append(level_model)
    top = chain[-1]

    class FreshState(GameState[PlayerState, Phase]):
        table: top = Field(default_factory=top)  # type: ignore[valid-type]
        """The nested chain."""

    return FreshState


@pytest.mark.parametrize("attempt", range(5))
def test_threads_deriving_one_view_type_at_once_all_get_it(attempt: int) -> None:
    state_model = _fresh_state_model(depth=12)
    threads = 8
    barrier = threading.Barrier(threads)
    results: list[type[Model]] = []
    errors: list[BaseException] = []

    def derive() -> None:
        barrier.wait()
        try:
            results.append(view_type(state_model, spectator=True))
        except BaseException as error:  # collected and asserted below
            errors.append(error)

    workers = [threading.Thread(target=derive) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    assert len(results) == threads and len(set(results)) == 1
    table = results[0].model_fields["table"].annotation
    assert isinstance(table, type) and "hidden" not in table.model_fields


def test_a_model_whose_answer_is_being_worked_out_is_never_read_as_hiding_nothing() -> None:
    # While one thread works out whether a model hides anything, the model holds a provisional
    # False (a guard for models that refer to themselves). Another thread asking then must wait
    # for the answer: read as False, a state that hides a field would get the view type of a game
    # without hidden information, and its spectators would see that field.
    from tabletop.views._analysis import _deep

    class Probe(BaseModel):
        value: int = 0

    cache: dict[type[BaseModel], bool] = {}
    entered, release = threading.Event(), threading.Event()

    def slow_test(model: type[BaseModel]) -> bool:
        entered.set()
        assert release.wait(10)
        return True  # it hides something

    answers: list[bool] = []
    first = threading.Thread(target=lambda: answers.append(_deep(Probe, cache, slow_test)))
    first.start()
    assert entered.wait(10)
    second = threading.Thread(target=lambda: answers.append(_deep(Probe, cache, slow_test)))
    second.start()
    second.join(0.5)  # without the guard it has long answered False by now
    release.set()
    first.join(10)
    second.join(10)
    assert answers == [True, True]
