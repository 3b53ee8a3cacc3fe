"""Decks mixed with the players' entropy: the protocol every game shares (docs/API.md "Fairness").

At a table with a person (or an open seat) at it, every deck is built in three steps, each an
event of the match's log:

1. ``entropy_committed``: the service draws a fresh 32-byte secret for the next deck and
   publishes ``commitment = SHA-256(secret)`` (the secret itself is stored, and hidden from
   every view until the deck is opened);
2. ``entropy_contributed``: any command of a human seat made after that may carry 16 to 64
   bytes of its own randomness, recorded in the order received;
3. the deal: the game's shuffle reads a generator seeded by :func:`seed` over the secret and
   the contributions (:class:`DerivedDeck`), instead of the service's own randomness; when
   the game opens that deck, ``entropy_revealed`` publishes the secret, and anyone can
   recompute the deck with :func:`derived_order` and :func:`derived_salt`.

The commitment for the next deck is made as soon as the previous one is dealt (or the match is
created), so a person always has the whole time before a deal to contribute. Nothing here
draws a random number: the secret arrives in a :class:`CommitSecret` command from the host.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

import msgspec

from domain.audit_record import AuditRecord, CheckFailed
from domain.errors import DomainError
from domain.event_codec import EventCodec, snake

#: the service's secret per deck, in bytes
SECRET_BYTES: Final = 32
#: a contribution's length in bytes, at least and at most
MIN_CONTRIBUTION: Final = 16
MAX_CONTRIBUTION: Final = 64
#: the first bytes hashed into every seed: names the algorithm (and its version)
SEED_DOMAIN: Final = b"cuccu-deck-v1"


# --- events ---------------------------------------------------------------------------------


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False):
    schema_version: ClassVar[int] = 1


class EntropyCommitted(_Event, frozen=True, tag=snake):
    """The service's commitment to its secret for the ``deck``-th mixed deck of the match:
    ``commitment`` = hex SHA-256 of the secret's bytes. ``secret`` is stored, and hidden from
    every seat until ``entropy_revealed`` (null in every view and stream)."""

    deck: int
    commitment: str
    secret: str | None


class EntropyContributed(_Event, frozen=True, tag=snake):
    """A human seat's randomness (hex) for the ``deck``-th mixed deck, in the order received."""

    deck: int
    seat: int
    entropy: str


class EntropyRevealed(_Event, frozen=True, tag=snake):
    """The secret of the ``deck``-th mixed deck, published right after the game opened it."""

    deck: int
    secret: str


EntropyEvent = EntropyCommitted | EntropyContributed | EntropyRevealed
EVENT_TYPES: Final[tuple[type[_Event], ...]] = (
    EntropyCommitted,
    EntropyContributed,
    EntropyRevealed,
)
CODEC: Final[EventCodec[EntropyEvent]] = EventCodec(EntropyEvent, EVENT_TYPES, "entropy")


# --- commands -------------------------------------------------------------------------------


class CommitSecret(msgspec.Struct, frozen=True, tag="commit_secret", tag_field="type"):
    """The host commits to ``secret`` (hex, :data:`SECRET_BYTES` bytes) for the next deck."""

    secret: str


class Contribute(msgspec.Struct, frozen=True, tag="contribute", tag_field="type"):
    """A human seat's randomness for the next deck (hex, 16 to 64 bytes)."""

    seat: int
    entropy: str


EntropyCommand = CommitSecret | Contribute


# --- the ledger a state keeps -----------------------------------------------------------------


class Mix(msgspec.Struct, frozen=True):
    """One committed deck: its number, commitment, secret and contributions so far, and the
    game's deck it was dealt as (None until dealt)."""

    deck: int
    commitment: str
    secret: str
    contributions: tuple[tuple[int, str], ...] = ()
    dealt_as: int | None = None


class Ledger(msgspec.Struct, frozen=True):
    """Every game state's entropy: decks committed so far, the one waiting for its deal, and
    those dealt but not yet opened."""

    committed: int = 0
    pending: Mix | None = None
    dealt: tuple[Mix, ...] = ()


@dataclass(frozen=True)
class DeckHooks:
    """What the protocol needs to know of a game's own events: which deck a deal builds and
    which one an event opens (with its order and salt), and how the game names a deck."""

    dealt: Callable[[Any], int | None]
    opened: Callable[[Any], tuple[int, tuple[str, ...], str] | None]
    noun: str


