"""Several workers on one PostgreSQL database (a throwaway cluster, tests/postgres.py)."""

from __future__ import annotations

from tests.postgres import postgres_cluster

__all__ = ["postgres_cluster"]
