"""OpenTelemetry tracing, off unless the standard ``OTEL_*`` variables ask for it
(docs/DEPLOY.md, "Watching it").

Tracing is on when ``OTEL_TRACES_EXPORTER`` names an exporter (``otlp``, ``console``; a
comma-separated list; ``none`` is off) or, without it, when an OTLP endpoint is set
(``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``), and
``OTEL_SDK_DISABLED`` is not ``true``. The SDK reads the rest itself: ``OTEL_SERVICE_NAME``
(default ``cuccu``), ``OTEL_RESOURCE_ATTRIBUTES``, ``OTEL_TRACES_SAMPLER``, the exporter's
``OTEL_EXPORTER_OTLP_*`` and the batch processor's ``OTEL_BSP_*``.

Requests are traced by Litestar's OpenTelemetry plugin (the OpenTelemetry ASGI middleware,
around the whole application): one server span per request, named ``METHOD /route/{template}``
once the router has found the route (:func:`name_span_by_route`; a request that reaches no
route keeps the bare method), with ``http.route`` the template and ``cuccu.request_id`` the id
of the request's log line (api/observe.py). No span carries a seat token:
of the request headers only ``X-Request-ID`` is recorded (so a trace and a log line can be
matched), whatever ``OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_*`` says, and ``Authorization``
and ``Idempotency-Key`` are redacted should they ever be; bodies are never recorded. The
per-message ``receive``/``send`` spans are left out (a stream would make one per event).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from litestar.types import ASGIApp, Receive, Scope, Send

from api.logs import CURRENT
from api.metrics import route_template
from api.settings import SettingError

if TYPE_CHECKING:
    from litestar.plugins.opentelemetry import OpenTelemetryPlugin
    from opentelemetry.sdk.trace import TracerProvider

#: exporter names of ``OTEL_TRACES_EXPORTER`` this service knows
EXPORTERS = ("otlp", "console")
#: the only headers a span records (trace and log line share the request id)
RECORDED_HEADERS = ["x-request-id"]
#: headers redacted in a span should they be recorded at all
REDACTED_HEADERS = ["authorization", "idempotency-key", "cookie", "set-cookie"]


def exporters_wanted(environ: Mapping[str, str]) -> list[str]:
    """The trace exporters the environment asks for; empty: tracing is off."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return []
    named = environ.get("OTEL_TRACES_EXPORTER")
    if named is None or not named.strip():
        endpoint = environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or environ.get(
            "OTEL_EXPORTER_OTLP_ENDPOINT"
        )
        return ["otlp"] if endpoint else []
    names = [n.strip().lower() for n in named.split(",") if n.strip()]
    if names == ["none"]:
        return []
    if unknown := sorted(set(names) - set(EXPORTERS)):
        raise SettingError(
            f"OTEL_TRACES_EXPORTER names unknown exporters {unknown}; known: "
            f"{', '.join(EXPORTERS)} (or none)"
        )
    return names


def tracer_provider_from_env(environ: Mapping[str, str]) -> TracerProvider | None:
    """A tracer provider exporting batches of spans as the environment says; None when tracing
    is off. Not installed as the global provider: the application's plugin is given it."""
    names = exporters_wanted(environ)
    if not names:
        return None
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        ConsoleSpanExporter,
        SpanExporter,
    )

    # OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by Resource.create, win over this
    resource = Resource({SERVICE_NAME: "cuccu"}).merge(Resource.create())
    provider = TracerProvider(resource=resource)
    for name in names:
        exporter: SpanExporter
        if name == "console":
            exporter = ConsoleSpanExporter()
        else:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            exporter = OTLPSpanExporter()
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def _no_details(scope: Scope) -> tuple[str, dict[str, Any]]:
    """The span's first name, before routing: the method alone (the raw path names a match)."""
    return str(scope.get("method") or scope.get("type") or "request"), {}


def tracing_plugin(provider: TracerProvider) -> OpenTelemetryPlugin:
    """Litestar's OpenTelemetry plugin, exporting through ``provider``."""
    from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin

    return OpenTelemetryPlugin(
        OpenTelemetryConfig(
            tracer_provider=provider,
            scope_span_details_extractor=_no_details,
            exclude_spans=["receive", "send"],
            # a non-empty list each, so that the OTEL_INSTRUMENTATION_* variables cannot widen them
            http_capture_headers_server_request=RECORDED_HEADERS,
            http_capture_headers_server_response=RECORDED_HEADERS,
            http_capture_headers_sanitize_fields=REDACTED_HEADERS,
        )
    )


def name_span_by_route(app: ASGIApp) -> ASGIApp:
    """A route's middleware: names the request's span by its route template (known only once
    the router has chosen the route), ``POST /matches/{match_id}/commands``."""
    from opentelemetry import trace

    templates: dict[str, str] = {}

    async def named(scope: Scope, receive: Receive, send: Send) -> None:
        span = trace.get_current_span()
        if span.is_recording():
            raw = scope.get("path_template") or ""
            route = templates.get(raw)
            if route is None:
                route = templates[raw] = route_template(raw)
            span.update_name(f"{scope.get('method', 'GET')} {route}")
            span.set_attribute("http.route", route)
            ctx = CURRENT.get()
            if ctx is not None:  # the id of the request's log line (api/observe.py)
                span.set_attribute("cuccu.request_id", ctx.request_id)
        await app(scope, receive, send)

    return named
