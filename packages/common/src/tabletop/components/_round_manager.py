"""Rounds: a series of spans of action indexes, optionally of a fixed length."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from tabletop._copier import only_checks
from tabletop._hydration import Hydrated
from tabletop._model import Model

__all__ = ["HydratedRoundManager", "Round", "RoundManager"]


class Round(Model):
    """One round, as a span of action indexes."""

    number: int = Field(ge=1)
    """The round's number, counting from 1."""
    start_index: int = Field(ge=0)
    """Action count when the round started (index of its first action)."""
    end_index: int | None = Field(default=None, ge=0)
    """Action count when the round ended; None while it runs."""


class RoundManager(Model):
    """How many rounds were played, the current round and the ended ones."""

    max_rounds: int | None = Field(default=None, ge=1)
    """How many rounds the game lasts; None for no fixed number."""
    round_count: int = Field(default=0, ge=0)
    """How many rounds have started."""
    current_round: Round | None = None
    """The round in progress, if any."""
    past_rounds: list[Round] = Field(default_factory=list)
    """Ended rounds, oldest first."""

    @model_validator(mode="after")
    def _check_counts(self) -> Self:
        if self.max_rounds is not None and self.round_count > self.max_rounds:
            msg = f"round_count {self.round_count} exceeds max_rounds {self.max_rounds}"
            raise ValueError(msg)
        return self


only_checks(RoundManager, "_check_counts")


class HydratedRoundManager(RoundManager, Hydrated[RoundManager]):
    """Round manager behaviour: start and end rounds, how many are left, which round an action was in.

    Like the turn manager, starting a round ends the current one (if any) at the same action
    index, and ending a round when none runs does nothing. Misuse raises ``ValueError``: an
    action index before the current round's start (or the last round's end), or starting a
    round once every one of ``max_rounds`` has started.

    Example:
        >>> rounds = HydratedRoundManager(max_rounds=2)
        >>> rounds.start_round(0).number
        1
        >>> rounds.start_round(4).number, rounds.is_last_round, rounds.rounds_left
        (2, True, 0)
        >>> rounds.end_round(9) is not None, rounds.is_complete
        (True, True)
    """

    def start_round(self, action_index: int) -> Round:
        """End the current round (if any) and start the next one at ``action_index``.

        Returns:
            The round that started.

        Raises:
            ValueError: Every one of ``max_rounds`` rounds has started, or ``action_index`` is
                negative or before the current round's start or the last round's end.
        """
        self._check_index(action_index)
        if self.max_rounds is not None and self.round_count >= self.max_rounds:
            msg = f"all {self.max_rounds} rounds have been played"
            raise ValueError(msg)
        self.end_round(action_index)
        self.round_count += 1
        round_ = Round(number=self.round_count, start_index=action_index)
        self.current_round = round_
        return round_

    def end_round(self, action_index: int) -> Round | None:
        """End the current round at ``action_index``; does nothing if no round runs.

        Returns:
            The round that ended, or None if no round was running.

        Raises:
            ValueError: ``action_index`` is negative or before the current round's start (or the
                last round's end).
        """
        self._check_index(action_index)
        round_ = self.current_round
        if round_ is None:
            return None
        round_.end_index = action_index
        self.past_rounds.append(round_)
        self.current_round = None
        return round_

    @property
    def round_number(self) -> int | None:
        """The current round's number (from 1), if a round runs."""
        return None if self.current_round is None else self.current_round.number

    @property
    def last_round(self) -> Round | None:
        """The most recently ended round, if any."""
        return self.past_rounds[-1] if self.past_rounds else None

    @property
    def rounds(self) -> list[Round]:
        """Every round started so far, oldest first (the current one last)."""
        current = [] if self.current_round is None else [self.current_round]
        return [*self.past_rounds, *current]

    @property
    def rounds_left(self) -> int | None:
        """How many rounds are still to start (0 during the last round); None without a fixed number."""
        return None if self.max_rounds is None else self.max_rounds - self.round_count

    @property
    def is_last_round(self) -> bool:
        """True while the final round of a fixed number of rounds runs."""
        return self.current_round is not None and self.rounds_left == 0

    @property
    def is_complete(self) -> bool:
        """True once every one of a fixed number of rounds has ended."""
        return self.current_round is None and self.rounds_left == 0

    def round_at(self, action_index: int) -> Round | None:
        """The round that action ``action_index`` was (or is) taken in, if any.

        A round covers ``start_index <= action_index < end_index``; the running round covers every
        index from its start on.
        """
        for round_ in self.rounds:
            end = round_.end_index
            if round_.start_index <= action_index and (end is None or action_index < end):
                return round_
        return None

    def _check_index(self, action_index: int) -> None:
        if action_index < 0:
            msg = f"action index must be >= 0, got {action_index}"
            raise ValueError(msg)
        if self.current_round is not None:
            floor = self.current_round.start_index
        elif self.past_rounds:
            floor = self.past_rounds[-1].end_index or 0
        else:
            return
        if action_index < floor:
            msg = f"action index {action_index} is before the round boundary at {floor}"
            raise ValueError(msg)
