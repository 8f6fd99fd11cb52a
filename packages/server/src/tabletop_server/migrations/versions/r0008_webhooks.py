"""Webhooks (a seat's notification URL, the durable outbox of its deliveries) and rematch links.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column(
            "secret",
            sa.String(length=128),
            nullable=False,
            comment="HMAC key of its signatures; returned once",
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_webhooks_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhooks")),
        sa.UniqueConstraint("match_id", "player_id", name=op.f("uq_webhooks_match_id_player_id")),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("webhook_id", sa.String(length=64), nullable=False),
        sa.Column("event_id", sa.String(length=200), nullable=False, comment="stable across retries"),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False, comment="the match's head when the event happened"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False, comment="pending, delivered or failed"),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "lease_until", sa.DateTime(timezone=True), nullable=True, comment="a worker is delivering it"
        ),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["webhook_id"],
            ["webhooks.id"],
            name=op.f("fk_webhook_deliveries_webhook_id_webhooks"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("webhook_id", "event_id", name=op.f("pk_webhook_deliveries")),
    )
    op.create_index(
        op.f("ix_webhook_deliveries_status_next_attempt_at"),
        "webhook_deliveries",
        ["status", "next_attempt_at"],
    )
    op.create_index(
        op.f("ix_webhook_deliveries_match_id_player_id"), "webhook_deliveries", ["match_id", "player_id"]
    )
    op.create_table(
        "rematches",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("next_id", sa.String(length=64), nullable=False, comment="the rematch of match_id"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_rematches_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["next_id"], ["matches.id"], name=op.f("fk_rematches_next_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_rematches")),
        sa.UniqueConstraint("next_id", name=op.f("uq_rematches_next_id")),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("rematches")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
