"""Phases: a named, ordered series of steps that a game cycles through, as spans of action indexes."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from tabletop._hydration import Hydrated
from tabletop._model import Model

__all__ = ["HydratedPhaseManager", "PhaseManager", "PhaseSpan"]


class PhaseSpan(Model):
    """One visit to a phase, as a span of action indexes."""

    phase: str
    """The phase's name (typically a game's own ``StrEnum`` value)."""
    cycle: int = Field(ge=1)
    """Which pass through the phase list this visit belongs to, counting from 1."""
    start_index: int = Field(ge=0)
    """Action count when the phase started (index of its first action)."""
    end_index: int | None = Field(default=None, ge=0)
    """Action count when the phase ended; None while it runs."""


class PhaseManager(Model):
    """The ordered phase names, the phase in progress and the ended visits."""

    phases: list[str] = Field(default_factory=list)
    """Phase names in the order they are played; unique."""
    cycle: int = Field(default=0, ge=0)
    """How many passes through the phase list have started."""
    current_phase: PhaseSpan | None = None
    """The phase in progress, if any."""
    history: list[PhaseSpan] = Field(default_factory=list)
    """Ended phase visits, oldest first (only the newest ``history_limit`` are kept)."""
    history_limit: int | None = Field(default=None, ge=0)
    """How many ended visits ``history`` keeps; None keeps all."""

    @model_validator(mode="after")
    def _check_phases(self) -> Self:
        duplicates = sorted({name for name in self.phases if self.phases.count(name) > 1})
        if duplicates:
            msg = f"phase names must be unique; repeated: {duplicates}"
            raise ValueError(msg)
        if self.current_phase is not None and self.current_phase.phase not in self.phases:
            msg = f"the current phase {self.current_phase.phase!r} is not one of {self.phases}"
            raise ValueError(msg)
        return self


class HydratedPhaseManager(PhaseManager, Hydrated[PhaseManager]):
    """Phase manager behaviour: advance (wrapping into a new cycle), jump to a phase, end it.

    Starting a phase ends the current one (if any) at the same action index; ending a phase
    when none runs does nothing (as with turns and rounds). Misuse raises ``ValueError``: an
    unknown phase name, an empty phase list, advancing past the last phase without ``wrap``, or
    an action index before the current phase's start (or the last ended phase's end).

    Example:
        >>> phases = HydratedPhaseManager(phases=["draw", "play", "discard"])
        >>> phases.advance(0).phase, phases.advance(2).phase, phases.advance(5).phase
        ('draw', 'play', 'discard')
        >>> span = phases.advance(6)
        >>> span.phase, span.cycle
        ('draw', 2)
        >>> phases.jump_to("discard", 8).phase, [span.phase for span in phases.history]
        ('discard', ['draw', 'play', 'discard', 'draw'])
    """

    @property
    def current_phase_name(self) -> str | None:
        """The name of the phase in progress, if any."""
        return None if self.current_phase is None else self.current_phase.phase

    @property
    def last_phase(self) -> PhaseSpan | None:
        """The most recently ended phase visit, if any (and kept)."""
        return self.history[-1] if self.history else None

    def is_phase(self, phase: str) -> bool:
        """True if ``phase`` is the phase in progress.

        Raises:
            ValueError: ``phase`` is not one of :attr:`phases`.
        """
        self.index_of(phase)
        return self.current_phase_name == phase

    def index_of(self, phase: str) -> int:
        """The position of ``phase`` in :attr:`phases`.

        Raises:
            ValueError: ``phase`` is not one of :attr:`phases`.
        """
        try:
            return self.phases.index(phase)
        except ValueError:
            msg = f"unknown phase {phase!r}; the phases are {self.phases}"
            raise ValueError(msg) from None

    def next_phase_name(self, *, wrap: bool = True) -> str | None:
        """The phase :meth:`advance` would start (None after the last one when not wrapping).

        With no phase in progress this is the phase after the last ended one, or the first.

        Raises:
            ValueError: The phase list is empty.
        """
        position = self._next_position(wrap=wrap)
        return None if position is None else self.phases[position]

    def advance(self, action_index: int, *, wrap: bool = True) -> PhaseSpan:
        """End the current phase (if any) and start the next one at ``action_index``.

        After the last phase, ``wrap`` starts the first phase again in a new cycle. Before any
        phase, the first phase starts cycle 1.

        Returns:
            The phase visit that started.

        Raises:
            ValueError: The phase list is empty, the current phase is the last one and
                ``wrap`` is False, or ``action_index`` is before the current phase's start.
        """
        position = self._next_position(wrap=wrap)
        if position is None:
            msg = f"{self.phases[-1]!r} is the last phase; pass wrap=True to start a new cycle"
            raise ValueError(msg)
        new_cycle = self.cycle == 0 or position == 0
        return self._start(self.phases[position], action_index, new_cycle=new_cycle)

    def jump_to(self, phase: str, action_index: int, *, new_cycle: bool = False) -> PhaseSpan:
        """End the current phase (if any) and start ``phase`` at ``action_index``.

        The visit belongs to the current cycle (cycle 1 if none started) unless ``new_cycle``.

        Returns:
            The phase visit that started.

        Raises:
            ValueError: ``phase`` is unknown, or ``action_index`` is before the current phase's start.
        """
        name = self.phases[self.index_of(phase)]
        return self._start(name, action_index, new_cycle=new_cycle or self.cycle == 0)

    def end_phase(self, action_index: int) -> PhaseSpan | None:
        """End the current phase at ``action_index``; does nothing if no phase runs.

        Returns:
            The phase visit that ended, or None if none was running.

        Raises:
            ValueError: ``action_index`` is negative or before the current phase's start (or
                the last ended phase's end).
        """
        self._check_index(action_index)
        span = self.current_phase
        if span is None:
            return None
        span.end_index = action_index
        self.history.append(span)
        if self.history_limit is not None and len(self.history) > self.history_limit:
            del self.history[: len(self.history) - self.history_limit]
        self.current_phase = None
        return span

    def visits_of(self, phase: str) -> list[PhaseSpan]:
        """Every kept visit to ``phase``, oldest first, the one in progress last.

        Raises:
            ValueError: ``phase`` is not one of :attr:`phases`.
        """
        self.index_of(phase)
        current = [] if self.current_phase is None else [self.current_phase]
        return [span for span in [*self.history, *current] if span.phase == phase]

    def _next_position(self, *, wrap: bool) -> int | None:
        if not self.phases:
            msg = "the phase list is empty"
            raise ValueError(msg)
        span = self.current_phase or self.last_phase
        if span is None or span.phase not in self.phases:
            return 0
        position = self.phases.index(span.phase) + 1
        if position < len(self.phases):
            return position
        return 0 if wrap else None

    def _start(self, phase: str, action_index: int, *, new_cycle: bool) -> PhaseSpan:
        self.end_phase(action_index)
        if new_cycle:
            self.cycle += 1
        span = PhaseSpan(phase=phase, cycle=self.cycle, start_index=action_index)
        self.current_phase = span
        return span

    def _check_index(self, action_index: int) -> None:
        if action_index < 0:
            msg = f"action index must be >= 0, got {action_index}"
            raise ValueError(msg)
        if self.current_phase is not None:
            floor = self.current_phase.start_index
        elif self.history:
            floor = self.history[-1].end_index or 0
        else:
            return
        if action_index < floor:
            msg = f"action index {action_index} is before the phase boundary at {floor}"
            raise ValueError(msg)
