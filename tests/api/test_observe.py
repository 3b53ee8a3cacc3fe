"""Request ids, log lines and metrics in process (the real server's: tests/integration/
test_metrics.py and test_logs.py)."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from prometheus_client import REGISTRY

from api.app import create_app
from api.logs import CURRENT, RequestContext, formatter, log_config, wants_json
from api.metrics import route_template
from api.settings import SettingError, Settings
from tests.api.helpers import HUMAN_VS_BOTS, bearer, create


@pytest.fixture
async def limited(migrated_url: str, tmp_path: Path) -> AsyncIterator[AsyncTestClient[Any]]:
    """A client of an app whose seat tokens may send one request per second."""
    settings = Settings(
        database_url=migrated_url,
        rate_limit_per_second=1,
        rate_limit_burst=1,
        signing_key=str(tmp_path / "key.pem"),
    )
    async with AsyncTestClient(app=create_app(settings)) as c:
        yield c


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_rate_limited_answer_has_its_request_id_and_is_measured(
    limited: AsyncTestClient[Any],
) -> None:
    created = await create(limited, HUMAN_VS_BOTS)
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    labels = {"method": "GET", "path": "/matches/{match_id}", "app_name": "cuccu"}
    before = _value("cuccu_http_requests_total", status_code="429", **labels)
    first = await limited.get(f"/matches/{mid}", headers={**bearer(token), "X-Request-ID": "r1"})
    assert first.status_code == 200 and first.headers["X-Request-ID"] == "r1"
    second = await limited.get(f"/matches/{mid}", headers={**bearer(token), "X-Request-ID": "r2"})
    assert second.status_code == 429, second.text
    assert second.headers["X-Request-ID"] == "r2" and second.headers["Retry-After"]
    assert second.json()["type"] == "urn:cuccu:problem:rate-limited"
    assert _value("cuccu_http_requests_total", status_code="429", **labels) == before + 1
    # /metrics is not limited, whatever token comes with it
    for _ in range(3):
        scraped = await limited.get("/metrics", headers=bearer(token))
        assert scraped.status_code == 200
        assert mid not in scraped.text and token not in scraped.text


async def test_an_unrouted_request_has_a_request_id_too(client: AsyncTestClient[Any]) -> None:
    missing = await client.get("/nowhere", headers={"X-Request-ID": "lost-1"})
    assert missing.status_code == 404 and missing.headers["X-Request-ID"] == "lost-1"
    wrong = await client.delete("/matches", headers={"X-Request-ID": "x" * 37})
    assert wrong.status_code == 405 and len(wrong.headers["X-Request-ID"]) < 37


async def test_metrics_stay_out_of_the_public_schema(client: AsyncTestClient[Any]) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    assert "/metrics" not in schema["paths"]
    resp = await client.get("/metrics")
    assert resp.status_code == 200 and "cuccu_http_requests_total" in resp.text


@pytest.mark.parametrize(
    ("template", "route"),
    [
        ("/matches/{match_id:str}/commands", "/matches/{match_id}/commands"),
        ("/m/{match_id:str}/seats/{seat:int}/claim", "/m/{match_id}/seats/{seat}/claim"),
        ("/health", "/health"),
        ("", ""),
    ],
)
def test_route_templates_drop_the_converters(template: str, route: str) -> None:
    assert route_template(template) == route


def test_the_log_format_setting_is_checked() -> None:
    assert Settings.from_env({}).log_format == "auto"
    assert Settings.from_env({"CUCCU_LOG_FORMAT": " JSON "}).log_format == "json"
    assert Settings.from_env({"CUCCU_LOG_FORMAT": "text"}).log_format == "text"
    with pytest.raises(SettingError, match="CUCCU_LOG_FORMAT"):
        Settings.from_env({"CUCCU_LOG_FORMAT": "xml"})


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_text_on_a_terminal_json_elsewhere() -> None:
    assert wants_json("auto", _Tty(False)) and not wants_json("auto", _Tty(True))
    assert wants_json("json", _Tty(True)) and not wants_json("text", _Tty(False))
    config = log_config("json", "warning")
    assert config["root"]["level"] == "WARNING"
    assert config["formatters"]["cuccu"]["json"] is True


def _record(msg: str, *args: Any, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("boom\nsecond line")
        except ValueError:
            import sys

            exc_info = sys.exc_info()
    return logging.LogRecord("cuccu", logging.WARNING, __file__, 1, msg, args, exc_info)


def test_a_json_line_is_one_object_with_the_requests_context() -> None:
    fmt = formatter(json=True)
    token = CURRENT.set(RequestContext("req-1", "0f6c0e4e-6f2a-4d0e-9a57-2f1f3c1c9d11", 2))
    try:
        line = fmt.format(_record("database unavailable: %s", "down", exc=True))
    finally:
        CURRENT.reset(token)
    assert "\n" not in line
    out = json.loads(line)
    assert out["event"] == "database unavailable: down" and out["level"] == "warning"
    assert out["logger"] == "cuccu" and out["timestamp"].endswith("Z")
    assert out["request_id"] == "req-1" and out["seat"] == 2
    assert out["match_id"] == "0f6c0e4e-6f2a-4d0e-9a57-2f1f3c1c9d11"
    assert "ValueError: boom" in out["exception"]
    outside = json.loads(fmt.format(_record("no request")))
    assert "request_id" not in outside


def test_a_text_line_reads_as_text() -> None:
    line = formatter(json=False).format(_record("signing is off"))
    assert "signing is off" in line and not line.startswith("{")


async def test_route_metrics_measure_on_their_own_too() -> None:
    """Without watch_requests around it (which records the answer for it), the metrics
    middleware records the status and duration itself."""
    from api.observe import PROMETHEUS, RouteMetrics

    async def answer(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b"{}", "more_body": False})

    async def sink(message: Any) -> None:
        return None

    labels = {"method": "GET", "path": "/alone/{x}", "app_name": "cuccu", "status_code": "503"}
    before = _value("cuccu_http_requests_total", **labels)
    scope = {"type": "http", "method": "GET", "path": "/alone/1", "path_template": "/alone/{x:int}"}
    await RouteMetrics(answer, PROMETHEUS)(scope, None, sink)  # type: ignore[arg-type]
    assert _value("cuccu_http_requests_total", **labels) == before + 1
    assert _value("cuccu_http_requests_error_total", **labels) == 1
    assert _value("cuccu_http_request_duration_seconds_count", **labels) == 1


MATCH = "0f6c0e4e-6f2a-4d0e-9a57-2f1f3c1c9d11"


@pytest.mark.parametrize(
    ("path", "found"),
    [
        (f"/matches/{MATCH}", (MATCH, None)),
        (f"/matches/{MATCH}/commands", (MATCH, None)),
        (f"/matches/{MATCH}/seats/2/claim", (MATCH, 2)),
        (f"/matches/{MATCH.upper()}/stream", (MATCH.upper(), None)),
        (f"/matches/{MATCH}x/commands", (None, None)),  # not a match id: not logged
        (f"/matches/{MATCH[:-1]}g", (None, None)),
        ("/matches/cuccu_key_abc/commands", (None, None)),
        (f"/matches/{MATCH}/seats/x/claim", (MATCH, None)),
        ("/matches", (None, None)),
        ("/health", (None, None)),
    ],
)
def test_a_request_names_its_match_and_seat_only_when_well_formed(
    path: str, found: tuple[str | None, int | None]
) -> None:
    from api.observe import _match_and_seat

    assert _match_and_seat(path) == found
    assert _match_and_seat(path) == found  # the second time from the ids already seen


def test_a_request_line_is_its_fields_after_a_fixed_head() -> None:
    from api.observe import request_record

    fields = {"request_id": "r-1", "method": "GET", "route": "/health", "status": 200}
    out = json.loads(formatter(json=True).format(request_record({**fields, "duration_ms": 0.5})))
    assert list(out)[:4] == ["event", "level", "logger", "timestamp"]
    assert out["event"] == "request" and out["level"] == "info"
    assert out["logger"] == "cuccu.request" and out["timestamp"].endswith("Z")
    assert {k: out[k] for k in fields} == fields and out["duration_ms"] == 0.5
    text = formatter(json=False).format(request_record(fields))
    assert "r-1" in text and "/health" in text


def test_the_log_handler_writes_one_line_a_record_and_obeys_its_filters() -> None:
    import io

    from api.logs import LineHandler

    out = io.StringIO()
    handler = LineHandler(out)
    handler.setFormatter(formatter(json=True))
    assert handler.handle(_record("first")) is True
    handler.addFilter(lambda record: record.getMessage() != "secret")
    assert handler.handle(_record("secret")) is False
    assert handler.handle(_record("second")) is True
    lines = out.getvalue().splitlines()
    assert [json.loads(line)["event"] for line in lines] == ["first", "second"]
