"""Go Fish's state models."""
