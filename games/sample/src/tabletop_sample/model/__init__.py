"""The sample game's state models."""
