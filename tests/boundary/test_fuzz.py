"""The boundary under a generated corpus, for every installed game.

Every payload either applies or raises :class:`IllegalActionError` (any other exception fails),
a rejected payload changes nothing (the copying ``run``), and no call is slow. The game's
exported request schema and the parser agree on accept/reject for every payload.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

import orjson
import pytest
from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]
from tabletop import IllegalActionError
from tabletop.games import available
from tabletop_fixtures.boundary import GameCorpus, Payload, corpus
from tabletop_fixtures.boundary_figures import PROPERTY, Figures

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
FAST_SAMPLE = 150
SLOW_SAMPLE = 10_000
ENUM_REPR = re.compile(r"<[A-Za-z_][\w.]*: ")
SLOWEST_ALLOWED = 0.5  # seconds, for any payload (the fast tier runs under typeguard)

# JSON Schema's "integer" admits 2.0; the boundary does not (a JSON integer is written without a
# fraction or exponent, which is all a JavaScript client ever sends for an integer).
_STRICT = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)
StrictValidator = validators.extend(Draft202012Validator, type_checker=_STRICT)


def _is_ijson(value: object) -> bool:
    """True if every string (keys too) is valid Unicode: no lone surrogates (RFC 7493)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_is_ijson(k) and _is_ijson(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_ijson(item) for item in value)
    return True


def _schema_accepts(validator: Draft202012Validator, payload: Payload, limit: int) -> bool:
    """The exported request schema's verdict on a body (within the byte limit, I-JSON text)."""
    if len(payload.body) > limit:
        return False
    try:
        value = json.loads(payload.body)
    except (ValueError, RecursionError):
        return False  # not JSON (or a number too long for Python to read)
    return _is_ijson(value) and validator.is_valid(value)


def _verdict(corpus: GameCorpus, raw: object) -> bool:
    try:
        corpus.harness.definition.parser.parse(raw)  # type: ignore[arg-type]
    except IllegalActionError:
        return False
    return True


def _submit(corpus: GameCorpus, payload: Payload, raw: object, figures: Figures) -> None:
    harness = corpus.harness
    state = corpus.states[payload.state]
    before = orjson.dumps(state.model_dump(mode="json"))
    start = perf_counter()
    rejected, message = True, ""
    try:
        harness.engine.run(raw, state, harness.game)  # type: ignore[arg-type]
        figures.applied += 1
        rejected = False
    except IllegalActionError as error:
        figures.codes[error.code] += 1
        message = error.message
    except Exception as error:  # counted, then fails the test
        figures.other_exceptions.append(f"{payload.kind}: {type(error).__name__}: {str(error)[:200]}")
    figures.slowest = max(figures.slowest, perf_counter() - start)
    figures.calls += 1
    assert len(message) <= 240, message  # bounded, whatever the payload
    assert not ENUM_REPR.search(message), message  # action types and enum values as plain strings
    if orjson.dumps(state.model_dump(mode="json")) != before:
        figures.mutations += rejected


Record = Callable[[str, object], None]


def _fuzz(name: str, size: int, tier: str, record: Record) -> None:
    built = corpus(name, size)
    figures = Figures(payloads=len(built.payloads))
    try:
        _fuzz_all(built, figures)
    finally:
        record(PROPERTY, (f"{name} ({tier})", figures.to_json()))
    assert len(built.payloads) >= size
    assert figures.other_exceptions == []
    assert figures.mutations == 0
    assert figures.slowest < SLOWEST_ALLOWED
    assert figures.applied > 0 and len(figures.codes) >= 5  # the corpus reaches both outcomes


def _fuzz_all(built: GameCorpus, figures: Figures) -> None:
    for payload in built.payloads:
        _submit(built, payload, payload.body, figures)
        if isinstance(payload.value, dict):
            _submit(built, payload, payload.value, figures)  # the decoded mapping, the other client path


def _agreement(name: str, size: int, tier: str, record: Record) -> None:
    built = corpus(name, size)
    figures = Figures()
    schema = json.loads((SCHEMAS / name / "request.json").read_text())
    validator = StrictValidator(schema)
    limit = built.harness.definition.parser.max_payload_bytes
    figures.payloads = len(built.payloads)
    disagreements = []
    for payload in built.payloads:
        expected = _schema_accepts(validator, payload, limit)
        forms: list[object] = [payload.body]
        if payload.has_value and isinstance(payload.value, dict):
            forms.append(payload.value)
        for raw in forms:
            if _verdict(built, raw) != expected:
                disagreements.append(f"{payload.kind} {type(raw).__name__}: {payload.body[:300]!r}")
            figures.agreements += 1
    record(PROPERTY, (f"{name} ({tier})", figures.to_json()))
    assert disagreements == []
    accepted = sum(_schema_accepts(validator, payload, limit) for payload in built.payloads)
    assert 0 < accepted < len(built.payloads)


@pytest.mark.parametrize("name", available())
def test_every_payload_applies_or_raises_a_typed_error_and_changes_nothing(
    name: str, record_property: Record
) -> None:
    _fuzz(name, FAST_SAMPLE, "fast", record_property)


@pytest.mark.parametrize("name", available())
def test_the_request_schema_and_the_parser_agree_on_every_payload(name: str, record_property: Record) -> None:
    _agreement(name, FAST_SAMPLE, "fast", record_property)


@pytest.mark.slow
@pytest.mark.parametrize("name", available())
def test_ten_thousand_payloads_apply_or_raise_typed_errors_and_change_nothing(
    name: str, record_property: Record
) -> None:
    _fuzz(name, SLOW_SAMPLE, "slow", record_property)


@pytest.mark.slow
@pytest.mark.parametrize("name", available())
def test_the_request_schema_and_the_parser_agree_on_ten_thousand_payloads(
    name: str, record_property: Record
) -> None:
    _agreement(name, SLOW_SAMPLE, "slow", record_property)