def secret_commitment(secret: str) -> str:
    """Hex SHA-256 of the secret's bytes (``secret`` in hex)."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def _hex(value: str, least: int, most: int, what: str) -> bytes:
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise DomainError("invalid_config", f"{what} is not hex") from None
    if not least <= len(raw) <= most or value != raw.hex():
        raise DomainError(
            "invalid_config", f"{what} must be {least} to {most} bytes in lower-case hex"
        )
    return raw


def decide(ledger: Ledger, command: EntropyCommand) -> list[EntropyEvent]:
    """The events of an entropy command; a contribution with no deck to go to is dropped."""
    if isinstance(command, CommitSecret):
        _hex(command.secret, SECRET_BYTES, SECRET_BYTES, "the secret")
        if ledger.pending is not None:
            raise DomainError("illegal_choice", "a deck's secret is already committed")
        deck = ledger.committed + 1
        return [EntropyCommitted(deck, secret_commitment(command.secret), command.secret)]
    _hex(command.entropy, MIN_CONTRIBUTION, MAX_CONTRIBUTION, "entropy")
    if ledger.pending is None:
        return []
    return [EntropyContributed(ledger.pending.deck, command.seat, command.entropy)]


def evolve(ledger: Ledger, event: EntropyEvent) -> Ledger:
    if isinstance(event, EntropyCommitted):
        assert event.secret is not None, "stored events are never redacted"
        return Ledger(event.deck, Mix(event.deck, event.commitment, event.secret), ledger.dealt)
    if isinstance(event, EntropyContributed):
        assert ledger.pending is not None
        mix = ledger.pending
        added = (*mix.contributions, (event.seat, event.entropy))
        return msgspec.structs.replace(
            ledger, pending=msgspec.structs.replace(mix, contributions=added)
        )
    return msgspec.structs.replace(
        ledger, dealt=tuple(m for m in ledger.dealt if m.deck != event.deck)
    )


def track(ledger: Ledger, event: Any, hooks: DeckHooks) -> tuple[Ledger, EntropyRevealed | None]:
    """The ledger after one of the game's own events: a deal takes the pending mix; an opening
    of a mixed deck calls for its secret's reveal (returned, to be emitted right after it)."""
    dealt = hooks.dealt(event)
    if dealt is not None and ledger.pending is not None:
        mix = msgspec.structs.replace(ledger.pending, dealt_as=dealt)
        return Ledger(ledger.committed, None, (*ledger.dealt, mix)), None
    opened = hooks.opened(event)
    if opened is not None:
        for mix in ledger.dealt:
            if mix.dealt_as == opened[0]:
                return ledger, EntropyRevealed(mix.deck, mix.secret)
    return ledger, None


# --- the algorithm (docs/API.md "Fairness") -----------------------------------------------------


def seed(secret: str, contributions: Iterable[tuple[int, str]]) -> bytes:
    """SHA-256 of ``SEED_DOMAIN ‖ secret ‖ (seat u32be ‖ length u32be ‖ bytes)`` per contribution,
    in the order the log holds them."""
    h = hashlib.sha256(SEED_DOMAIN)
    h.update(bytes.fromhex(secret))
    for seat, entropy in contributions:
        raw = bytes.fromhex(entropy)
        h.update(seat.to_bytes(4, "big") + len(raw).to_bytes(4, "big") + raw)
    return h.digest()


def stream(seed_bytes: bytes, label: bytes) -> Iterator[int]:
    """The bytes SHA-256(seed ‖ label ‖ counter u64be), counter 0, 1, 2, …, one after another."""
    counter = 0
    while True:
        yield from hashlib.sha256(seed_bytes + label + counter.to_bytes(8, "big")).digest()
        counter += 1


