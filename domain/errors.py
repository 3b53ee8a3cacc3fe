"""The one error type the domain raises."""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "invalid_config",
    "match_exists",
    "match_not_started",
    "unknown_seat",
    "not_your_turn",
    "illegal_choice",
    "round_in_progress",
    "invalid_pack",
    "match_over",
    "seats_open",
    "seat_taken",
]


class DomainError(Exception):
    """A command that the rules do not allow. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    def __reduce__(self) -> tuple[type[DomainError], tuple[ErrorCode, str]]:
        # Pickled by its two fields: an error raised in a worker process (``cuccu tournament
        # --jobs 2``) must reach the parent, and the default reduce would call __init__ with one.
        return DomainError, (self.code, self.message)

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"
