"""Hex's state models."""
