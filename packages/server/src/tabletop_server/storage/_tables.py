"""The tables, as SQLAlchemy Core metadata (the migrations are checked against it)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "actions",
    "clocks",
    "idempotency_keys",
    "matches",
    "metadata",
    "rematches",
    "seats",
    "snapshots",
    "stand_ins",
    "stream_tokens",
    "timeouts",
    "webhook_deliveries",
    "webhooks",
]

ID = 64
"""Longest id (match, player, action): the API's ids are short strings."""

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

matches = Table(
    "matches",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("game", String(100), nullable=False),
    Column("logic_version", String(40), nullable=False),
    Column("config", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("prng_key", String(128), nullable=True, comment="host-only secret; never sent"),
    Column("status", String(20), nullable=False),
    Column("head", Integer, nullable=False, comment="number of recorded actions"),
    Column("revision", Integer, nullable=False, comment="compare-and-set guard; +1 per write"),
    Column("checksum", BigInteger, nullable=False),
    Column("state", Text, nullable=False, comment="current full state, JSON text"),
    Column("result", String(20), nullable=True),
    Column("winners", JSON, nullable=False),
    Column("parent_id", String(ID), ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
    Column("parent_index", Integer, nullable=True),
    Column("base_state", Text, nullable=True, comment="start of a non-reproducible fork"),
    Column("base_index", Integer, nullable=False),
    Column("has_bots", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("migrated_from", String(40), nullable=True, comment="logic version before the last migration"),
    Column("migrated_at", DateTime(timezone=True), nullable=True),
    Column("creator_hash", String(64), nullable=True, comment="sha256 of the creator token"),
    Column(
        "visibility",
        String(10),
        nullable=False,
        server_default="public",
        comment="public: listed, seats open to anyone; private: seats need an invite",
    ),
    Index(None, "game", "status", "created_at"),
    Index(None, "status", "created_at"),
    Index(None, "created_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(ID), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("bot", JSON(none_as_null=True), nullable=True),
    Column("token_hash", String(64), nullable=True, comment="sha256 of the seat token"),
    Column("invite_hash", String(64), nullable=True, comment="sha256 of the invite secret"),
)

actions = Table(
    "actions",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("index", Integer, primary_key=True, autoincrement=False),
    Column("action_id", String(ID), nullable=False),
    Column("submission_id", String(ID), nullable=True),
    Column("player_id", String(ID), nullable=True),
    Column("type", String(100), nullable=False),
    Column("source", String(10), nullable=False),
    Column("reveals_info", Boolean, nullable=False),
    Column("action", Text, nullable=False, comment="full recorded action, JSON text"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("match_id", "player_id", "action_id"),
    Index(None, "match_id", "submission_id"),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("index", Integer, primary_key=True, autoincrement=False, comment="actions before it"),
    Column("state", Text, nullable=False, comment="the state after the first index actions, JSON text"),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

stream_tokens = Table(
    "stream_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", String(ID), nullable=True, comment="null: a spectator"),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used", Boolean, nullable=False),
    Column(
        "seat_token_hash",
        String(64),
        nullable=True,
        comment="sha256 of the seat token that minted it; null: a spectator",
    ),
    Index(None, "expires_at"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(200), primary_key=True, comment="what the key is for: the route and its target"),
    Column("key", String(ID), primary_key=True),
    Column("request_hash", String(64), nullable=False, comment="sha256 of the request it answered"),
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", String(ID), nullable=True),
    Column("token_hash", String(64), nullable=True, comment="the seat token a claim gave"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index(None, "expires_at"),
)

clocks = Table(
    "clocks",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("settings", JSON, nullable=False, comment="time control and timeout policy, as created"),
    Column("state", Text, nullable=False, comment="every seat's clock as of head, JSON text"),
    Column("head", Integer, nullable=False, comment="the match head the clock state is at"),
    Column("due_at", DateTime(timezone=True), nullable=True, comment="when the next seat's time runs out"),
    Column("lease_until", DateTime(timezone=True), nullable=True, comment="a worker handles it until then"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index(None, "due_at"),
)

timeouts = Table(
    "timeouts",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("index", Integer, primary_key=True, autoincrement=False, comment="the match head it expired at"),
    Column("player_id", String(ID), primary_key=True),
    Column("due_at", DateTime(timezone=True), nullable=False),
    Column("observed_at", DateTime(timezone=True), nullable=False, comment="when the server saw it"),
    Column("policy", String(10), nullable=False),
    Column("outcome", String(20), nullable=False, comment="bot, pass, forfeit, or superseded"),
    Column("action_id", String(ID), nullable=True, comment="the action played for the seat"),
)

stand_ins = Table(
    "stand_ins",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(ID), primary_key=True),
    Column("bot", JSON, nullable=False, comment="the bot's settings"),
    Column("reason", String(10), nullable=False, comment="seat, creator, or timeouts"),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

webhooks = Table(
    "webhooks",
    metadata,
    Column("id", String(ID), primary_key=True),
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", String(ID), nullable=False),
    Column("url", Text, nullable=False),
    Column("secret", String(128), nullable=False, comment="HMAC key of its signatures; returned once"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("match_id", "player_id"),
)

webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    Column("webhook_id", String(ID), ForeignKey("webhooks.id", ondelete="CASCADE"), primary_key=True),
    Column("event_id", String(200), primary_key=True, comment="stable across retries"),
    Column("type", String(40), nullable=False),
    Column("match_id", String(ID), nullable=False),
    Column("player_id", String(ID), nullable=False),
    Column("index", Integer, nullable=False, comment="the match's head when the event happened"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("status", String(20), nullable=False, comment="pending, delivered or failed"),
    Column("attempts", Integer, nullable=False),
    Column("next_attempt_at", DateTime(timezone=True), nullable=False),
    Column("lease_until", DateTime(timezone=True), nullable=True, comment="a worker is delivering it"),
    Column("last_error", Text, nullable=True),
    Index(None, "status", "next_attempt_at"),
    Index(None, "match_id", "player_id"),
)

rematches = Table(
    "rematches",
    metadata,
    Column("match_id", String(ID), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "next_id",
        String(ID),
        ForeignKey("matches.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
        comment="the rematch of match_id",
    ),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
