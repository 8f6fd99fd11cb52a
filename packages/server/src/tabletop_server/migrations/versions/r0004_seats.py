"""Seats and idempotency: creator tokens, invite secrets, public or private matches, action ids
scoped to the seat that sends them, and the idempotency records of retried requests.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column(
                "creator_hash", sa.String(length=64), nullable=True, comment="sha256 of the creator token"
            )
        )
        batch.add_column(
            sa.Column(
                "visibility",
                sa.String(length=10),
                nullable=False,
                server_default="public",
                comment="public: listed, seats open to anyone; private: seats need an invite",
            )
        )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column(
                "invite_hash", sa.String(length=64), nullable=True, comment="sha256 of the invite secret"
            )
        )
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_match_id_action_id", type_="unique")
        batch.create_unique_constraint(
            "uq_actions_match_id_player_id_action_id", ["match_id", "player_id", "action_id"]
        )
    op.create_table(
        "idempotency_keys",
        sa.Column(
            "scope",
            sa.String(length=200),
            nullable=False,
            comment="what the key is for: the route and its target",
        ),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column(
            "request_hash", sa.String(length=64), nullable=False, comment="sha256 of the request it answered"
        ),
        sa.Column("match_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=64), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True, comment="the seat token a claim gave"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_idempotency_keys_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_idempotency_keys")),
    )
    op.create_index(op.f("ix_idempotency_keys_expires_at"), "idempotency_keys", ["expires_at"], unique=False)


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index(op.f("ix_idempotency_keys_expires_at"), table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_match_id_player_id_action_id", type_="unique")
        batch.create_unique_constraint("uq_actions_match_id_action_id", ["match_id", "action_id"])
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("visibility")
        batch.drop_column("creator_hash")
