"""hex's migrations: how a match stored under an earlier logic version moves to this one."""

from tabletop import Migration

migrations = [
    Migration(
        from_version="1.0.0",
        to_version="2.0.0",
        description=(
            "a seat that loses on time is recorded as the framework's TimeExpired action, and a "
            "game may end without a winning chain; stored states and actions read as they are"
        ),
    ),
]
"""Every declared step, oldest first."""
