"""Hearts's state models."""
