"""The Python client against scripted transports: retries, Retry-After, idempotency keys,
problem exceptions, and stream resumption with Last-Event-ID (sync and async)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from api.client import (
    ApiError,
    AsyncClient,
    Client,
    Conflict,
    RateLimited,
    RetryPolicy,
    ServiceUnavailable,
    StreamEnded,
    ValidationFailed,
    bot,
    open_seat,
    retry_after_seconds,
)
from tests.integration.server import ROOT

BASE = "http://cuccu.test"
MID = "m-1"


def problem(status: int, slug: str, **extra: Any) -> httpx.Response:
    body = {"type": f"urn:cuccu:problem:{slug}", "title": slug, "status": status,
            "detail": f"detail of {slug}", **extra}  # fmt: skip
    headers = {"content-type": "application/problem+json"}
    if "retry_after" in extra:
        headers["Retry-After"] = str(extra.pop("retry_after"))
        body.pop("retry_after")
    return httpx.Response(status, json=body, headers=headers)


def command_reply(version: int = 9) -> httpx.Response:
    return httpx.Response(
        200, json={"match_id": MID, "version": version, "seat": 0, "view": {}, "events": []}
    )


class Script:
    """Answers requests from a list, recording each request."""

    def __init__(self, *answers: httpx.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def sync_client(script: Script, sleeps: list[float], **kwargs: Any) -> Client:
    return Client(BASE, "tok", transport=httpx.MockTransport(script), sleep=sleeps.append, **kwargs)


def test_command_retries_503_and_429_with_one_idempotency_key_honouring_retry_after() -> None:
    script = Script(
        problem(503, "database-unavailable", retry_after=2),
        problem(429, "rate-limited", retry_after=5),
        command_reply(),
    )
    sleeps: list[float] = []
    with sync_client(script, sleeps) as c:
        out = c.send_command(MID, "keep", expected_version=8)
    assert out["version"] == 9
    keys = {r.headers["Idempotency-Key"] for r in script.requests}
    assert len(script.requests) == 3 and len(keys) == 1
    bodies = [json.loads(r.content) for r in script.requests]
    mixed = bodies[0]["entropy"]  # the seat's contribution to the next deck, the same each time
    assert all(b == {"type": "keep", "expected_version": 8, "entropy": mixed} for b in bodies)
    assert all(r.headers["Authorization"] == "Bearer tok" for r in script.requests)
    assert sleeps[0] >= 2 and sleeps[1] >= 5  # at least what Retry-After asked


def test_each_command_gets_its_own_key_and_a_given_key_is_used() -> None:
    script = Script(command_reply(), command_reply(), command_reply())
    with sync_client(script, []) as c:
        c.send_command(MID, "keep")
        c.send_command(MID, "keep")
        c.send_command(MID, "keep", idempotency_key="mine")
    keys = [r.headers["Idempotency-Key"] for r in script.requests]
    assert keys[0] != keys[1] and keys[2] == "mine"


def test_backoff_grows_and_gives_up_with_the_problem() -> None:
    script = Script(*(problem(503, "database-unavailable") for _ in range(4)))
    sleeps: list[float] = []
    policy = RetryPolicy(attempts=4, backoff=1.0)
    with sync_client(script, sleeps, retry=policy) as c, pytest.raises(ServiceUnavailable) as info:
        c.get_match(MID)
    assert len(script.requests) == 4 and len(sleeps) == 3
    assert 0.5 <= sleeps[0] <= 1 and 1 <= sleeps[1] <= 2 and 2 <= sleeps[2] <= 4
    assert info.value.status == 503 and info.value.slug == "database-unavailable"


def test_problems_become_exceptions_with_type_status_detail_code() -> None:
    script = Script(
        problem(409, "not-your-turn", code="not_your_turn"),
        problem(409, "stale-version", version=12),
        problem(422, "validation-error"),
        httpx.Response(502, text="<html>bad gateway</html>"),
        problem(429, "rate-limited", retry_after=1),
    )
    with sync_client(script, [], retry=RetryPolicy(attempts=1)) as c:
        with pytest.raises(Conflict) as conflict:
            c.send_command(MID, "keep")
        assert conflict.value.type == "urn:cuccu:problem:not-your-turn"
        assert conflict.value.code == "not_your_turn"
        assert conflict.value.detail == "detail of not-your-turn"
        with pytest.raises(Conflict) as stale:
            c.send_command(MID, "keep", expected_version=3)
        assert stale.value.version == 12
        with pytest.raises(ValidationFailed):
            c.create_match([open_seat(), bot("b")])
        with pytest.raises(ApiError) as other:
            c.health()
        assert other.value.status == 502 and other.value.type == "about:blank"
        with pytest.raises(RateLimited) as limited:
            c.lobby()
        assert limited.value.retry_after == 1


def test_connection_failures_are_retried_only_where_a_repeat_is_harmless() -> None:
    request = httpx.Request("POST", BASE)
    script = Script(httpx.ReadError("reset", request=request), command_reply())
    with sync_client(script, []) as c:
        c.send_command(MID, "keep")  # idempotent thanks to its key
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1
    claimed = {"match_id": MID, "seat": 0, "token": "second", "version": 2,
               "status": "between_rounds", "view": {}, "events": []}  # fmt: skip
    script = Script(httpx.ReadError("reset", request=request), httpx.Response(201, json=claimed))
    with sync_client(script, []) as c:
        assert c.claim_seat(MID, 0, "Ann")["token"] == "second"  # its key makes a repeat safe
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1
    bodies = [json.loads(r.content) for r in script.requests]
    assert all(b == {"name": "Ann", "entropy": bodies[0]["entropy"]} for b in bodies)  # a repeat
    assert len(bytes.fromhex(bodies[0]["entropy"])) == 32  # sends the same contribution
    created = httpx.Response(201, json={"match_id": MID, "seat_tokens": []})
    script = Script(httpx.ReadError("reset", request=request), created)
    with sync_client(script, []) as c:
        # it may have happened: repeated under the same key, which answers the same match
        assert c.create_match([bot("a"), bot("b")])["match_id"] == MID
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1
    assert len(script.requests) == 2
    script = Script(httpx.ConnectError("refused", request=request), created)
    with sync_client(script, []) as c:
        assert c.create_match([bot("a"), bot("b")])["match_id"] == MID  # never reached it


def test_retry_after_as_an_http_date() -> None:
    response = httpx.Response(503, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})
    assert retry_after_seconds(response) == 0.0
    assert retry_after_seconds(httpx.Response(503, headers={"Retry-After": "7"})) == 7.0
    assert retry_after_seconds(httpx.Response(503, headers={"Retry-After": "soon"})) is None


def test_claim_adopts_the_token_and_lists_use_the_query() -> None:
    claimed = {"match_id": MID, "seat": 2, "token": "new-token", "version": 3,
               "status": "between_rounds", "view": {}, "events": []}  # fmt: skip
    page = {"matches": [], "next_cursor": None}
    script = Script(
        httpx.Response(201, json=claimed),
        httpx.Response(200, json={"match_id": MID, "version": 3, "seat": 2, "view": {}}),
        httpx.Response(200, json=page),
    )
    with Client(BASE, transport=httpx.MockTransport(script)) as c:
        c.claim_seat(MID, 2, "Ann")
        c.get_match(MID)
        c.lobby(limit=5)
    claim, get, lobby = script.requests
    assert claim.url.path == f"/matches/{MID}/seats/2/claim"
    assert claim.headers["Idempotency-Key"]
    assert json.loads(claim.content) == {
        "name": "Ann",
        "entropy": json.loads(claim.content)["entropy"],
    }
    assert "Authorization" not in claim.headers
    assert get.headers["Authorization"] == "Bearer new-token"
    assert dict(lobby.url.params) == {"open_seats": "true", "limit": "5"}


# --- streams -------------------------------------------------------------------------------


def frame(version: int, event: dict[str, Any], kind: str = "event") -> bytes:
    data = {"version": version, "event": event} if kind == "event" else event
    return f"id: {version}\r\nevent: {kind}\r\ndata: {json.dumps(data)}\r\n\r\n".encode()


class Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
    """Sends some frames, then fails like a dropped connection (or ends cleanly)."""

    def __init__(self, chunks: list[bytes], fail: bool = True) -> None:
        self.chunks = chunks
        self.fail = fail

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.fail:
            raise httpx.ReadError("connection reset")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.fail:
            raise httpx.ReadError("connection reset")


VIEW = {"match_id": MID, "version": 5, "seat": 0, "view": {"status": "in_round"}}
END = {"match_id": MID, "version": 9, "status": "over"}


def stream_script() -> Script:
    headers = {"content-type": "text/event-stream"}
    return Script(
        # a view and one event, then the connection drops
        httpx.Response(
            200,
            headers=headers,
            stream=Broken(
                [b": keep-alive\r\n\r\n", frame(5, VIEW, "view"), frame(6, {"type": "kept"})]
            ),
        ),  # fmt: skip
        problem(503, "database-unavailable", retry_after=1),
        # a clean close before the end of the match (e.g. the server restarting)
        httpx.Response(200, headers=headers, stream=Broken([frame(7, {"type": "kept"})], False)),
        # a clean close after a game's last event but before the server's `end` message: the
        # client knows no game's events, so this is one more early close
        httpx.Response(
            200, headers=headers, stream=Broken([frame(8, {"type": "match_won"})], fail=False)
        ),
        httpx.Response(
            200,
            headers=headers,
            stream=Broken([frame(9, {"type": "anything"}), frame(9, END, "end")], fail=False),
        ),
    )


def check_resumed(script: Script, messages: list[Any], sleeps: list[float]) -> None:
    assert [(m.event, m.id) for m in messages] == [
        ("view", 5), ("event", 6), ("event", 7), ("event", 8), ("event", 9),
    ]  # fmt: skip
    assert messages[0].view["view"]["status"] == "in_round"
    assert messages[-1].match_event["event"]["type"] == "anything"  # `end` is not handed over
    sent = [r.headers.get("Last-Event-ID") for r in script.requests]
    assert sent == [None, "6", "6", "7", "8"]
    assert all(r.headers["Authorization"] == "Bearer tok" for r in script.requests)
    assert sleeps[1] >= 1  # Retry-After of the 503


def test_stream_resumes_after_drops_with_last_event_id() -> None:
    script = stream_script()
    sleeps: list[float] = []
    with sync_client(script, sleeps) as c:
        messages = list(c.stream(MID))
    check_resumed(script, messages, sleeps)


async def test_async_stream_resumes_after_drops_with_last_event_id() -> None:
    script = stream_script()
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    async with AsyncClient(BASE, "tok", transport=httpx.MockTransport(script), sleep=sleep) as c:
        messages = [m async for m in c.stream(MID)]
    check_resumed(script, messages, sleeps)


def test_stream_gives_up_after_its_reconnect_budget() -> None:
    headers = {"content-type": "text/event-stream"}
    script = Script(
        *(httpx.Response(200, headers=headers, stream=Broken([], fail=False)) for _ in range(3))
    )
    with sync_client(script, []) as c, pytest.raises(StreamEnded):
        list(c.stream(MID, last_event_id=4, max_reconnects=2))
    assert [r.headers["Last-Event-ID"] for r in script.requests] == ["4", "4", "4"]
    script = Script(problem(404, "match-not-found"))
    with sync_client(script, []) as c, pytest.raises(ApiError) as info:
        list(c.stream(MID))
    assert info.value.slug == "match-not-found"


async def test_async_commands_retry_with_one_key() -> None:
    script = Script(problem(503, "database-unavailable", retry_after=0), command_reply(4))

    async def sleep(seconds: float) -> None:
        return None

    async with AsyncClient(BASE, "tok", transport=httpx.MockTransport(script), sleep=sleep) as c:
        out = await c.send_command(MID, "next_round")
    assert out["version"] == 4
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1


def test_the_client_imports_neither_the_service_nor_the_rules() -> None:
    code = (
        "import sys, api.client; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('domain', 'litestar', 'sqlalchemy', 'msgspec', 'api.service')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_both_clients_are_one_implementation_with_the_same_methods() -> None:
    def endpoints(cls: type) -> dict[str, Any]:
        return {
            name: getattr(cls, name).__wrapped__
            for name in dir(cls)
            if not name.startswith("_") and hasattr(getattr(cls, name), "__wrapped__")
        }

    sync, run_async = endpoints(Client), endpoints(AsyncClient)
    assert sync == run_async  # the very same endpoint functions, carried out two ways
    assert {"create_match", "send_command", "stream", "join_queue", "log_key"} <= set(sync)
    # every other public method is an endpoint: none is written twice
    assert {n for n in dir(Client) if not n.startswith("_")} == {*sync, "close"}
    assert {n for n in dir(AsyncClient) if not n.startswith("_")} == {*sync, "aclose"}
