"""The outbox across worker processes: a delivery a killed worker was making is made by another.

One after another (the killed worker's event sent by the next to start), and two side by side on
one PostgreSQL database (the survivor sends it once the lease runs out, and keeps delivering).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import Api
from tabletop_fixtures.receiver import Arrival, receiver, verify_signature
from tabletop_server.storage import DeliveryRow, Store, upgrade

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


HOLD_TIMEOUT = 4.0
"""``TABLETOP_WEBHOOK_TIMEOUT`` of the side-by-side test: a lease of 2 * 4 + 5 = 13 seconds (the
receiver answers at once, so no attempt times out even on a loaded machine)."""


def _socket_owner(local_port: int, remote_port: int, workers: Sequence[Worker]) -> Worker | None:
    """The worker holding the open loopback connection ``local_port`` -> ``remote_port`` (Linux)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == local_port and int(fields[2].split(":")[1], 16) == remote_port:
            inodes.add(f"socket:[{fields[9]}]")
    for worker in workers:
        if worker.process.poll() is not None:  # the killed one holds nothing (and has no /proc entry)
            continue
        try:
            fds = list(Path(f"/proc/{worker.process.pid}/fd").iterdir())
        except OSError:  # it ended meanwhile
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in inodes:
                    return worker
            except OSError:  # closed meanwhile
                continue
    return None


def _until(check: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="tells the sender by /proc (Linux)")
def test_two_workers_side_by_side_one_killed_mid_delivery_lose_nothing(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upgrade(postgres_url)
    monkeypatch.setenv("TABLETOP_WEBHOOK_TIMEOUT", str(HOLD_TIMEOUT))
    monkeypatch.setenv("TABLETOP_WEBHOOK_POLL_SECONDS", "0.05")
    monkeypatch.setenv("TABLETOP_WEBHOOK_RETRY_SECONDS", "0.1")
    workers = [Worker(postgres_url, tmp_path / f"worker-{n}.log") for n in range(2)]  # both at once
    store = Store(postgres_url)
    apis: list[Api] = []
    secrets: dict[str, str] = {}  # by match
    senders: list[tuple[Arrival, Worker | None]] = []
    killed: list[tuple[Worker, DeliveryRow]] = []
    problems: list[BaseException] = []

    def p2_row(match_id: str) -> DeliveryRow:
        [row] = store.deliveries(match_id, "p2")  # one event per match: p2's turn
        return row

    def notified_match(api: Api, seed: int, *, play: bool = True) -> str:
        """A match whose p2 has a webhook; with ``play``, p1 moves (its your-turn is queued)."""
        match = api.create("tic-tac-toe", 2, seed=seed)
        tokens = {p: api.join(match["id"], p) for p in ("p1", "p2")}
        response = api.http.post(
            f"/api/matches/{match['id']}/webhook", json={"url": hook.url}, headers=api.auth(tokens["p2"])
        )
        secrets[match["id"]] = api.ok(response, 201)["secret"]
        if play:
            move(api, match["id"], tokens["p1"])
        else:
            p1_tokens[match["id"]] = tokens["p1"]
        return str(match["id"])

    def move(api: Api, match_id: str, token: str) -> None:
        api.ok(api.post_action(match_id, token, api.view(match_id, token)["legal_actions"][0]))

    p1_tokens: dict[str, str] = {}

    def on_arrival(arrival: Arrival) -> None:  # in the receiver's thread, the sender still connected
        try:
            owner = _socket_owner(arrival.port, hook_port, workers)
            senders.append((arrival, owner))
            if arrival.held:
                assert owner is not None, "no worker holds the held connection"
                owner.kill()  # kill -9 while it waits for the answer
                killed.append((owner, p2_row(str(arrival.event["match_id"]))))
        except BaseException as error:
            problems.append(error)
            raise

    try:
        with receiver() as hook:
            hook_port = int(hook.url.split(":")[2].split("/")[0])
            hook.on_arrival = on_arrival
            for worker in workers:
                worker.wait_ready(timeout=240)
            apis += [Api(worker.url) for worker in workers]

            # Both workers deliver from one outbox, each event once.
            early = [notified_match(apis[n % 2], seed=n) for n in range(6)]
            _until(lambda: all(p2_row(m).status == "delivered" for m in early), "the first events")

            # The one delivery of this event is held open; its worker is killed mid-delivery.
            held_match = notified_match(apis[0], seed=10, play=False)
            hook.hold = 1
            move(apis[0], held_match, p1_tokens[held_match])
            _until(lambda: bool(killed or problems), "the held delivery's worker killed")
            assert not problems, problems
            [(dead, leased)] = killed
            [survivor] = [worker for worker in workers if worker is not dead]
            assert leased.status == "pending" and leased.attempts == 1 and leased.lease_until is not None

            # The survivor keeps delivering new events meanwhile, then the killed worker's one.
            alive = Api(survivor.url)
            apis.append(alive)
            late = [notified_match(alive, seed=20 + n) for n in range(3)]
            everyone = [*early, held_match, *late]
            _until(lambda: all(p2_row(m).status == "delivered" for m in everyone), "every event delivered")
            hook.wait_for(len(everyone))
            assert survivor.process.poll() is None  # it never stopped
            assert not problems, problems

            rows = {m: p2_row(m) for m in everyone}
            ids = {row.event_id: m for m, row in rows.items()}
            for match_id, row in rows.items():  # a stable id per event: match, revision, type, seat
                assert row.event_id.startswith(f"{match_id}.") and row.event_id.endswith(".your-turn.p2")
            answered = [d for d in hook.got if d.answered < 300]
            assert {d.event["id"] for d in answered} == set(ids)  # none lost, nothing else
            for delivered in answered:
                event_id = str(delivered.event["id"])
                assert delivered.headers["Tabletop-Event-Id"] == event_id
                assert verify_signature(
                    secrets[ids[event_id]], delivered.headers["Tabletop-Signature"], delivered.body
                )
            by_id: dict[str, list[tuple[Arrival, Worker | None]]] = {}
            for arrival, owner in senders:
                assert owner is not None, "an attempt from no worker"
                by_id.setdefault(str(arrival.event["id"]), []).append((arrival, owner))
            # Every attempt counted in the outbox reached the receiver once: no attempt was made
            # twice, by two workers or one.
            assert {event_id: len(tries) for event_id, tries in by_id.items()} == {
                row.event_id: row.attempts for row in rows.values()
            }
            for match_id in [*early, *late]:  # answered at once: one worker sent each, once
                assert rows[match_id].attempts == 1, rows[match_id]
            [(first, by), (second, again)] = by_id[rows[held_match].event_id]
            assert first.held and by is dead
            assert again is survivor and second.at > leased.lease_until.timestamp()  # after the lease
            assert rows[held_match].attempts == 2
            assert all(owner is survivor for m in late for _, owner in by_id[rows[m].event_id])
    finally:
        for api in apis:
            api.close()
        for worker in workers:
            worker.stop()
        store.close()
