"""Constants the sample game's models share."""
