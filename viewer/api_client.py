"""A plain HTTP client of the match API, used exactly as any third-party client would."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec

from domain import Event, MatchView


class ApiError(Exception):
    """The API answered with an RFC 9457 problem (or some other error status)."""

    def __init__(self, status: int, title: str, detail: str = "") -> None:
        super().__init__(f"{status} {title}" + (f": {detail}" if detail else ""))
        self.status = status
        self.title = title
        self.detail = detail


class ApiUnavailable(Exception):
    """Nobody answers at the API's address."""


class SeenEvent(msgspec.Struct, frozen=True):
    version: int
    event: Event


class MatchOut(msgspec.Struct, frozen=True):
    match_id: str
    version: int
    seat: int | None
    view: MatchView


class Client:
    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    # --- plumbing ---------------------------------------------------------------------------

    def _request(
        self, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        headers = dict(kwargs.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            response = httpx.request(
                method, self.base_url + path, headers=headers, timeout=self.timeout, **kwargs
            )
        except httpx.TransportError as error:
            raise ApiUnavailable(str(error) or type(error).__name__) from error
        if response.status_code >= 400:
            raise _problem(response)
        return response

    # --- reading ----------------------------------------------------------------------------

    def list_matches(self, status: str | None = None, limit: int = 100,
                     max_pages: int = 5) -> list[dict[str, Any]]:  # fmt: skip
        """Newest first, following the cursor for up to ``max_pages`` pages."""
        found: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(max_pages):
            params: dict[str, Any] = {"limit": limit}
            if status:
                params["status"] = status
            if cursor:
                params["cursor"] = cursor
            page = self._request("GET", "/matches", params=params).json()
            found.extend(page.get("matches", []))
            cursor = page.get("next_cursor")
            if not cursor:
                break
        return found

    def match(self, match_id: str, token: str | None = None) -> MatchOut:
        response = self._request("GET", f"/matches/{match_id}", token)
        return msgspec.json.decode(response.content, type=MatchOut)

    def export(self, match_id: str) -> bytes:
        """The complete NDJSON log of a finished match (the API refuses unfinished ones)."""
        return self._request("GET", f"/matches/{match_id}/export").content

    def signing_keys(self) -> dict[str, Any]:
        """The service's public signing keys (``GET /.well-known/cuccu-keys.json``)."""
        keys: dict[str, Any] = self._request("GET", "/.well-known/cuccu-keys.json").json()
        return keys

    def events(self, match_id: str, token: str | None = None, after: int = 0) -> list[SeenEvent]:
        seen: list[SeenEvent] = []
        while True:
            page = self._request(
                "GET", f"/matches/{match_id}/events", token, params={"after": after, "limit": 1000}
            ).json()
            seen.extend(msgspec.convert(page["events"], list[SeenEvent]))
            nxt = page.get("next_after")
            if nxt is None:
                return seen
            after = nxt

    def stream(self, match_id: str, token: str | None, after: int,
               idle: float = 0.6) -> list[SeenEvent]:  # fmt: skip
        """Follow the live stream from ``after`` until it has nothing new for ``idle`` seconds."""
        headers = {"Last-Event-ID": str(after), "Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        seen: list[SeenEvent] = []
        timeout = httpx.Timeout(self.timeout, read=idle)
        try:
            with httpx.stream("GET", f"{self.base_url}/matches/{match_id}/stream",
                              headers=headers, timeout=timeout) as response:  # fmt: skip
                if response.status_code >= 400:
                    response.read()
                    raise _problem(response)
                for kind, data in _sse(response.iter_lines()):
                    if kind == "event":
                        seen.append(msgspec.json.decode(data, type=SeenEvent))
        except httpx.ReadTimeout:
            pass  # caught up: the server only sends keep-alives from here
        except httpx.TransportError as error:
            raise ApiUnavailable(str(error) or type(error).__name__) from error
        return seen

    # --- playing ----------------------------------------------------------------------------

    def create_match(self, body: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = self._request("POST", "/matches", json=body).json()
        return result

    def command(self, match_id: str, token: str, choice: str,
                expected_version: int | None = None) -> dict[str, Any]:  # fmt: skip
        body: dict[str, Any] = {"type": choice}
        if expected_version is not None:
            body["expected_version"] = expected_version
        result: dict[str, Any] = self._request(
            "POST", f"/matches/{match_id}/commands", token, json=body,
            headers={"Idempotency-Key": str(uuid.uuid4())},
        ).json()  # fmt: skip
        return result


def _problem(response: httpx.Response) -> ApiError:
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    title = str(body.get("title") or response.reason_phrase or "error")
    return ApiError(response.status_code, title, str(body.get("detail") or ""))


def _sse(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(event name, data) of each message of a Server-Sent Events stream."""
    kind, data = "message", list[str]()
    for line in lines:
        if not line:
            if data:
                yield kind, "\n".join(data)
            kind, data = "message", list[str]()
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                kind = value
            elif name == "data":
                data.append(value)
    if data:
        yield kind, "\n".join(data)
