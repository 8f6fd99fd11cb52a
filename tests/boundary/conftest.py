"""Prints the boundary fuzz figures per game at the end of a run (shown with or without ``-s``)."""

import pytest
from tabletop_fixtures.boundary_figures import FIGURES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES:
        return
    terminalreporter.section("boundary fuzz figures")
    for name, figures in sorted(FIGURES.items()):
        terminalreporter.write_line(figures.line(name))