def _below(source: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound): 4 bytes big-endian, redrawn while at or above the
    largest multiple of ``bound`` that fits in 32 bits (no modulo bias)."""
    limit = 2**32 - 2**32 % bound
    while True:
        value = int.from_bytes(bytes(next(source) for _ in range(4)), "big")
        if value < limit:
            return value % bound


def _words(seed_bytes: bytes, label: bytes) -> Iterator[int]:
    """:func:`stream`'s bytes read 4 at a time as big-endian integers: the values
    :func:`_below` reads from it, since each draw takes 4 bytes and a block's 32 bytes are 8
    whole draws. One ``struct`` unpack per block instead of a Python step per byte: a deck's
    shuffle was a few per cent of a command's CPU (docs/LOAD.md §14e)."""
    prefix = seed_bytes + label
    counter = 0
    while True:
        yield from _EIGHT_WORDS.unpack(hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest())
        counter += 1


_EIGHT_WORDS = struct.Struct(">8I")


def derived_order(seed_bytes: bytes, cards: Iterable[str]) -> tuple[str, ...]:
    """The cards sorted (by their ids' code points), then shuffled by Fisher–Yates from the
    last position down, each swap partner drawn from the ``b"order"`` stream (as
    :func:`_below` draws it, on whole words: :func:`_words`)."""
    deck = sorted(cards)
    words = _words(seed_bytes, b"order")
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        value = next(words)
        while value >= limit:  # redrawn: no modulo bias
            value = next(words)
        j = value % bound
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def derived_salt(seed_bytes: bytes, size: int) -> str:
    """The deck commitment's salt: the first ``size`` bytes of the ``b"salt"`` stream, hex
    (:func:`stream`'s blocks joined whole, not read a byte at a time: the same bytes)."""
    prefix = seed_bytes + b"salt"
    blocks = -(-size // 32)
    joined = b"".join(hashlib.sha256(prefix + c.to_bytes(8, "big")).digest() for c in range(blocks))
    return joined[:size].hex()


class DerivedDeck:
    """A game's ``RandomSource`` (``shuffle`` and ``randbytes``) that draws nothing: the order
    and salt are the mix's, so a game's own shuffle needs no change."""

    def __init__(self, mix: Mix) -> None:
        self._seed = seed(mix.secret, mix.contributions)

    def shuffle(self, x: list[str], /) -> None:
        x[:] = derived_order(self._seed, x)

    def randbytes(self, n: int, /) -> bytes:
        return bytes.fromhex(derived_salt(self._seed, n))


# --- the audit -------------------------------------------------------------------------------


class DeckSource(msgspec.Struct, frozen=True):
    """Where one dealt deck's order came from, for the audit's report and the viewer.

    ``mixed``: the service committed to its secret first and the deck is derived from it and
    the ``contributors``' entropy (seats, in order); ``operator``: the service chose it alone
    (a table of bots only, or a match played before the protocol existed)."""

    noun: str
    number: int
    source: Literal["mixed", "operator"]
    contributors: tuple[int, ...] = ()
    commitment: str | None = None


def _walk(hooks: DeckHooks, records: Sequence[AuditRecord]) -> tuple[int, list[DeckSource]]:
    """Check every mixed deck of a log (CheckFailed at the first wrong one); its decks."""
    pending: tuple[int, Mix] | None = None  # (version of the commitment, the mix)
    dealt: dict[int, tuple[int, Mix]] = {}  # entropy deck -> (its commitment's version, mix)
    opened: dict[int, tuple[tuple[str, ...], str]] = {}  # game deck -> order, salt
    committed, checked = 0, 0
    sources: list[DeckSource] = []
    for record in records:
        event, v = record.event, record.version
        if isinstance(event, EntropyCommitted):
            if event.deck != committed + 1 or pending is not None:
                raise CheckFailed(v, f"v{v} commits to deck {event.deck} out of sequence")
            if event.secret is not None and _commits(event.secret) != event.commitment:
                raise CheckFailed(v, f"v{v} stores a secret that is not the one committed to")
            committed = event.deck
            pending = (v, Mix(event.deck, event.commitment, ""))
        elif isinstance(event, EntropyContributed):
            if pending is None or pending[1].deck != event.deck:
                raise CheckFailed(v, f"v{v} contributes to deck {event.deck}, which is not open")
            at, mix = pending
            added = (*mix.contributions, (event.seat, event.entropy))
            pending = (at, msgspec.structs.replace(mix, contributions=added))
        elif isinstance(event, EntropyRevealed):
            checked += _check_reveal(hooks, event, v, dealt, opened)
        else:
            number = hooks.dealt(event)
            if number is not None:
                if pending is not None:
                    at, mix = pending
                    dealt[mix.deck] = (at, msgspec.structs.replace(mix, dealt_as=number))
                    seats = tuple(dict.fromkeys(seat for seat, _ in mix.contributions))
                    sources.append(DeckSource(hooks.noun, number, "mixed", seats, mix.commitment))
                    pending = None
                else:
                    sources.append(DeckSource(hooks.noun, number, "operator"))
            opening = hooks.opened(event)
            if opening is not None:
                opened[opening[0]] = (opening[1], opening[2])
    for _, mix in dealt.values():
        if mix.dealt_as in opened:
            last = records[-1].version
            raise CheckFailed(
                last + 1, f"{hooks.noun} {mix.dealt_as} was opened but its secret never revealed"
            )
    return checked, sources


def _commits(secret: str) -> str | None:
    try:
        return secret_commitment(secret)
    except ValueError:
        return None


def _check_reveal(
    hooks: DeckHooks,
    event: EntropyRevealed,
    v: int,
    dealt: dict[int, tuple[int, Mix]],
    opened: dict[int, tuple[tuple[str, ...], str]],
) -> int:
    """One revealed secret: it opens its commitment, and the deck is the one it gives."""
    found = dealt.pop(event.deck, None)
    if found is None:
        raise CheckFailed(v, f"v{v} reveals the secret of deck {event.deck}, which was not dealt")
    at, mix = found
    name = f"{hooks.noun} {mix.dealt_as}"
    if _commits(event.secret) != mix.commitment:
        raise CheckFailed(
            v,
            f"the secret revealed for {name} is not the one committed to at v{at}: "
            "the service changed its secret",
        )
    assert mix.dealt_as is not None
    if mix.dealt_as not in opened:
        raise CheckFailed(v, f"v{v} reveals the secret of {name} before the deck is opened")
    order, salt = opened[mix.dealt_as]
    mixed = seed(event.secret, mix.contributions)
    try:
        salt_size = len(bytes.fromhex(salt))
    except ValueError:
        salt_size = -1
    if derived_order(mixed, order) != order or derived_salt(mixed, salt_size) != salt:
        raise CheckFailed(
            v,
            f"{name} is not the deck its secret and contributions give: the service chose it",
        )
    return 1


def check(hooks: DeckHooks, records: Sequence[AuditRecord]) -> int:
    """The audit's ``entropy`` check: every mixed deck is derived from its revealed secret
    (which opens its commitment) and its contributions; returns the decks checked."""
    return _walk(hooks, records)[0]


def sources(hooks: DeckHooks, events: Sequence[Any]) -> tuple[DeckSource, ...]:
    """Each dealt deck's source, read off a log (checked or not: ``check`` says if it holds)."""
    records = [AuditRecord(v, e, "", "", b"") for v, e in enumerate(events, start=1)]
    try:
        return tuple(_walk(hooks, records)[1])
    except CheckFailed:
        return ()


def describe(decks: Sequence[DeckSource]) -> str:
    """One line for a report: which decks were mixed with whose entropy, which came from the
    service's committed secret alone, and which the operator chose ("operator-chosen deck")."""
    if not decks:
        return "decks: none dealt"
    mixed = [d for d in decks if d.source == "mixed" and d.contributors]
    alone = [d for d in decks if d.source == "mixed" and not d.contributors]
    operator = [d for d in decks if d.source == "operator"]
    parts: list[str] = []
    if mixed:
        seats = sorted({s for d in mixed for s in d.contributors})
        parts.append(
            f"{len(mixed)} mixed with players' entropy (seats {', '.join(map(str, seats))})"
        )
    if alone:
        parts.append(f"{len(alone)} from the service's committed secret alone")
    if operator:
        names = ", ".join(f"{d.noun} {d.number}" for d in operator)
        plural = "s" if len(operator) > 1 else ""
        parts.append(f"{len(operator)} operator-chosen deck{plural} ({names})")
    return "decks: " + "; ".join(parts)


def is_entropy(event: Any) -> bool:
    return isinstance(event, EntropyCommitted | EntropyContributed | EntropyRevealed)


def without_entropy(records: Sequence[AuditRecord]) -> list[AuditRecord]:
    """A log's records less the protocol's, for a game's own checks (which know only its own)."""
    return [r for r in records if not is_entropy(r.event)]
