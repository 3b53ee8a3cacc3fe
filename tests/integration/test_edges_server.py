"""The protocol's edges against the real server (a subprocess): the stream as a standard SSE
client reads it, and the 503s' Retry-After."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import httpx
import psycopg
import pytest
from httpx_sse import ServerSentEvent, connect_sse
from sqlalchemy.engine import make_url

from api.problems import UNAVAILABLE_RETRY_AFTER
from tests.api.helpers import HUMAN_VS_BOTS, bearer
from tests.integration.server import Server

BOT_SEAT: dict[str, Any] = {"name": "Bo", "kind": "bot", "bot_level": "basic"}
BOTS: dict[str, Any] = {"seats": [BOT_SEAT, {**BOT_SEAT, "name": "Cy"}], "seed": 1}


def sse_messages(base: str, mid: str, *, stop_after: int, seconds: float) -> list[ServerSentEvent]:
    """Every message httpx-sse hands over, until ``stop_after`` of them or the stream's end;
    gives up after ``seconds`` (the server's keep-alives keep the read from timing out)."""
    got: list[ServerSentEvent] = []
    deadline = time.monotonic() + seconds
    with (
        httpx.Client(base_url=base, timeout=10) as c,
        connect_sse(c, "GET", f"/matches/{mid}/stream") as source,
    ):
        assert source.response.status_code == 200
        for sse in source.iter_sse():
            got.append(sse)
            if len(got) >= stop_after or time.monotonic() > deadline:
                break
    return got


def raw_stream(base: str, mid: str, seconds: float) -> str:
    """The stream's text as sent, for ``seconds``."""
    chunks: list[str] = []
    deadline = time.monotonic() + seconds
    with httpx.stream("GET", f"{base}/matches/{mid}/stream", timeout=10) as resp:
        for chunk in resp.iter_text():
            chunks.append(chunk)
            if time.monotonic() > deadline:
                break
    return "".join(chunks)


def test_keep_alives_are_comments_a_standard_sse_client_never_sees(server: Server) -> None:
    created = httpx.post(f"{server.base}/matches", json=HUMAN_VS_BOTS).json()
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    # as sent: the view, then comment lines alone, with no field and no blank line (a blank
    # line would end a message: httpx-sse dispatches one at each blank line after an id)
    text = raw_stream(server.base, mid, 1.2).replace("\r\n", "\n")
    view, _, rest = text.partition("\n\n")
    assert view.startswith(f"id: {created['version']}\nevent: view\ndata: {{"), view
    assert rest.count(": keep-alive\n") >= 2, text  # keep-alives come every 0.3 s here
    assert set(rest.split(": keep-alive\n")) == {""}, text
    # as a standard client reads it: the view, then after ~5 keep-alives Ann's move's events,
    # and no empty message between them
    mover = threading.Timer(
        1.5,
        lambda: httpx.post(
            f"{server.base}/matches/{mid}/commands",
            json={"type": "keep"},
            headers=bearer(token),
            timeout=10,
        ),
    )
    mover.start()
    try:
        got = sse_messages(server.base, mid, stop_after=2, seconds=20)
    finally:
        mover.join()
    assert [m.event for m in got] == ["view", "event"], [(m.event, m.data) for m in got]
    assert all(m.data and m.id for m in got)
    assert got[1].json()["event"]["type"] == "kept"


def test_a_database_outage_ends_the_stream_with_a_named_notice(
    postgres_url: str, servers: list[Server]
) -> None:
    server = Server(postgres_url, keepalive=0.3, viewer=False).start()
    servers.append(server)
    created = httpx.post(f"{server.base}/matches", json=HUMAN_VS_BOTS).json()
    mid = created["match_id"]
    got: list[ServerSentEvent] = []
    listening = threading.Event()

    def listen() -> None:
        with (
            httpx.Client(base_url=server.base, timeout=10) as c,
            connect_sse(c, "GET", f"/matches/{mid}/stream") as source,
        ):
            for sse in source.iter_sse():
                got.append(sse)
                listening.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert listening.wait(10)
    url = make_url(postgres_url)
    admin = url.set(drivername="postgresql", database="postgres")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as pg:
        # the database goes away for this server: its connections are cut, new ones refused
        pg.execute(f'ALTER DATABASE "{url.database}" ALLOW_CONNECTIONS false')
        try:
            pg.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (url.database,),
            )
            listener.join(timeout=20)
            assert not listener.is_alive(), "the stream did not end"
            resp = httpx.get(f"{server.base}/matches/{mid}", timeout=10)
            assert resp.status_code == 503
            assert resp.headers["Retry-After"] == str(UNAVAILABLE_RETRY_AFTER)
        finally:
            pg.execute(f'ALTER DATABASE "{url.database}" ALLOW_CONNECTIONS true')
    assert [m.event for m in got] == ["view", "unavailable"], [(m.event, m.data) for m in got]
    notice: dict[str, Any] = got[1].json()
    assert notice["retry_after"] == UNAVAILABLE_RETRY_AFTER and notice["detail"]
    assert got[1].id == got[0].id  # no id: Last-Event-ID stays the last version received


