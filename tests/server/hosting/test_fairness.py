"""Provably fair chance: a commitment at creation, the key revealed at the end, and ``tabletop verify``."""

from __future__ import annotations

import copy
import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

from tabletop_fixtures.live_server import Api, LiveServer
from tabletop_server._fair import fetch_public_match, verify_match

from tests.server.hosting.play import play_to_the_end

TABLETOP = Path(sys.executable).parent / "tabletop"


def _finished_pig(api: Api) -> str:
    match = api.create("pig", 2, seed=11, config={"target": 10})
    tokens = {p: api.join(match["id"], p) for p in ("p1", "p2")}
    fairness = api.match(match["id"])["fairness"]
    assert fairness["key"] is None and fairness["seed"] is None  # hidden while it runs
    assert len(fairness["commitment"]) == 64
    play_to_the_end(api, match["id"], tokens, seed=3)
    return str(match["id"])


def test_the_revealed_key_is_the_committed_one_and_replays_every_roll(api: Api, server: LiveServer) -> None:
    match_id = _finished_pig(api)
    info, actions, view = fetch_public_match(server.url, match_id)
    fairness = info["fairness"]
    assert isinstance(fairness, dict)
    digest = hashlib.sha256(f"tabletop-commitment-v1:{match_id}:{fairness['key']}".encode()).hexdigest()
    assert fairness["commitment"] == digest
    verdict = verify_match(info, actions, view)
    assert verdict.problems == []
    assert verdict.chance > 0 and verdict.actions == len(actions)
    done = subprocess.run(
        [str(TABLETOP), "verify", match_id, "--server", server.url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"verified {match_id}" in done.stdout
    checked = api.ok(api.http.get(f"/api/matches/{match_id}/verification"))  # the UI's verify link
    assert checked == {"verified": True, "problems": [], "actions": len(actions), "outcomes": verdict.chance}


def test_verify_refuses_a_tampered_key_log_or_state(api: Api, server: LiveServer) -> None:
    match_id = _finished_pig(api)
    record: Any = fetch_public_match(server.url, match_id)
    info, actions, view = record
    fairness = info["fairness"]
    assert isinstance(fairness, dict)

    other_key = copy.deepcopy(info)
    other_key["fairness"]["key"] = "0" * 32
    assert any("commitment" in p for p in verify_match(other_key, actions, view).problems)

    recommitted = copy.deepcopy(other_key)  # a host that also lies about the commitment
    recommitted["fairness"]["commitment"] = hashlib.sha256(
        f"tabletop-commitment-v1:{match_id}:{'0' * 32}".encode()
    ).hexdigest()
    assert verify_match(recommitted, actions, view).problems  # the rolls do not replay

    rolled = next(n for n, a in enumerate(actions) if isinstance(a, dict) and a["type"] == "RollDie")
    tampered_log = copy.deepcopy(actions)
    entry = tampered_log[rolled]
    assert isinstance(entry, dict) and isinstance(entry["outcome"], int)
    entry["outcome"] = 7 - entry["outcome"]  # the die's face: the chance point's recorded outcome
    assert any(f"action {rolled}" in p for p in verify_match(info, tampered_log, view).problems)

    tampered_view = copy.deepcopy(view)
    tampered_view["view"] = {**tampered_view["view"], "turn": -1}
    assert "the final state differs from the replay's" in verify_match(info, actions, tampered_view).problems


def test_the_key_is_not_revealed_before_the_end(api: Api, server: LiveServer) -> None:
    match = api.create("pig", 2, seed=2, config={"target": 10})
    record: Any = fetch_public_match(server.url, match["id"])
    info, actions, view = record
    assert verify_match(info, actions, view).problems == ["the key is not revealed: the match is not over"]
    assert info["fairness"]["key"] is None
    early = api.ok(api.http.get(f"/api/matches/{match['id']}/verification"))
    assert (early["verified"], early["problems"]) == (
        False,
        ["the key is not revealed: the match is not over"],
    )
    listed = api.ok(api.http.get("/api/matches"))["matches"]
    assert all(m["fairness"]["key"] is None for m in listed)
