"""OpenTelemetry tracing (api/tracing.py): off unless the ``OTEL_*`` variables ask for it; when
on, one span per request named by its route template, and no span attribute carries a seat
token or an Idempotency-Key, even when the environment asks the instrumentation to record
every header."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from api.app import create_app
from api.settings import SettingError, Settings
from api.tracing import exporters_wanted, tracer_provider_from_env
from tests.api.helpers import TWO_HUMANS, bearer, create
from tests.api.test_limits import sqlite_url


@pytest.mark.parametrize(
    ("environ", "exporters"),
    [
        ({}, []),
        ({"OTEL_SERVICE_NAME": "cuccu-eu"}, []),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, ["otlp"]),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, ["otlp"]),
        ({"OTEL_TRACES_EXPORTER": "console"}, ["console"]),
        ({"OTEL_TRACES_EXPORTER": "otlp, console"}, ["otlp", "console"]),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x:4318"}, []),
        ({"OTEL_TRACES_EXPORTER": "console", "OTEL_SDK_DISABLED": "true"}, []),
    ],
)
def test_tracing_is_on_only_when_the_otel_variables_ask(
    environ: dict[str, str], exporters: list[str]
) -> None:
    assert exporters_wanted(environ) == exporters
    provider = tracer_provider_from_env(environ)
    assert (provider is not None) == bool(exporters)
    if provider is not None:
        provider.shutdown()


def test_an_unknown_exporter_is_named() -> None:
    with pytest.raises(SettingError, match="zipkin"):
        exporters_wanted({"OTEL_TRACES_EXPORTER": "zipkin"})


def test_without_otel_variables_the_application_has_no_tracing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    app = create_app(Settings())
    assert "OpenTelemetryPlugin" not in {type(p).__name__ for p in app.plugins}


def _values(attributes: Any) -> list[str]:
    out: list[str] = []
    for value in (attributes or {}).values():
        out.extend(str(v) for v in (value if isinstance(value, tuple | list) else [value]))
    return out


async def test_a_request_is_one_span_named_by_its_route_and_no_span_holds_a_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an operator asking the instrumentation for every header must not get the seat token
    monkeypatch.setenv("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST", ".*")
    monkeypatch.setenv("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_RESPONSE", ".*")
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    app = create_app(
        Settings(database_url=await sqlite_url(tmp_path), rate_limit_per_second=0),
        tracer_provider=provider,
    )
    async with AsyncTestClient(app=app) as client:
        created = await create(client, TWO_HUMANS)
        mid = created["match_id"]
        token = created["seat_tokens"][0]["token"]
        key = "retry-me-7f3a9c"
        headers = {**bearer(token), "Idempotency-Key": key, "X-Request-ID": "trace-me-1"}
        played = await client.post(
            f"/matches/{mid}/commands",
            json={"type": "keep", "expected_version": created["version"]},
            headers=headers,
        )
        assert played.status_code == 200, played.text
        assert (await client.get(f"/matches/{mid}", headers=bearer(token))).status_code == 200
        assert (await client.get("/matches/nowhere/at/all")).status_code == 404
    finished = spans.get_finished_spans()

    names = [s.name for s in finished]
    assert names == [
        "POST /matches",
        "POST /matches/{match_id}/commands",
        "GET /matches/{match_id}",
        "GET",  # no route: the method alone, never the raw path
    ]
    command = finished[1]
    attributes = dict(command.attributes or {})
    assert attributes["http.route"] == "/matches/{match_id}/commands"
    assert attributes["cuccu.request_id"] == "trace-me-1"
    assert attributes["http.status_code"] == 200
    secrets = [token, key, *(t["token"] for t in created["seat_tokens"])]
    for span in finished:
        assert not span.events, span.events  # no exception recorded with its message
        for value in _values(span.attributes):
            assert not any(secret in value for secret in secrets), (span.name, value)
            assert "Bearer" not in value, (span.name, value)
