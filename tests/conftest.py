"""Shared fixtures for the framework tests and the conformance suite, and the run's summary.

The summary hook lives here rather than beside the tests it reports on: under pytest-xdist the
process that prints the summary runs no test and loads only this conftest, and what the tests saw
reaches it on their reports (skip reasons, ``user_properties``).
"""

from collections.abc import Iterator

import pytest
from tabletop_fixtures.boundary_figures import merged
from tabletop_fixtures.postgres import SKIP_REASON as POSTGRES_SKIP_REASON

BROWSER_SKIP_REASON = "no Chromium at"
"""The start of the browser tests' skip reason (``tests/ui/conftest.py``)."""


def _reports(terminalreporter: pytest.TerminalReporter) -> Iterator[pytest.TestReport]:
    for reports in terminalreporter.stats.values():
        yield from (report for report in reports if isinstance(report, pytest.TestReport))


def _skip_reasons(reports: list[pytest.TestReport]) -> list[str]:
    return [
        str(report.longrepr[2]).removeprefix("Skipped: ")
        for report in reports
        if report.skipped and isinstance(report.longrepr, tuple)
    ]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The boundary fuzz figures per game, and a loud line when the PostgreSQL or browser tests
    could not run."""
    reports = list(_reports(terminalreporter))
    figures = merged([prop for report in reports if report.when == "call" for prop in report.user_properties])
    if figures:
        terminalreporter.section("boundary fuzz figures")
        for name, game_figures in sorted(figures.items()):
            terminalreporter.write_line(game_figures.line(name))
    reasons = _skip_reasons(reports)
    for start, what in ((POSTGRES_SKIP_REASON, "POSTGRESQL"), (BROWSER_SKIP_REASON, "BROWSER")):
        reason = next((reason for reason in reasons if reason.startswith(start)), None)
        if reason is not None:
            terminalreporter.write_sep("!", f"{what} TESTS SKIPPED: {reason}", red=True, bold=True)
