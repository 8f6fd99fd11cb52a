"""Stream tokens remember the seat token that minted them (a stream ends when it stops holding the seat).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.add_column(
        "stream_tokens",
        sa.Column(
            "seat_token_hash",
            sa.String(length=64),
            nullable=True,
            comment="sha256 of the seat token that minted it; null: a spectator",
        ),
    )


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("stream_tokens") as batch:
        batch.drop_column("seat_token_hash")
