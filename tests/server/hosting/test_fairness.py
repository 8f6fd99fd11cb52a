"""Provably fair chance: a commitment at creation, the key revealed at the end, and ``tabletop verify``."""

from __future__ import annotations

import dataclasses
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
    record = fetch_public_match(server.url, match_id)
    fairness = record.info["fairness"]
    assert isinstance(fairness, dict)
    digest = hashlib.sha256(f"tabletop-commitment-v1:{match_id}:{fairness['key']}".encode()).hexdigest()
    assert fairness["commitment"] == digest
    assert record.full_log == record.log  # pig hides nothing: the full log is the spectator's
    verdict = verify_match(record)
    assert verdict.problems == []
    assert verdict.chance > 0 and verdict.actions == len(record.log) and verdict.hidden == 0
    done = subprocess.run(
        [str(TABLETOP), "verify", match_id, "--server", server.url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"verified {match_id}" in done.stdout
    checked = api.ok(api.http.get(f"/api/matches/{match_id}/verification"))  # the UI's verify link
    assert checked == {
        "verified": True,
        "problems": [],
        "actions": len(record.log),
        "outcomes": verdict.chance,
        "hidden": 0,
    }


def test_verify_refuses_a_tampered_key_log_or_state(api: Api, server: LiveServer) -> None:
    match_id = _finished_pig(api)
    record = fetch_public_match(server.url, match_id)
    info: Any = record.info
    actions: Any = record.log

    other_key = dataclasses.replace(record, info={**info, "fairness": {**info["fairness"], "key": "0" * 32}})
    assert any("commitment" in p for p in verify_match(other_key).problems)

    recommitted = dataclasses.replace(  # a host that also lies about the commitment
        other_key,
        info={
            **other_key.info,
            "fairness": {
                "commitment": hashlib.sha256(
                    f"tabletop-commitment-v1:{match_id}:{'0' * 32}".encode()
                ).hexdigest(),
                "key": "0" * 32,
                "seed": info["fairness"]["seed"],
            },
        },
    )
    assert verify_match(recommitted).problems  # the rolls do not replay

    rolled = next(n for n, a in enumerate(actions) if a["type"] == "RollDie")
    tampered: Any = [dict(a) for a in actions]
    tampered[rolled]["outcome"] = 7 - tampered[rolled]["outcome"]  # the die's face: the recorded outcome
    for forged in (dataclasses.replace(record, log=tampered), dataclasses.replace(record, full_log=tampered)):
        assert any(p.startswith(f"action {rolled} (RollDie) ") for p in verify_match(forged).problems)

    view: Any = record.view
    tampered_view = dataclasses.replace(record, view={**view, "view": {**view["view"], "turn": -1}})
    assert verify_match(tampered_view).problems == ["the final state differs from the replay's"]


def test_the_key_is_not_revealed_before_the_end(api: Api, server: LiveServer) -> None:
    match = api.create("pig", 2, seed=2, config={"target": 10})
    record = fetch_public_match(server.url, match["id"])
    assert record.full_log is None  # not fetched: the info reveals no key
    assert verify_match(record).problems == ["the key is not revealed: the match is not over"]
    info: Any = record.info
    assert info["fairness"]["key"] is None
    early = api.ok(api.http.get(f"/api/matches/{match['id']}/verification"))
    assert (early["verified"], early["problems"]) == (
        False,
        ["the key is not revealed: the match is not over"],
    )
    listed = api.ok(api.http.get("/api/matches"))["matches"]
    assert all(m["fairness"]["key"] is None for m in listed)
