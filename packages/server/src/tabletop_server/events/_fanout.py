"""Fan-out: the streams of one match share the work of each change, and none can stall the rest.

:class:`SharedSteps` computes a step once for every stream in step (the same perspective, seat
token, position and last documents) and hands each the same encoded frame.
:class:`BoundedWriter` writes a stream's frames from a small buffer: the event loop never waits
on a slow client, and a client whose buffer stays full is dropped (it reconnects with
``Last-Event-ID`` and loses nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncGenerator, Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from starlette.types import Receive, Scope, Send

__all__ = ["BoundedWriter", "SharedSteps", "StreamCounter"]

T = TypeVar("T")


class SharedSteps(Generic[T]):
    """One computation per key for the tasks that ask for it at about the same time.

    A task gets the result of a computation of its key that *started* no earlier than
    ``since`` (the moment it learned that something changed), else it starts one: a shared
    result never predates the change a task woke up for.

    Args:
        size: How many keys' latest computations are kept.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[float, asyncio.Future[T]]] = OrderedDict()
        self.computed = 0
        """How many computations ran (the rest of the calls shared one)."""

    async def run(self, key: Hashable, since: float, compute: Callable[[], Awaitable[T]]) -> T:
        """The result for ``key`` from a computation started at ``since`` or later."""
        loop = asyncio.get_running_loop()
        entry = self._entries.get(key)
        if entry is None or entry[0] < since:
            self.computed += 1

            async def job() -> T:
                return await compute()

            entry = (loop.time(), asyncio.ensure_future(job()))
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return await asyncio.shield(entry[1])  # a waiter going away does not cancel the others'


class StreamCounter:
    """How many event streams are open in this worker (``open``), for metrics and limits."""

    def __init__(self) -> None:
        self.open = 0
        self.dropped = 0
        """Streams closed because their client did not read (its buffer stayed full)."""


class BoundedWriter:
    """An ASGI ``text/event-stream`` response fed from a bounded buffer.

    Frames are produced by one task and sent by another; when ``buffer`` frames wait unsent for
    ``drop_after`` seconds, the client is not reading: the connection is dropped.

    Args:
        frames: The stream's frames.
        headers: Extra response headers.
        buffer: Frames that may wait to be sent.
        drop_after: Seconds the buffer may stay full.
        counter: Counts open and dropped streams.
    """

    def __init__(
        self,
        frames: AsyncGenerator[bytes, None],
        *,
        headers: dict[str, str],
        buffer: int,
        drop_after: float,
        counter: StreamCounter,
    ) -> None:
        self.frames = frames
        self.headers = [(b"content-type", b"text/event-stream; charset=utf-8")] + [
            (name.lower().encode(), value.encode()) for name, value in headers.items()
        ]
        self.buffer = buffer
        self.drop_after = drop_after
        self.counter = counter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the stream until it ends, the client leaves, or the client is dropped."""
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=self.buffer)
        self.counter.open += 1
        tasks: list[asyncio.Future[None] | asyncio.Future[bool]] = []
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.headers})
            writer = asyncio.ensure_future(self._write(queue, send))
            producer = asyncio.ensure_future(self._produce(queue))
            listener = asyncio.ensure_future(self._until_disconnect(receive))
            tasks += [writer, producer, listener]
            done, _ = await asyncio.wait({writer, producer, listener}, return_when=asyncio.FIRST_COMPLETED)
            if producer in done and producer.result():  # the stream ended: let the writer finish
                await asyncio.wait({writer, listener}, return_when=asyncio.FIRST_COMPLETED)
            elif producer in done:
                self.counter.dropped += 1  # the client does not read: drop the connection
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            with contextlib.suppress(Exception):
                await self.frames.aclose()  # the stream's own cleanup (its hub subscription)
            self.counter.open -= 1

    async def _produce(self, queue: asyncio.Queue[bytes | None]) -> bool:
        """Buffer the frames; True when they ended, False when the buffer stayed full."""
        async for frame in self.frames:
            try:
                queue.put_nowait(frame)
            except asyncio.QueueFull:
                try:
                    await asyncio.wait_for(queue.put(frame), self.drop_after)
                except TimeoutError:
                    return False
        await queue.put(None)
        return True

    @staticmethod
    async def _write(queue: asyncio.Queue[bytes | None], send: Send) -> None:
        while True:
            frame = await queue.get()
            if frame is None:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send({"type": "http.response.body", "body": frame, "more_body": True})

    @staticmethod
    async def _until_disconnect(receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
