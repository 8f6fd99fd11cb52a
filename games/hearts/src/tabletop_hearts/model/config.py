"""Hearts' options: OpenSpiel's, with its names and defaults, and a target score for a whole game."""

from pydantic import Field
from tabletop import GameConfig, Model

DEFAULT_TARGET_SCORE = 100
"""A game ends after the deal in which someone reaches 100 points."""


class HeartsRules(Model):
    """The rule options of a deal, as OpenSpiel's ``hearts`` names them (and its defaults)."""

    pass_cards: bool = True
    """Pass three cards before each deal's play (left, right, across, none, by deal number)."""
    no_pts_on_first_trick: bool = True
    """Nobody may play a heart or the queen of spades to the first trick unless they hold nothing else."""
    can_lead_any_club: bool = False
    """The first lead may be any club, not only the two of clubs."""
    jd_bonus: bool = False
    """Taking the jack of diamonds is worth -10 points."""
    avoid_all_tricks_bonus: bool = False
    """Taking no trick in a deal is worth -5 points (unless someone shot the moon)."""
    qs_breaks_hearts: bool = True
    """Playing the queen of spades breaks hearts."""
    must_break_hearts: bool = True
    """Hearts may not be led until a heart (or, by ``qs_breaks_hearts``, the queen) has been played."""
    can_lead_hearts_instead_of_qs: bool = False
    """A player who could only lead the queen of spades (hearts unbroken) may lead a heart instead."""


class HeartsConfig(GameConfig, HeartsRules):
    """Options of Hearts: the rule options and the score that ends a whole game."""

    target_score: int = Field(default=DEFAULT_TARGET_SCORE, ge=1, le=10_000)
    """The game ends after the deal in which a player's total reaches this; the lowest total wins."""

    def rules(self) -> HeartsRules:
        """The rule options alone (what the state keeps for its queries)."""
        return HeartsRules.model_validate(self.model_dump(exclude={"target_score"}))
