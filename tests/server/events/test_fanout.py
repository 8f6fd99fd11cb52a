"""The fan-out parts: a writer that drops a client that does not read, and shared steps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from starlette.types import Message
from tabletop_server.events import BoundedWriter, SharedSteps, StreamCounter

SCOPE = {"type": "http", "method": "GET", "path": "/api/matches/m/events"}


class _Frames:
    """An endless stream of frames that records whether it was closed."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.closed = False

    async def run(self) -> AsyncGenerator[bytes, None]:
        n = 0
        try:
            while self.limit is None or n < self.limit:
                n += 1
                yield b"event: update\ndata: %d\n\n" % n
                await asyncio.sleep(0.001)
        finally:
            self.closed = True


async def _never() -> Message:
    await asyncio.Event().wait()
    return {"type": "http.disconnect"}


def test_a_client_that_stops_reading_is_dropped_and_its_stream_closed() -> None:
    async def scenario() -> tuple[StreamCounter, _Frames, list[Message]]:
        sent: list[Message] = []

        async def send(message: Message) -> None:  # the client reads two frames, then stalls
            sent.append(message)
            if len(sent) > 2:
                await asyncio.Event().wait()

        frames, counter = _Frames(), StreamCounter()
        writer = BoundedWriter(frames.run(), headers={}, buffer=2, drop_after=0.2, counter=counter)
        await asyncio.wait_for(writer(SCOPE, _never, send), 30)
        return counter, frames, sent

    counter, frames, sent = asyncio.run(scenario())
    assert (counter.dropped, counter.open, frames.closed) == (1, 0, True)
    assert sent[0]["type"] == "http.response.start" and len(sent) == 3


def test_a_reading_client_gets_every_frame_and_the_end() -> None:
    async def scenario() -> tuple[StreamCounter, list[Message]]:
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)
            await asyncio.sleep(0.005)  # slower than the frames come, but reading

        counter = StreamCounter()
        writer = BoundedWriter(
            _Frames(40).run(), headers={"x-a": "b"}, buffer=2, drop_after=5, counter=counter
        )
        await asyncio.wait_for(writer(SCOPE, _never, send), 30)
        return counter, sent

    counter, sent = asyncio.run(scenario())
    assert (counter.dropped, counter.open) == (0, 0)
    bodies = [message["body"] for message in sent[1:]]
    assert bodies[:-1] == [b"event: update\ndata: %d\n\n" % n for n in range(1, 41)]
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert (b"x-a", b"b") in sent[0]["headers"]


def test_shared_steps_run_once_for_waiters_since_a_change_and_again_after_a_newer_one() -> None:
    async def scenario() -> tuple[list[int], list[int], int]:
        steps: SharedSteps[int] = SharedSteps()
        runs: list[int] = []

        async def compute() -> int:
            runs.append(len(runs))
            await asyncio.sleep(0.01)
            return len(runs)

        loop = asyncio.get_running_loop()
        changed = loop.time()
        first = await asyncio.gather(*(steps.run("k", changed, compute) for _ in range(50)))
        later = loop.time()  # a change after that computation started: computed again, once
        second = await asyncio.gather(*(steps.run("k", later, compute) for _ in range(5)))
        return first, second, steps.computed

    first, second, computed = asyncio.run(scenario())
    assert set(first) == {1} and len(first) == 50
    assert set(second) == {2} and computed == 2
