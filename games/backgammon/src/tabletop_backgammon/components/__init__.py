"""Constants and helpers Backgammon's models share."""
