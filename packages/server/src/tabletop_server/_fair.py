"""Provably fair chance: the commitment to a match's secret PRNG key, and checking a match with it.

At creation the match info publishes ``commitment = sha256("tabletop-commitment-v1:" + match id +
":" + key)`` (hex). The key stays host-only while the match runs (it decides every roll and
draw: whoever knows it knows the future). Once the match is finished or ended the info reveals
the key and the seed, and ``GET .../full-log`` serves the log as recorded (every action in full,
the players' hidden choices and the cards dealt included: the key reveals the deals anyway).
Anyone can then check that the key is the committed one, that a replay of the full log's player
actions from the seed with that key records exactly the full log (every chance outcome
included), that the spectator's log is exactly its projection (the host showed everyone the
same game), and the final state the server published.
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import cast

from pydantic import JsonValue
from tabletop import TabletopError
from tabletop.schemas import SERVER_ASSIGNED_FIELDS
from tabletop.views import SPECTATOR

from tabletop_server._errors import ApiError
from tabletop_server._registry import GameEntry, GameRegistry
from tabletop_server._runtime import Action, JsonDict, action_json, build_game, start_game, view_json
from tabletop_server.storage import MatchRow

__all__ = [
    "COMMITMENT_PREFIX",
    "OVER",
    "MatchRecord",
    "Verdict",
    "commitment",
    "fairness_json",
    "fetch_public_match",
    "verdict_json",
    "verify_match",
]

COMMITMENT_PREFIX = "tabletop-commitment-v1:"
"""What the committed hash starts with (a version, so the scheme can change)."""

OVER = ("finished", "ended")
"""The statuses in which the key, the seed and the full log are public."""


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


@dataclass(frozen=True)
class MatchRecord:
    """What anyone may read of a match (``fetch_public_match``), all that ``verify_match`` checks.

    Attributes:
        info: Its ``MatchInfo`` (``fairness.key`` and ``seed`` revealed once it is over).
        log: Its whole log as a spectator sees it (``GET .../actions``).
        view: The spectator's ``ViewResponse`` (its ``view`` is the final state's projection).
        full_log: Every action as recorded, hidden parts included (``GET .../full-log``); None
            while the match runs (it is not served before the end).
    """

    info: JsonDict
    log: list[JsonValue]
    view: JsonDict
    full_log: list[JsonValue] | None


@dataclass
class Verdict:
    """What ``verify_match`` found.

    Attributes:
        problems: Every check that failed (empty: the match verifies).
        actions: Actions of the full log replayed and compared.
        chance: Of them, actions with recorded outcomes (a chance point's outcome, such as a roll's
            face or a dealt card, or an action's metadata), each reproduced by the replay.
        hidden: Of them, actions with parts hidden from spectators (a sealed bid, a dealt card),
            checked in full and their projection compared with the spectator's log.
    """

    problems: list[str] = field(default_factory=list)
    actions: int = 0
    chance: int = 0
    hidden: int = 0

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return not self.problems


_NOT_SUBMITTED = set(SERVER_ASSIGNED_FIELDS) | {"metadata", "simultaneous_group_id"}
_MISSING = object()
_REPLAYED = ("the full log", "the replay with the revealed key", "the replay")
_PROJECTED = ("the spectator log", "the full log's projection", "the projection")


def _shown(value: object) -> str:
    text = "missing" if value is _MISSING else json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _differences(left: object, right: object, path: str, found: list[tuple[str, object, object]]) -> None:
    """Append to ``found`` every leaf where the JSON values ``left`` and ``right`` differ."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            mine, theirs = left.get(key, _MISSING), right.get(key, _MISSING)
            if mine != theirs:
                _differences(mine, theirs, f"{path}.{key}" if path else str(key), found)
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (mine, theirs) in enumerate(zip(left, right, strict=True)):
            if mine != theirs:
                _differences(mine, theirs, f"{path}[{index}]", found)
    else:
        found.append((path or "the action", left, right))


def _difference(left: object, right: object, names: tuple[str, str]) -> str:
    """Where two differing actions differ, in words: the first three fields, then how many more."""
    found: list[tuple[str, object, object]] = []
    _differences(left, right, "", found)
    said = [
        f"{path} is {_shown(mine)} in {names[0]}, {_shown(theirs)} in {names[1]}"
        for path, mine, theirs in found
    ]
    more = f"; {len(said) - 3} more fields differ" if len(said) > 3 else ""
    return "; ".join(said[:3]) + more


def _first_difference(
    verdict: Verdict, got: list[JsonValue], expected: list[JsonValue], what: str, against: str, short: str
) -> None:
    """Record the first action where ``got`` (``what``) is not ``expected`` (``against``, its
    values named ``short``)."""
    for index, (mine, theirs) in enumerate(zip_longest(got, expected, fillvalue=_MISSING)):
        if mine is _MISSING or theirs is _MISSING:
            verdict.problems.append(f"{what} has {len(got)} actions, {against} {len(expected)}")
            return
        if mine != theirs:
            kind = mine.get("type") if isinstance(mine, dict) else None
            where = _difference(mine, theirs, (what, short))
            verdict.problems.append(f"action {index} ({kind}) of {what} differs from {against}: {where}")
            return


def verify_match(record: MatchRecord, registry: GameRegistry | None = None) -> Verdict:
    """Check a finished match from its public record alone.

    The checks: the revealed key is the committed one; replaying the full log's player actions
    from the seed with the key records exactly the full log (every chance outcome, every hidden
    choice); the spectator's log is exactly the full log's projection; the spectator's final
    view and the checksum are the replay's.

    Args:
        record: Its info, spectator log and view, and full log.
        registry: The installed games (default: all).
    """
    verdict = Verdict()
    info = record.info
    fairness = cast(dict[str, JsonValue], info.get("fairness") or {})
    key, seed, match_id = fairness.get("key"), fairness.get("seed"), str(info["id"])
    if not isinstance(key, str) or not isinstance(seed, int):
        verdict.problems.append("the key is not revealed: the match is not over")
        return verdict
    if record.full_log is None:
        verdict.problems.append("the full log is missing: the server serves it once the match is over")
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
    full = record.full_log
    started = start_game(entry, game, key)
    state = started.state
    replayed: list[Action] = list(started.actions)
    failure = None
    for index, recorded in enumerate(full):
        if index < len(started.actions) or not isinstance(recorded, dict):
            continue
        host = _is_host_action(entry, recorded)
        if recorded.get("source") != "user" and not host:
            continue
        try:
            if host:  # a loss on time: the host's record, applied again by the game's forfeit rule
                result = entry.engine.record(_without_metadata(recorded), state, game)
            else:
                submitted = {k: v for k, v in recorded.items() if k not in _NOT_SUBMITTED}
                result = entry.engine.run(submitted, state, game)
        except (TabletopError, ValueError) as error:
            failure = (
                f"action {index} ({recorded.get('type')}) of the full log does not replay: {str(error)[:200]}"
            )
            break
        state = result.state
        replayed.extend(result.actions)
    mine = [cast(JsonValue, action.model_dump(mode="json")) for action in replayed]
    if failure is not None:  # where the replay went another way before, then why it stopped
        _first_difference(verdict, full[: len(mine)], mine, *_REPLAYED)
        verdict.problems.append(failure)
        return verdict
    _first_difference(verdict, full, mine, *_REPLAYED)
    try:
        projected = [_spectators(entry.definition.action_by_type, action) for action in full]
    except (KeyError, TypeError, ValueError) as error:
        verdict.problems.append(f"the full log holds an action the game does not know: {str(error)[:200]}")
        return verdict
    _first_difference(verdict, record.log, projected, *_PROJECTED)
    if view_json(state, SPECTATOR) != record.view.get("view"):
        verdict.problems.append("the final state differs from the replay's")
    if state.action_checksum != info.get("checksum"):
        verdict.problems.append("the checksum of the log differs from the replay's")
    verdict.actions = len(full)
    verdict.chance = sum(1 for action in full if _has_outcome(action))
    verdict.hidden = sum(1 for action, seen in zip(full, projected, strict=True) if action != seen)
    return verdict


def _is_host_action(entry: GameEntry, recorded: dict[str, JsonValue]) -> bool:
    """True for a recorded host action (``TimeExpired``), which a replay records again."""
    kind = entry.definition.action_by_type.get(str(recorded.get("type")))
    return kind is not None and kind.host_action


def _without_metadata(recorded: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return {k: v for k, v in recorded.items() if k != "metadata"}


def _has_outcome(action: JsonValue) -> bool:
    """Whether a recorded action holds an outcome the engine decided (a chance point's, or the
    metadata of an action's effect)."""
    return isinstance(action, dict) and (action.get("outcome") is not None or bool(action.get("metadata")))


def _spectators(by_type: Mapping[str, type[Action]], recorded: JsonValue) -> JsonValue:
    """A full log's action as the spectator sees it."""
    assert isinstance(recorded, dict), "an action is a JSON object"
    return action_json(by_type[str(recorded["type"])].model_validate(recorded), SPECTATOR)


def _get(url: str) -> JsonValue:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return cast(JsonValue, json.loads(answer.read()))


def _pages(url: str) -> list[JsonValue]:
    """Every action of a paged log route (``actions`` and ``next_after``)."""
    actions: list[JsonValue] = []
    after = -1
    while True:
        page = cast(JsonDict, _get(f"{url}?after={after}"))
        actions.extend(cast(list[JsonValue], page["actions"]))
        if page.get("next_after") is None:
            return actions
        after = cast(int, page["next_after"])


def fetch_public_match(base_url: str, match_id: str) -> MatchRecord:
    """A match's record from a server, as anyone reads it: its info, the spectator's whole log
    and view, and, once the info reveals the key, the full log."""
    base = f"{base_url.rstrip('/')}/api/matches/{match_id}"
    info = cast(JsonDict, _get(base))
    log = _pages(f"{base}/actions")
    view = cast(JsonDict, _get(f"{base}/view"))
    fairness = info.get("fairness")
    revealed = isinstance(fairness, dict) and fairness.get("key") is not None
    return MatchRecord(info, log, view, _pages(f"{base}/full-log") if revealed else None)


def verdict_json(verdict: Verdict) -> JsonDict:
    """The ``Verification`` JSON of a verdict."""
    return {
        "verified": verdict.ok,
        "problems": list(verdict.problems),
        "actions": verdict.actions,
        "outcomes": verdict.chance,
        "hidden": verdict.hidden,
    }
