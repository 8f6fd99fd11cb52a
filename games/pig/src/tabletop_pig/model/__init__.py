"""Pig's state models."""
