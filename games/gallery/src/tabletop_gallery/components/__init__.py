"""Constants and helpers Gallery's models share."""
