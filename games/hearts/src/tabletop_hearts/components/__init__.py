"""Constants and helpers Hearts's models share."""
