"""axe-core in the browser tests: the violations of a page, as "rule: elements" lines."""

from __future__ import annotations

from playwright.sync_api import Page

from tabletop_fixtures.browser import ROOT

__all__ = ["AXE", "axe_violations"]

AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, a dev dependency of games-ui (installed by ``npm ci``)."""


def axe_violations(page: Page, selector: str | None = None, exclude: str | None = None) -> list[str]:
    """What axe-core finds wrong with the page (or the part ``selector`` names, without the part
    ``exclude`` names), as "rule (impact): elements" lines; empty if nothing."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async ([selector, exclude]) => {
            const context = exclude
              ? {include: [[selector ?? 'html']], exclude: [[exclude]]}
              : selector ? document.querySelector(selector) : document;
            const result = await window.axe.run(context);
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id} (${v.impact}): ${where(v)}`);
        }""",
        [selector, exclude],
    )
    return found
