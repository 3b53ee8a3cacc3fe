"""Alembic migrations of the event store (async environment)."""