def test_every_503_says_when_to_retry(servers: list[Server]) -> None:
    """A server whose database never answers: every route that needs it is 503 with
    Retry-After."""
    server = Server(
        "postgresql+psycopg://postgres@127.0.0.1:1/none", migrate=False, viewer=False
    ).start()
    servers.append(server)
    mid = "6f1c0000-0000-4000-8000-000000000000"
    token = bearer("x" * 43)
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/ready", {}),
        ("POST", "/matches", {"json": HUMAN_VS_BOTS}),
        ("POST", "/matches", {"json": HUMAN_VS_BOTS, "headers": {"Idempotency-Key": "k"}}),
        ("GET", "/matches", {}),
        ("GET", f"/matches/{mid}", {}),
        ("GET", f"/matches/{mid}", {"headers": token}),
        ("GET", f"/matches/{mid}/events", {}),
        ("GET", f"/matches/{mid}/stream", {}),
        ("GET", f"/matches/{mid}/export", {}),
        ("POST", f"/matches/{mid}/seats/0/claim", {"json": {"name": "Ann"}}),
        ("POST", f"/matches/{mid}/commands", {"json": {"type": "keep"}, "headers": token}),
    ]
    with httpx.Client(base_url=server.base, timeout=10) as c:
        for method, path, kwargs in requests:
            resp = c.request(method, path, **kwargs)
            assert resp.status_code == 503, (method, path, resp.text)
            assert resp.headers["content-type"].startswith("application/problem+json")
            assert resp.headers["Retry-After"] == str(UNAVAILABLE_RETRY_AFTER), (method, path)
            assert int(resp.headers["Retry-After"]) > 0


@pytest.mark.parametrize("value", ["+3", "-1", "3.0", "0x3", "3_0", "99999999999"])
def test_a_last_event_id_that_is_not_a_version_is_422(sqlite_server: Server, value: str) -> None:
    created = httpx.post(f"{sqlite_server.base}/matches", json=HUMAN_VS_BOTS).json()
    resp = httpx.get(
        f"{sqlite_server.base}/matches/{created['match_id']}/stream",
        headers={"Last-Event-ID": value},
        timeout=10,
    )
    assert resp.status_code == 422, resp.text
    assert resp.json()["type"] == "urn:cuccu:problem:validation-error"


def test_a_creation_retried_with_its_key_on_the_real_server(server: Server) -> None:
    key = str(uuid.uuid4())
    with httpx.Client(base_url=server.base, timeout=30) as c:
        first = c.post("/matches", json=HUMAN_VS_BOTS, headers={"Idempotency-Key": key})
        again = c.post("/matches", json=HUMAN_VS_BOTS, headers={"Idempotency-Key": key})
        other = c.post("/matches", json=BOTS, headers={"Idempotency-Key": key})
        rows = c.get("/matches").json()["matches"]
    assert first.status_code == 201 and again.status_code == 201, (first.text, again.text)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert other.status_code == 422
    assert other.json()["type"] == "urn:cuccu:problem:idempotency-key-reused"
    assert [r["match_id"] for r in rows] == [first.json()["match_id"]]


def test_the_viewer_still_creates_its_cucco21_games_with_a_key(server: Server) -> None:
    from viewer.games.play21 import start

    game = start(server.base, {"game": "cucco21", "seats": [{"name": "Ann"}, BOT_SEAT]})
    assert game.view.viewer == 0 and game.match_id
    mine = httpx.get(f"{server.base}/matches/{game.match_id}", headers=bearer(game.token))
    assert mine.json()["seat"] == 0
