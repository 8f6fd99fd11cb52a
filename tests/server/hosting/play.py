"""Playing a match to its end through the API."""

from __future__ import annotations

import random
import time

from tabletop_fixtures.live_server import Api, Json

__all__ = ["play_to_the_end", "wait_until_over"]


def play_to_the_end(api: Api, match_id: str, tokens: dict[str, str], seed: int, limit: int = 2000) -> int:
    """Play random legal actions of the seats until the match is over; the action count."""
    rng = random.Random(seed)
    for _ in range(limit):
        if api.match(match_id)["status"] != "in_progress":
            return int(api.match(match_id)["index"])
        for token in tokens.values():
            legal = api.view(match_id, token)["legal_actions"]
            if legal:
                api.ok(api.post_action(match_id, token, rng.choice(legal)))
                break
    raise AssertionError("the match did not end")


def wait_until_over(api: Api, match_id: str, timeout: float = 240) -> Json:
    """The info of a match its bots play, once it is no longer in progress (polled: a condition,
    with a generous deadline for a loaded machine)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = api.match(match_id)
        if info["status"] != "in_progress":
            return info
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} did not end: {api.match(match_id)}")
