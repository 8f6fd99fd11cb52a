"""Snapshots: a match's state every so many actions, so undo and fork replay from the nearest one.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "snapshots",
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("index", sa.Integer(), autoincrement=False, nullable=False, comment="actions before it"),
        sa.Column(
            "state",
            sa.Text(),
            nullable=False,
            comment="the state after the first index actions, JSON text",
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_snapshots_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "index", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("snapshots")
