"""dramatiq-pg's broker and consumer with five fixes measured on 0.12:

- every process LISTENs on the queue's channel and tries every notified message by id, also
  the backlog it queued up while at its prefetch limit (one UPDATE per message per process,
  nearly all losing the race: 26 transactions per item at 16 processes against 5.4 at 1): a
  NOTIFY is only a wake-up here, and the consumer takes the oldest queued messages there is
  room for with SKIP LOCKED (tasks/queries.sql), 7.4 per item at 16 processes;
- its prefetch backoff counter is never reset, so after a few waits at the prefetch limit
  every wait sleeps 0.5-1 s while worker threads run dry: reset it whenever there is room;
- after its LISTEN connection is re-established (database restart) it does not rescan, so
  every NOTIFY sent while it was away is lost until a random rescan (~5 min): rescan;
- an ack or nack that cannot reach the database leaves the message in `in_processing` for
  good, which skips it forever and shrinks the prefetch: forget it (recovery re-sends it);
- after a connection error Dramatiq replaces the consumer while worker threads still hold
  messages of the old one, and retries acks that failed: the ack then commits and its
  `in_processing.remove` raises KeyError, which skips Dramatiq's after-ack hooks (metrics)
  and logs "You've found a bug in Dramatiq": forgetting a message twice is not an error;
- every ack and nack sends a NOTIFY nobody listens to, and each NOTIFY wakes every listening
  backend of the database at commit (two per worker process): acks write the same rows
  without it (tasks/queries.sql).

And one measured on this code (benchmarks/worker_pipeline.py --statements): an ack, a take and
each unlock were each wrapped in BEGIN and COMMIT, and every message was unlocked by a statement
of its own: 6.2 of the 15 statements per item. Each of them is one statement, so it runs in
autocommit (atomic alone), and the unlocks waiting in `unlock_q` go in one statement.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from queue import Empty

from dramatiq import Message
from dramatiq_pg import PostgresBroker
from dramatiq_pg.broker import PostgresConsumer, message_lock, raise_connection_error
from dramatiq_pg.utils import getconn, pool_sanitizer, tidy4json, wait_for_notifies
from psycopg2.extensions import Notify
from psycopg2.extras import Json
from sqlalchemy.dialects.postgresql import psycopg2

from core.sql import queries_beside

QUERIES = queries_beside(__file__)


class _InProcessing(set):
    """Message ids being processed; removing one that is already gone is a no-op."""

    def remove(self, message_id) -> None:
        self.discard(message_id)


@cache
def _psycopg2_sql(name: str) -> str:
    """The named query in psycopg2's parameter style (dramatiq-pg's pool is psycopg2)."""
    return str(QUERIES[name].compile(dialect=psycopg2.dialect()))


@contextmanager
def _autocommitted(connection) -> Iterator:
    """A cursor whose one statement commits alone: no BEGIN and COMMIT around it. The
    connection is handed back in its former mode (the pool's other users expect transactions).
    """
    former = connection.autocommit
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            yield cursor
    finally:
        if not connection.closed:
            connection.autocommit = former


@contextmanager
def _pooled_autocommitted(pool) -> Iterator:
    """dramatiq-pg's transaction(pool) in autocommit: psycopg2 (2.9) opens a transaction inside
    `with connection` even in autocommit, so the connection is not entered."""
    with pool_sanitizer(pool):
        connection = getconn(pool)
        try:
            with _autocommitted(connection) as cursor:
                yield cursor
        finally:
            pool.putconn(connection)


class ReviewConsumer(PostgresConsumer):
    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.in_processing = _InProcessing()
        self.taken: set[str] = set()
        self.more_queued = True

    def fetch_pending_notifies(self) -> list[Notify]:
        """Called by dramatiq-pg at start and now and then: take what is queued."""
        self.get_listen_conn()
        return self.take_queued()

    def poll_for_notify(self) -> None:
        """Wait for a NOTIFY (not while the last take filled its room: more may be queued);
        whichever messages it names, take the oldest queued ones. Notifies are read even
        then, so none pile up on the listening connection."""
        woken = wait_for_notifies(self.get_listen_conn(), 0 if self.more_queued else self.timeout)
        if woken or self.more_queued:
            self.notifies += self.take_queued()

    def take_queued(self) -> list[Notify]:
        """Up to the room left under the prefetch, as notifies carrying the whole message."""
        room = self.prefetch - len(self.in_processing) - len(self.notifies)
        if room <= 0:
            return []
        with _autocommitted(self.get_consume_conn()) as cursor:
            cursor.execute(_psycopg2_sql("claim_queued_messages"), {"queue_name": self.queue_name,
                                                                    "room": room})
            messages = [row[0] for row in cursor]
        self.more_queued = len(messages) == room
        self.taken.update(Message.decode(text.encode()).message_id for text in messages)
        return [Notify(0, f"dramatiq.{self.queue_name}.enqueue", text) for text in messages]

    def consume_one(self, message) -> bool:
        """True for a message take_queued took: it is already consumed and locked."""
        if message.message_id not in self.taken:
            return False
        self.taken.discard(message.message_id)
        return True

    def __next__(self):
        if len(self.in_processing) < self.prefetch:
            self.misses = 0
        return super().__next__()

    def get_listen_conn(self):
        previous = self._listen_conn
        connection = super().get_listen_conn()
        if previous is not None and connection is not previous:
            self.notifies += self.fetch_pending_notifies()
        return connection

    @raise_connection_error
    def purge_locks(self) -> None:
        """Release the advisory locks of every message finished since the last call, in one
        statement (dramatiq-pg: one each, in a transaction)."""
        locks = []
        while True:
            try:
                locks.append(message_lock(self.unlock_q.get_nowait()))
            except Empty:
                break
        if locks:
            with _autocommitted(self.get_consume_conn()) as cursor:
                cursor.execute(_psycopg2_sql("unlock_messages"), {"locks": locks})

    def ack(self, message) -> None:
        self._finish(message, "ack_message")

    def nack(self, message) -> None:
        self._finish(message, "nack_message")

    @raise_connection_error
    def _finish(self, message, query: str) -> None:
        """dramatiq-pg's ack or nack (the message's lock is released by the consuming thread,
        through unlock_q), without its NOTIFY, in autocommit."""
        try:
            with _pooled_autocommitted(self.pool) as cursor:
                self.unlock_q.put_nowait(message)
                cursor.execute(_psycopg2_sql(query), {
                    "message": Json(tidy4json(message)), "message_id": message.message_id,
                    "queue_name": message.queue_name})
        finally:
            self.in_processing.discard(message.message_id)


class ReviewBroker(PostgresBroker):
    def consume(self, queue_name, prefetch=1, timeout=30000):
        return ReviewConsumer(pool=self.pool, queue_name=queue_name, prefetch=prefetch,
                              timeout=timeout)
