"""Game parameters that keep whole-game simulations short in the adapter tests."""

SHORT_PARAMS: dict[str, dict[str, int]] = {"hearts": {"target_score": 1}}
"""Parameters by game: Hearts to 100 points is several deals of about 160 steps each, and
OpenSpiel's checks serialize and re-load the state at every step; one deal exercises every rule
they check."""

SEARCH_PARAMS: dict[str, dict[str, int]] = {**SHORT_PARAMS, "backgammon": {"max_player_turns": 30}}
"""Parameters for whole games between search bots, whose every simulation plays a game out:
Backgammon stops (a draw) after 30 turns, OpenSpiel's own ``max_player_turns`` rule."""
