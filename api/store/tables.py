"""Table definitions of the event store (SQLAlchemy Core).

The schema itself is created only by the Alembic migrations in ``migrations/``;
these objects describe it for queries. Keep both in step (a test compares them).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from domain.games import DEFAULT_GAME

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING)

#: JSON on SQLite, JSONB on PostgreSQL
JsonType = sa.JSON().with_variant(JSONB(), "postgresql")
#: BIGINT identity on PostgreSQL, INTEGER PRIMARY KEY (rowid) on SQLite
PositionType = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seats", JsonType, nullable=False),
    # the game in the registry (domain.games; rows written before revision 0004 hold the
    # registry's default, the one game there was), its creation options, each seat's score in
    # the game's unit (its ``score.unit``) and the winning seats (revision 0004)
    sa.Column("game", sa.String(32), nullable=False, server_default=DEFAULT_GAME),
    sa.Column("options", JsonType, nullable=False, server_default="{}"),
    sa.Column("standing", JsonType, nullable=False, server_default="[]"),
    sa.Column("winners", JsonType, nullable=False, server_default="[]"),
    # the columns from before revision 0004, kept as mirrors of the generic ones (lives =
    # standing, winner = the single winner, starting_lives = that option or 0): see 0004
    sa.Column("starting_lives", sa.Integer, nullable=False),
    sa.Column("lives", JsonType, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("rounds", sa.Integer, nullable=False, server_default="0"),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("seed", sa.BigInteger, nullable=True),
    # the due deadline of the match's clock, and a rematch's links both ways (revision 0008)
    sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
    sa.Column("rematch_of", sa.String(36), nullable=True),
    sa.Column("rematch", sa.String(36), nullable=True),
    # a match the queue seated: its open seats are kept for its waiters (revision 0011)
    sa.Column("queued", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_matches_created", "created_at", "id"),
    sa.Index("ix_matches_status_created", "status", "created_at", "id"),
    sa.Index("ix_matches_deadline", "deadline"),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("position", PositionType, sa.Identity(), primary_key=True),
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("matches.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("data", JsonType, nullable=False),
    sa.Column("meta", JsonType, nullable=True),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    # the record exactly as hashed (domain.envelope): verification and exports use these
    # bytes, never ``data``/``meta`` (JSONB reorders keys; event types evolve)
    sa.Column("body", sa.Text, nullable=False),
    # 2: the record covers match, version, type, schema, data, meta and time; 1: legacy rows
    # from before revision 0002, whose record is the bare event
    sa.Column("envelope", sa.SmallInteger, nullable=False, server_default="1"),
    sa.UniqueConstraint("match_id", "version", name="uq_events_match_id_version"),
)

#: the service's signature over each finished match's final hash (api/signing.py)
match_seals = sa.Table(
    "match_seals",
    metadata,
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("matches.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("final_hash", sa.String(64), nullable=False),
    sa.Column("key_id", sa.String(64), nullable=False),
    sa.Column("signature", sa.Text, nullable=False),
    sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
)

seat_tokens = sa.Table(
    "seat_tokens",
    metadata,
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("matches.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
)

idempotency_keys = sa.Table(
    "idempotency_keys",
    metadata,
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("matches.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    # the stream's version before and after the request: its answer is re-rendered from them
    sa.Column("first_version", sa.Integer, nullable=False),
    sa.Column("last_version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: the creations sent with an Idempotency-Key (revision 0005): the match each made, so that a
#: retry answers it again instead of making another, and its seat tokens encrypted under a key
#: derived from the Idempotency-Key, which is stored only as a keyed hash (api/creation_keys.py).
#: A row is written before its match (no foreign key): a crash between the two leaves a row
#: whose retry makes the match under the id and tokens it reserved.
creation_keys = sa.Table(
    "creation_keys",
    metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("match_id", sa.String(36), nullable=False),
    sa.Column("sealed_tokens", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: the transparency log of signed results (revision 0006, api/transparency/store.py): one
#: row per appended result, in the log's order (``position`` from 0), never a foreign key to
#: its match (the log keeps its leaves whatever becomes of a match)
log_leaves = sa.Table(
    "log_leaves",
    metadata,
    sa.Column("position", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("match_id", sa.String(36), nullable=False, unique=True),
    sa.Column("leaf", sa.Text, nullable=False),
    sa.Column("leaf_hash", sa.String(64), nullable=False),
    sa.Column("logged_at", sa.DateTime(timezone=True), nullable=False),
)

#: the log's tree after the last append, one row (id 1), and the lock appends take
log_tree = sa.Table(
    "log_tree",
    metadata,
    sa.Column("id", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("size", sa.BigInteger, nullable=False),
    sa.Column("root_hash", sa.String(64), nullable=False),
    sa.Column("frontier", JsonType, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("id = 1", name="one_row"),
)

#: player accounts (revision 0007, api/players.py): a unique name (``name_key``: the name
#: case-folded), person or bot, and the SHA-256 of the account's API key (NULL: revoked)
players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("key_sha256", sa.String(64), nullable=True, unique=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: each account's OpenSkill rating per game (api/ratings.py): a projection of the finished
#: matches in ``rated_matches``, made again from the events by ``cuccu ratings rebuild``
player_ratings = sa.Table(
    "player_ratings",
    metadata,
    sa.Column(
        "player_id",
        sa.String(36),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Double(), nullable=False),
    sa.Column("sigma", sa.Double(), nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
)

#: the finished matches with account seats the ratings have taken in, in the order they were
#: rated: (``ended_at``, ``match_id``), the time of the final event. ``rated``: false when the
#: match changed no rating (fewer than two accounts, or one account at two seats)
rated_matches = sa.Table(
    "rated_matches",
    metadata,
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("matches.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Index("ix_rated_matches_ended", "ended_at", "match_id"),
)

#: each rated account's rating in its game just after each rated match: where a finish taken in
#: late (it ended before matches already rated) restarts from, and a player's history
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column(
        "match_id",
        sa.String(36),
        sa.ForeignKey("rated_matches.match_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("player_id", sa.String(36), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("mu", sa.Double(), nullable=False),
    sa.Column("sigma", sa.Double(), nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Index("ix_rating_changes_player", "player_id", "game", "ended_at", "match_id"),
)

#: the matchmaking queue (api/queue.py): an account waiting for a table of ``seats`` in
#: ``game`` (``waiting``), then seated (``matched``: its match and seat, and the claim's
#: Idempotency-Key, with which the queue hands the waiter a fresh seat token) or gone (``left``)
queue_tickets = sa.Table(
    "queue_tickets",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "player_id", sa.String(36), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("seats", sa.Integer, nullable=False),
    # seconds after which the waiter accepts bots in the empty seats (None: never)
    sa.Column("bots_after", sa.Integer, nullable=True),
    sa.Column("bot_level", sa.String(16), nullable=False),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("match_id", sa.String(36), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("claim_key", sa.String(64), nullable=True),
    # when seating began (``seating``): a seating older than a minute was cut off by a crash
    sa.Column("reserved_at", sa.DateTime(timezone=True), nullable=True),
    # the randomness a join sent for its match's first deck (hex, revision 0009): no longer
    # taken (it was sent before the commitment to that deck, api/queue.py); old rows only
    sa.Column("entropy", sa.String(128), nullable=True),
    sa.Index("ix_queue_tickets_waiting", "status", "game", "seats", "created_at"),
)

#: indexes of expressions each dialect writes its own way, made in SQL by their migration and
#: not declared above: ``ix_events_account`` (revision 0007) indexes ``meta``'s ``account``
#: (``meta ->> 'account'`` on PostgreSQL, ``json_extract(meta, '$.account')`` on SQLite)
EXPRESSION_INDEXES = frozenset({"ix_events_account"})

#: the service's pre-commitments (revision 0010, api/store/precommitments.py): a secret for a
#: match's first deck drawn and committed to (``POST /commitments``) before the creator sends
#: the entropy it is mixed with. ``secret`` is answered by no request: the match's
#: ``entropy_committed`` event reveals it when the deck is opened. ``match_id`` is the match
#: that used it (NULL while unused): one use only, and a retry of that same creation may use it
#: again. Rows are deleted an hour after they expire.
precommitments = sa.Table(
    "precommitments",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("match_id", sa.String(36), nullable=True),
    sa.Index("ix_precommitments_expires_at", "expires_at"),
)
