"""Matches record their last logic-version migration: the version before it and when.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column(
                "migrated_from",
                sa.String(length=40),
                nullable=True,
                comment="logic version before the last migration",
            )
        )
        batch.add_column(sa.Column("migrated_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("migrated_at")
        batch.drop_column("migrated_from")
