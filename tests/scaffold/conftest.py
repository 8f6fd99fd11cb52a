"""Fixtures for the generator tests: a throwaway workspace with the real workspace's settings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace root: the repository's ``pyproject.toml`` (members, ruff, mypy, pytest)."""
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path
