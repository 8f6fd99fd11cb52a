"""The outbox across worker processes: a delivery a killed worker was making is made by another."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import Api
from tabletop_fixtures.receiver import receiver, verify_signature

from tests.server.scale.workers import Worker


def _started(url: str, folder: Path) -> Worker:
    """A ``tabletop serve`` process, waited for generously (a loaded machine starts it slowly)."""
    worker = Worker(url, folder / "worker.log")
    try:
        worker.wait_ready(timeout=240)
    except BaseException:
        worker.stop()
        raise
    return worker


def test_a_worker_killed_mid_delivery_loses_nothing(
    migrated_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_WEBHOOK_TIMEOUT", "1")
    monkeypatch.setenv("TABLETOP_WEBHOOK_POLL_SECONDS", "0.05")
    monkeypatch.setenv("TABLETOP_WEBHOOK_RETRY_SECONDS", "0.1")
    first = _started(migrated_url, tmp_path)
    second: Worker | None = None
    with receiver() as hook:
        try:
            api = Api(first.url)
            match = api.create("tic-tac-toe", 2, seed=5)
            tokens = {p: api.join(match["id"], p) for p in ("p1", "p2")}
            response = api.http.post(
                f"/api/matches/{match['id']}/webhook", json={"url": hook.url}, headers=api.auth(tokens["p2"])
            )
            secret = api.ok(response, 201)["secret"]
            hook.stall = 20.0  # the first attempt hangs: the worker is killed while it waits
            view = api.view(match["id"], tokens["p1"])
            api.ok(api.post_action(match["id"], tokens["p1"], view["legal_actions"][0]))
            deadline = time.monotonic() + 30
            while not hook.requests_seen:
                assert time.monotonic() < deadline, "the first attempt never arrived"
                time.sleep(0.05)
            first.kill()
            api.close()
            hook.stall = 0.0
            (tmp_path / "second").mkdir()
            second = _started(migrated_url, tmp_path / "second")
            delivered = hook.wait_for(1, timeout=60)[0]  # after the killed worker's lease ran out
            assert delivered.event["type"] == "your-turn"
            assert verify_signature(secret, delivered.headers["Tabletop-Signature"], delivered.body)
            assert hook.requests_seen == 2  # the killed attempt and the redelivery, same event id
            assert {d.event["id"] for d in hook.got} == {delivered.event["id"]}
            listed = httpx.get(
                f"{second.url}/api/matches/{match['id']}/webhook/deliveries",
                headers={"Authorization": f"Bearer {tokens['p2']}"},
            ).json()["deliveries"]
            deadline = time.monotonic() + 30
            while listed[0]["status"] != "delivered":
                assert time.monotonic() < deadline
                time.sleep(0.1)
                listed = httpx.get(
                    f"{second.url}/api/matches/{match['id']}/webhook/deliveries",
                    headers={"Authorization": f"Bearer {tokens['p2']}"},
                ).json()["deliveries"]
            assert listed[0]["event_id"] == delivered.event["id"]
            assert listed[0]["attempts"] == 2
        finally:
            first.stop()
            if second is not None:
                second.stop()
