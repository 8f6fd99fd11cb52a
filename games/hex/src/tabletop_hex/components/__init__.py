"""Constants and helpers Hex's models share."""
