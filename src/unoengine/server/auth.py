"""Seat tokens and table codes: random, stored only as hashes, compared in constant time.

A seat token is ``secrets.token_urlsafe(24)`` (192 random bits). The server keeps
its SHA-256 only, so a copy of the store does not let anyone take a seat, and it
compares hashes with :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24
"""Random bytes in a seat token (192 bits, at least the 128 the protocol asks for)."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Table codes avoid look-alike characters (no I, L, O, 0, 1)."""

CODE_LENGTH = 6


def new_token() -> str:
    """A new secret seat token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """True when ``token`` is the one whose hash is ``stored_hash`` (constant time)."""
    if stored_hash is None or not isinstance(token, str):
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_code() -> str:
    """A short table code for links and for reading aloud."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(text: object) -> bool:
    """True for text shaped like a table code."""
    return isinstance(text, str) and len(text) == CODE_LENGTH and all(character in CODE_ALPHABET for character in text)


def new_seed() -> tuple[int, str]:
    """A fresh game seed (63 random bits) and the salt of its commitment."""
    return secrets.randbits(63), secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    """What the server shows when a game starts: SHA-256 of ``"<salt>:<seed>"``, hex.

    >>> seed_commitment(7, "ab")
    'b7e1dfec11fd191bb4abfdfe9c58ecd7de250cda6278f0dac33b9cb642a20ca8'

    Anyone can check it once the seed is revealed: ``printf 'ab:7' | sha256sum``.
    """
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
