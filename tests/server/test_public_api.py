"""The server's public surface is exactly ``tabletop_server.__all__``; the rest is private."""

from __future__ import annotations

import importlib
import pkgutil

import tabletop_server

EXPECTED = {
    "OPENAPI_PATH",
    "ApiError",
    "ErrorBody",
    "EventHub",
    "GameEntry",
    "GameRegistry",
    "InProcessHub",
    "MatchChange",
    "Settings",
    "Subscription",
    "check_openapi",
    "create_app",
    "export_openapi",
    "render_openapi",
}


def test_the_package_exports_exactly_its_public_names() -> None:
    assert set(tabletop_server.__all__) == EXPECTED
    for name in tabletop_server.__all__:
        assert getattr(tabletop_server, name) is not None
    public = {name for name in vars(tabletop_server) if not name.startswith("_")}
    assert public - EXPECTED <= {"events", "routers", "storage"}


def test_every_module_but_the_public_packages_is_private() -> None:
    found = pkgutil.walk_packages(tabletop_server.__path__, "tabletop_server.", onerror=lambda name: None)
    modules = [info.name for info in found if not info.name.startswith("tabletop_server.migrations")]
    for name in modules:
        importlib.import_module(name)  # importable on its own: no cycle held together by local imports
    leaves = {name.rsplit(".", 1)[-1] for name in modules}
    public = sorted(leaf for leaf in leaves if not leaf.startswith("_"))
    assert set(public) <= {
        "events",
        "routers",
        "storage",
        "games",
        "matches",
        "seats",
        "play",
        "history",
        "versions",
        "clocks",
        "dev",
        "webhooks",
        "rematch",
    }
