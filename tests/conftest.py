"""Shared fixtures for the framework tests and the conformance suite."""
