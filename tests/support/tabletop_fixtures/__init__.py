"""Fixture games for the framework's own tests (not installed, not registered)."""
