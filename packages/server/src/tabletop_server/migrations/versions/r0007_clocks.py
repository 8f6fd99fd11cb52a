"""Clocks: a match's time control and due time, the timeouts it recorded, bots standing in for seats.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _match_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["match_id"], ["matches.id"], name=op.f(f"fk_{table}_match_id_matches"), ondelete="CASCADE"
    )


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "clocks",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column(
            "settings", sa.JSON(), nullable=False, comment="time control and timeout policy, as created"
        ),
        sa.Column("state", sa.Text(), nullable=False, comment="every seat's clock as of head, JSON text"),
        sa.Column("head", sa.Integer(), nullable=False, comment="the match head the clock state is at"),
        sa.Column(
            "due_at", sa.DateTime(timezone=True), nullable=True, comment="when the next seat's time runs out"
        ),
        sa.Column(
            "lease_until", sa.DateTime(timezone=True), nullable=True, comment="a worker handles it until then"
        ),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _match_fk("clocks"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_clocks")),
    )
    op.create_index(op.f("ix_clocks_due_at"), "clocks", ["due_at"], unique=False)
    op.create_table(
        "timeouts",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column(
            "index", sa.Integer(), autoincrement=False, nullable=False, comment="the match head it expired at"
        ),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "observed_at", sa.DateTime(timezone=True), nullable=False, comment="when the server saw it"
        ),
        sa.Column("policy", sa.String(length=10), nullable=False),
        sa.Column(
            "outcome", sa.String(length=20), nullable=False, comment="bot, pass, forfeit, or superseded"
        ),
        sa.Column("action_id", sa.String(length=64), nullable=True, comment="the action played for the seat"),
        _match_fk("timeouts"),
        sa.PrimaryKeyConstraint("match_id", "index", "player_id", name=op.f("pk_timeouts")),
    )
    op.create_table(
        "stand_ins",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=False),
        sa.Column("bot", sa.JSON(), nullable=False, comment="the bot's settings"),
        sa.Column("reason", sa.String(length=10), nullable=False, comment="seat, creator, or timeouts"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _match_fk("stand_ins"),
        sa.PrimaryKeyConstraint("match_id", "player_id", name=op.f("pk_stand_ins")),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("stand_ins")
    op.drop_table("timeouts")
    op.drop_index(op.f("ix_clocks_due_at"), table_name="clocks")
    op.drop_table("clocks")
