"""Logic versions: ``MAJOR.MINOR.PATCH``, compared as numbers."""

from __future__ import annotations

import re

__all__ = ["next_versions", "parse_version"]

_VERSION = re.compile(r"^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$")


def parse_version(text: str) -> tuple[int, int, int]:
    """``"2.10.1"`` as ``(2, 10, 1)``.

    Raises:
        ValueError: ``text`` is not ``MAJOR.MINOR.PATCH``.
    """
    found = _VERSION.match(text)
    if found is None:
        msg = f"logic version {text!r} is not MAJOR.MINOR.PATCH"
        raise ValueError(msg)
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch


def next_versions(text: str) -> tuple[str, str]:
    """The next minor and the next major version after ``text``: ``("2.1.0", "3.0.0")`` for 2.0.4.

    Raises:
        ValueError: ``text`` is not ``MAJOR.MINOR.PATCH``.
    """
    major, minor, _ = parse_version(text)
    return f"{major}.{minor + 1}.0", f"{major + 1}.0.0"
