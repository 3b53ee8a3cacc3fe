"""The viewer's way to the API: the project's one client, ``api/client.py``, over HTTP.

The viewer is a client like any other. This module only builds that client with the viewer's
patience (a page waits for a person: one quick retry, not six) and turns "nobody answers"
(httpx's transport errors) into one exception the pages report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

import httpx

from api.client import (
    ApiError,
    Client,
    Leaderboard,
    MatchSummary,
    PlayedMatch,
    RetryPolicy,
    StreamEnded,
)

__all__ = [
    "ApiError", "ApiUnavailable", "connect", "export", "finished_or_all", "leaderboard",
    "moved_since", "player_matches", "signing_keys",
]  # fmt: skip

PATIENCE = RetryPolicy(attempts=2, backoff=0.1, max_backoff=0.5)
LISTED = 500  # at most this many matches on the Matches page (newest first)
T = TypeVar("T")


class ApiUnavailable(Exception):
    """Nobody answers at the API's address."""


@contextmanager
def _reaching(url: str) -> Iterator[None]:
    try:
        yield
    except httpx.TransportError as error:
        raise ApiUnavailable(str(error) or type(error).__name__) from error


def connect(url: str, token: str | None = None) -> Client:
    return Client(url, token, retry=PATIENCE, timeout=15.0)


def call(url: str, token: str | None, work: Callable[[Client], T]) -> T:
    """``work(client)``; raises ``ApiError`` (the API said no) or ``ApiUnavailable``."""
    with _reaching(url), connect(url, token) as client:
        return work(client)


def moved_since(url: str, token: str | None, match_id: str, version: int, wait: float) -> bool:
    """Whether the match has moved past ``version``, waiting up to ``wait`` seconds for it.

    One short look at the API's stream (``GET /matches/{id}/stream`` with ``Last-Event-ID:
    version``): the API sends at once an event stored after ``version``, or the next one as
    soon as it is stored, so the answer follows the move within milliseconds, not at the next
    poll. False after ``wait`` seconds of silence, and for a finished match seen to its end (its
    stream closes). Never reconnects: the caller simply asks again."""
    client = Client(url, token, retry=RetryPolicy(attempts=1), timeout=15.0,
                    stream_read_timeout=wait)  # fmt: skip
    with _reaching(url), client:  # closing the client closes the stream's connection
        found = client.stream(match_id, last_event_id=version, max_reconnects=0)
        try:
            return any(message.event == "event" for message in found)
        except (httpx.ReadTimeout, StreamEnded):
            return False  # nothing new within ``wait`` (or a stream cut short: ask again)


def finished_or_all(url: str, finished_only: bool) -> list[MatchSummary]:
    def newest(client: Client) -> list[MatchSummary]:
        found = client.iter_matches(status="over" if finished_only else None)
        return list(islice(found, LISTED))

    return call(url, None, newest)


def export(url: str, match_id: str) -> str:
    """The complete NDJSON log of a finished match (the API refuses unfinished ones: 409)."""
    return call(url, None, lambda client: client.export(match_id))


def log_key(url: str) -> str:
    """The service's transparency log key, a note verifier key (``GET /log/key``)."""
    return call(url, None, lambda client: client.log_key())


def signing_keys(url: str) -> dict[str, Any]:
    """The service's public signing keys (``GET /.well-known/cuccu-keys.json``)."""
    return call(url, None, lambda client: client.signing_keys())


def leaderboard(url: str, game: str) -> Leaderboard:
    """The rated accounts of ``game``, best first."""
    return call(url, None, lambda client: client.leaderboard(game, limit=LISTED))


def player_matches(url: str, player_id: str) -> list[PlayedMatch]:
    """An account's finished matches, the latest first."""
    return call(url, None, lambda client: client.player_matches(player_id, limit=200))
