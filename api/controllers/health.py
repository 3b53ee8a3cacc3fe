"""Liveness and readiness."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency

from api.models import Health
from api.problems import responses
from api.store import EventStore, check_schema


class HealthController(Controller):
    path = "/"
    tags = ["health"]

    @get("/health", summary="Liveness", description="Answers while the process runs.")
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/ready",
        summary="Readiness",
        description="200 when the database answers and its schema is current; 503 otherwise.",
        responses=responses(503, limited=False),
    )
    async def ready(self, store: NamedDependency[EventStore]) -> Health:
        await store.ping()
        await check_schema(store.engine)
        return Health(status="ready")
