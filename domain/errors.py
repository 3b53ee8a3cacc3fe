"""The one error type the domain raises, and what each of its codes means to a host."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class ErrorKind:
    """What a host makes of a ``DomainError`` code: an HTTP ``status`` and a ``title`` for
    people. ``status`` 500 marks a code no request can cause (a command the host built
    wrongly), so the API answers it as its own fault."""

    status: int
    title: str


#: the codes every game so far raises; a game's ``errors`` (``domain.games.game.Game``) is
#: these, or these and its own (a code of its own needs a status, or the API answers 500)
COMMON_ERRORS: Final[dict[str, ErrorKind]] = {
    "invalid_config": ErrorKind(422, "Invalid match configuration"),
    "match_exists": ErrorKind(500, "Match already created"),
    "match_not_started": ErrorKind(500, "Match not created"),
    "unknown_seat": ErrorKind(500, "Unknown seat"),
    "not_your_turn": ErrorKind(409, "Not your turn"),
    "illegal_choice": ErrorKind(409, "Choice not allowed now"),
    "round_in_progress": ErrorKind(409, "A round is in progress"),
    "invalid_pack": ErrorKind(500, "Invalid pack"),
    "match_over": ErrorKind(409, "Match is over"),
    "seats_open": ErrorKind(409, "Seats still open"),
    "seat_taken": ErrorKind(409, "Seat already taken"),
}


class DomainError(Exception):
    """A command that the rules do not allow. ``code`` is stable (one of its game's
    ``errors``); ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[DomainError], tuple[str, str]]:
        # Pickled by its two fields: an error raised in a worker process (``cuccu tournament
        # --jobs 2``) must reach the parent, and the default reduce would call __init__ with one.
        return DomainError, (self.code, self.message)

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"
