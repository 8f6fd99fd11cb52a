"""Provably fair chance: the commitment to a match's secret PRNG key, and checking a match with it.

At creation the match info publishes ``commitment = sha256("tabletop-commitment-v1:" + match id +
":" + key)`` (hex). The key stays host-only while the match runs (it decides every roll and
draw: whoever knows it knows the future). Once the match is finished or ended the info reveals
the key and the seed; anyone can then check that the key is the committed one and that a replay
of the public log from the seed with that key records every chance outcome (the system actions
and their metadata, as published) and the final state the server published.
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
from dataclasses import dataclass, field
from typing import cast

from pydantic import JsonValue
from tabletop import TabletopError
from tabletop.schemas import SERVER_ASSIGNED_FIELDS
from tabletop.views import SPECTATOR

from tabletop_server._errors import ApiError
from tabletop_server._registry import GameRegistry
from tabletop_server._runtime import JsonDict, action_json, build_game, start_game, view_json
from tabletop_server.storage import MatchRow

__all__ = [
    "COMMITMENT_PREFIX",
    "Verdict",
    "commitment",
    "fairness_json",
    "fetch_public_match",
    "verify_match",
]

COMMITMENT_PREFIX = "tabletop-commitment-v1:"
"""What the committed hash starts with (a version, so the scheme can change)."""

OVER = ("finished", "ended")


def commitment(match_id: str, key: str) -> str:
    """The published commitment to ``key`` for ``match_id``.

    Example:
        >>> commitment("m_1", "00" * 16)[:12]
        'e441dda9b7b8'
    """
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{match_id}:{key}".encode()).hexdigest()


def fairness_json(row: MatchRow) -> JsonDict:
    """The ``Fairness`` JSON of a match: the commitment, and the key and seed once it is over."""
    if row.prng_key is None:
        return {"commitment": None, "key": None, "seed": None}
    over = row.status in OVER
    return {
        "commitment": commitment(row.id, row.prng_key),
        "key": row.prng_key if over else None,
        "seed": row.seed if over else None,
    }


@dataclass
class Verdict:
    """What ``verify_match`` found.

    Attributes:
        problems: Every check that failed (empty: the match verifies).
        actions: Actions replayed and compared.
        chance: Of them, actions with recorded metadata (a roll's face, a draw: the outcomes the
            engine recorded), each reproduced by the replay.
    """

    problems: list[str] = field(default_factory=list)
    actions: int = 0
    chance: int = 0

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return not self.problems


_NOT_SUBMITTED = set(SERVER_ASSIGNED_FIELDS) | {"metadata", "simultaneous_group_id"}


def verify_match(
    info: JsonDict, actions: list[JsonValue], view: JsonDict, registry: GameRegistry | None = None
) -> Verdict:
    """Check a finished match from its public record alone.

    Args:
        info: Its ``MatchInfo`` (with ``fairness.key`` revealed).
        actions: Its whole log as a spectator sees it (``GET .../actions``).
        view: The spectator's ``ViewResponse`` now (its ``view`` is the final state's projection).
        registry: The installed games (default: all).
    """
    verdict = Verdict()
    fairness = cast(dict[str, JsonValue], info.get("fairness") or {})
    key, seed, match_id = fairness.get("key"), fairness.get("seed"), str(info["id"])
    if not isinstance(key, str) or not isinstance(seed, int):
        verdict.problems.append("the key is not revealed: the match is not over")
        return verdict
    if commitment(match_id, key) != fairness.get("commitment"):
        verdict.problems.append("the revealed key does not match the commitment published at creation")
    if info.get("replay_base") != 0:
        verdict.problems.append(
            "the match starts from a fork's or a migration's base state, not from its seed"
        )
        return verdict
    try:
        entry = (registry or GameRegistry()).get(str(info["game"]))
        seats = cast(list[dict[str, JsonValue]], info["seats"])
        game = build_game(
            entry,
            match_id,
            [(str(s["player_id"]), str(s["name"]), s.get("bot") is None) for s in seats],
            cast(JsonDict, info["config"]),
            seed,
        )
    except ApiError as error:
        verdict.problems.append(f"the match cannot be rebuilt: {error.message}")
        return verdict
    if entry.definition.logic_version != info.get("logic_version"):
        verdict.problems.append(
            f"the match ran {entry.name} {info.get('logic_version')}; "
            f"{entry.definition.logic_version} is installed"
        )
    started = start_game(entry, game, key)
    state = started.state
    replayed = list(started.actions)
    position = len(replayed)
    for published in actions[position:]:
        if not isinstance(published, dict) or published.get("source") != "user":
            continue
        submitted = {k: v for k, v in published.items() if k not in _NOT_SUBMITTED}
        try:
            result = entry.engine.run(submitted, state, game)
        except (TabletopError, ValueError) as error:
            verdict.problems.append(
                f"action {published.get('index')} does not replay from the public log: {str(error)[:200]}"
            )
            return verdict
        state = result.state
        replayed.extend(result.actions)
    mine = [action_json(action, SPECTATOR) for action in replayed]
    for index, (expected, got) in enumerate(zip(mine, actions, strict=False)):
        if expected != got:
            verdict.problems.append(f"action {index} differs from the replay with the revealed key")
            break
    if len(mine) != len(actions):
        verdict.problems.append(f"the replay records {len(mine)} actions, the log {len(actions)}")
    if view_json(state, SPECTATOR) != view.get("view"):
        verdict.problems.append("the final state differs from the replay's")
    if state.action_checksum != info.get("checksum"):
        verdict.problems.append("the checksum of the log differs from the replay's")
    verdict.actions = len(mine)
    verdict.chance = sum(1 for action in mine if action.get("metadata"))
    return verdict


def _get(url: str) -> JsonDict:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return cast(JsonDict, json.loads(answer.read()))


def fetch_public_match(base_url: str, match_id: str) -> tuple[JsonDict, list[JsonValue], JsonDict]:
    """A match's info, whole spectator log and spectator view from a server (as anyone sees them)."""
    base = base_url.rstrip("/")
    info = _get(f"{base}/api/matches/{match_id}")
    actions: list[JsonValue] = []
    after = -1
    while True:
        page = _get(f"{base}/api/matches/{match_id}/actions?after={after}")
        actions.extend(cast(list[JsonValue], page["actions"]))
        if page.get("next_after") is None:
            break
        after = cast(int, page["next_after"])
    return info, actions, _get(f"{base}/api/matches/{match_id}/view")


def verdict_json(verdict: Verdict) -> JsonDict:
    """The ``Verification`` JSON of a verdict."""
    return {
        "verified": verdict.ok,
        "problems": list(verdict.problems),
        "actions": verdict.actions,
        "outcomes": verdict.chance,
    }
