"""Prints the boundary fuzz figures per game at the end of a run (shown with or without ``-s``)."""

import pytest
from tabletop_fixtures.boundary_figures import merged


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    properties = [
        prop
        for reports in terminalreporter.stats.values()
        for report in reports
        if isinstance(report, pytest.TestReport) and report.when == "call"
        for prop in report.user_properties
    ]
    figures = merged(properties)
    if not figures:
        return
    terminalreporter.section("boundary fuzz figures")
    for name, game_figures in sorted(figures.items()):
        terminalreporter.write_line(game_figures.line(name))
