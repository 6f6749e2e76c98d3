"""dramatiq-pg's broker and consumer with three fixes measured on 0.12:

- its prefetch backoff counter is never reset, so after a few waits at the prefetch limit
  every wait sleeps 0.5-1 s while worker threads run dry: reset it whenever there is room;
- after its LISTEN connection is re-established (database restart) it does not rescan, so
  every NOTIFY sent while it was away is lost until a random rescan (~5 min): rescan;
- an ack or nack that cannot reach the database leaves the message in `in_processing` for
  good, which skips it forever and shrinks the prefetch: forget it (recovery re-sends it);
- after a connection error Dramatiq replaces the consumer while worker threads still hold
  messages of the old one, and retries acks that failed: the ack then commits and its
  `in_processing.remove` raises KeyError, which skips Dramatiq's after-ack hooks (metrics)
  and logs "You've found a bug in Dramatiq": forgetting a message twice is not an error.
"""

from dramatiq_pg import PostgresBroker
from dramatiq_pg.broker import PostgresConsumer


class _InProcessing(set):
    """Message ids being processed; removing one that is already gone is a no-op."""

    def remove(self, message_id) -> None:
        self.discard(message_id)


class ReviewConsumer(PostgresConsumer):
    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.in_processing = _InProcessing()

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

    def ack(self, message) -> None:
        try:
            super().ack(message)
        finally:
            self.in_processing.discard(message.message_id)

    def nack(self, message) -> None:
        try:
            super().nack(message)
        finally:
            self.in_processing.discard(message.message_id)


class ReviewBroker(PostgresBroker):
    def consume(self, queue_name, prefetch=1, timeout=30000):
        return ReviewConsumer(pool=self.pool, queue_name=queue_name, prefetch=prefetch,
                              timeout=timeout)
