"""Goofspiel's state models."""
