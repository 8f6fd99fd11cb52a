"""Secret tokens: drawn from the OS, stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["hash_token", "new_token", "same_hash"]


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
