"""Bearer tokens (seats now, organisers later): random, shown to their holder once, stored hashed.

A token is 128 random bits, so a plain SHA-256 is enough to make a stolen database useless for
taking seats: nobody can find a token from its hash.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

_HASH = re.compile(r"[0-9a-f]{64}")


def new_token() -> str:
    """A fresh token for a client (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What the server keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_token_hash(value: str) -> bool:
    return bool(_HASH.fullmatch(value))


def stored_form(value: str) -> str:
    """A token as stored: hashes stay, a plain token (a room stored before hashing) is hashed."""
    return value if is_token_hash(value) else token_hash(value)


def matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (constant time)."""
    return stored is not None and hmac.compare_digest(token_hash(token), stored)
