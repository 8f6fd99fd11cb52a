"""Spreading a simulation's games over worker processes or a Ray cluster, in batches.

Every game is played by :func:`play_batch` from the run's plan and its index alone, so where it
runs changes nothing in its record; the batches come back in index order.
"""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from importlib import import_module
from typing import Protocol, cast

from tabletop.simulation._batch import Batch, GamePlan, play_batch

__all__ = ["batches", "play_in_processes", "play_on_ray"]

Progress = Callable[[int, int], None]

BATCH_GAMES = 50
"""The most games in one batch (a batch is what a worker plays between two progress updates)."""

_plan: GamePlan | None = None
"""The plan of the run a forked worker belongs to (set by the pool's initializer)."""


def batches(games: int, workers: int) -> list[range]:
    """Split game indices ``0..games-1`` into consecutive batches, shrinking towards the end.

    Each batch holds a quarter of a worker's share of the games still unassigned (at most
    :data:`BATCH_GAMES`, at least one): big batches first, few messages, then ever smaller
    ones, so the workers finish together instead of one waiting for another's last big batch.
    At least four batches per worker when there are games enough; none empty.
    """
    split: list[range] = []
    start = 0
    while start < games:
        size = max(1, min(BATCH_GAMES, (games - start) // (4 * workers)))
        split.append(range(start, min(start + size, games)))
        start += size
    return split


def _adopt(plan: GamePlan) -> None:
    global _plan
    _plan = plan


def _play_adopted(indices: range) -> Batch:
    assert _plan is not None, "the worker was started without a plan"
    return play_batch(_plan, indices)


def _collect(
    pending: dict[Future[Batch], int], count: int, games: int, progress: Progress | None
) -> list[Batch]:
    """Wait for every batch; report progress as they finish; return them in index order."""
    results: list[Batch | None] = [None] * count
    done_games = 0
    waiting: set[Future[Batch]] = set(pending)
    while waiting:
        finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
        for future in finished:
            batch = future.result()
            results[pending[future]] = batch
            done_games += len(batch.records)
        if progress is not None and finished:
            progress(done_games, games)
    return [batch for batch in results if batch is not None]


def play_in_processes(plan: GamePlan, games: int, jobs: int, progress: Progress | None) -> list[Batch]:
    """Play ``games`` games of ``plan`` in ``jobs`` forked worker processes.

    Workers are forked, so the plan (definition, bot factory, invariants: closures included)
    is inherited rather than pickled; only game indices go out and records come back.

    Raises:
        ValueError: This platform cannot fork processes.
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        msg = "jobs > 1 needs the fork start method, which this platform lacks"
        raise ValueError(msg)
    work = batches(games, jobs)
    context = multiprocessing.get_context("fork")
    # Frozen objects are left out of the collector's passes: the workers' collections never
    # touch (and so never copy) the pages they share with this process. (Not if the host froze
    # objects itself: unfreezing afterwards would thaw its objects too.)
    frozen = gc.isenabled() and gc.get_freeze_count() == 0
    if frozen:
        gc.freeze()
    try:
        with ProcessPoolExecutor(
            max_workers=min(jobs, max(1, len(work))), mp_context=context, initializer=_adopt, initargs=(plan,)
        ) as pool:
            pending = {pool.submit(_play_adopted, indices): n for n, indices in enumerate(work)}
            return _collect(pending, len(work), games, progress)
    finally:
        if frozen:
            gc.unfreeze()


class _RayRef(Protocol):
    """A Ray object reference: hashable, otherwise opaque here (typed here: Ray ships no stubs)."""

    def __hash__(self) -> int: ...


class _RayRemote(Protocol):
    def remote(self, plan: _RayRef, indices: range) -> _RayRef: ...


class _Ray(Protocol):
    """The few calls of the ``ray`` module this module makes."""

    def is_initialized(self) -> bool: ...
    def init(self, *, address: str, include_dashboard: bool, log_to_driver: bool) -> object: ...
    def shutdown(self) -> None: ...
    def put(self, value: GamePlan) -> _RayRef: ...
    def remote(self, function: Callable[[GamePlan, range], Batch]) -> _RayRemote: ...
    def wait(self, refs: list[_RayRef], *, num_returns: int) -> tuple[list[_RayRef], list[_RayRef]]: ...
    def get(self, ref: _RayRef) -> Batch: ...


def _import_ray() -> _Ray:
    try:
        module = import_module("ray")
    except ImportError as exc:
        msg = "simulating on a Ray cluster needs Ray: pip install 'tabletop-common[ray]'"
        raise ImportError(msg) from exc
    return cast("_Ray", module)


def play_on_ray(plan: GamePlan, games: int, address: str, progress: Progress | None) -> list[Batch]:
    """Play ``games`` games of ``plan`` as Ray tasks on the cluster at ``address``.

    The plan is shipped once (``ray.put``, pickled by Ray's cloudpickle) and every batch is one
    task. Connects to the cluster and disconnects afterwards, unless this process was already
    connected (then that connection is used and kept).

    Raises:
        ImportError: Ray is not installed.
    """
    ray = _import_ray()
    connected = ray.is_initialized()
    if not connected:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        shipped = ray.put(plan)
        task = ray.remote(play_batch)
        work = batches(games, 1_000)  # as many tasks as Ray can spread, each at most BATCH_GAMES
        refs = [task.remote(shipped, indices) for indices in work]
        order = {ref: n for n, ref in enumerate(refs)}
        results: list[Batch | None] = [None] * len(refs)
        waiting, done_games = list(refs), 0
        while waiting:
            finished, waiting = ray.wait(waiting, num_returns=1)
            for ref in finished:
                batch = ray.get(ref)
                results[order[ref]] = batch
                done_games += len(batch.records)
            if progress is not None:
                progress(done_games, games)
        return [batch for batch in results if batch is not None]
    finally:
        if not connected:
            ray.shutdown()
