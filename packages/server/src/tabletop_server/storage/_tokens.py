"""Secret tokens: drawn from the OS, stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

__all__ = ["hash_token", "new_match_id", "new_token", "same_hash"]


def new_match_id() -> str:
    """A fresh match id: ``m_``, the time in milliseconds (12 hex digits), 64 random bits (16).

    The random part keeps the id unguessable (a private match is found only through its id and
    an invite). The time part orders ids by creation, so the matches being played sit together at
    the end of every table keyed by match id: a group commit writes a few shared pages instead of
    a page per match (random ids scattered each write over the whole file, and the write-ahead
    log grew with them).
    """
    return f"m_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(8)}"


def new_token() -> str:
    """A fresh unguessable token (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256 as 64 hex digits."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(token: str, stored_hash: str | None) -> bool:
    """True if ``token`` hashes to ``stored_hash``, compared in constant time."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
