"""Gallery's state models."""
