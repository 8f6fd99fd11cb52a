"""Schemathesis fuzzes the API from the exported OpenAPI document: no 5xx, responses as documented.

Requests go to a real server on a loopback port. Half the generated requests name a real match
(and carry its first seat's token), so the fuzzing reaches past ``404 unknown-match`` into the
action routes, seats, undo and fork.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from tabletop_fixtures.live_server import Api, live_server

OPENAPI = Path(__file__).parents[3] / "schemas" / "server" / "openapi.json"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

schema = schemathesis.openapi.from_dict(json.loads(OPENAPI.read_text())).exclude(
    path_regex=r"/events$"  # an endless stream (its errors are covered by the event tests)
)


@dataclass
class Target:
    """The server under test and a real match on it."""

    url: str
    match_ids: list[str]
    token: str


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """A server on SQLite with a tic-tac-toe and a go-fish match, first seats taken."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'tabletop.sqlite3'}"
    with live_server(url) as server:
        api = Api(server.url)
        try:
            matches = [api.create(game, 2, seed=1)["id"] for game in ("tic-tac-toe", "go-fish")]
            token = api.join(matches[0], "p1")
        finally:
            api.close()
        yield Target(server.url, matches, token)


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_the_api_never_fails_and_answers_as_documented(case: schemathesis.Case[Any], target: Target) -> None:
    headers: dict[str, str] = {}
    if case.path_parameters and "match_id" in case.path_parameters and len(str(case.body)) % 2 == 0:
        case.path_parameters["match_id"] = target.match_ids[len(str(case.query)) % 2]
        headers["Authorization"] = f"Bearer {target.token}"
    case.call_and_validate(base_url=target.url, headers=headers or None, checks=CHECKS)
