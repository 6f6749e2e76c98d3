"""The queue port over dramatiq-pg: messages written inside the acceptance transaction.

dramatiq-pg's own `enqueue` commits on its private connection, which would break atomic
acceptance, so this writes the same rows and NOTIFY payloads its broker writes, on the
caller's connection. NOTIFY is delivered on commit; a rollback delivers nothing.

The messages are built in the database from the job ids (insert_messages in queries.sql),
not in Python and copied in. A NOTIFY is only a wake-up for our consumer (tasks/consumer.py
takes the oldest queued messages with SKIP LOCKED, whatever the payload names), so many
messages written at once (acceptance, a retry of 10,000 items) send one NOTIFY, not one each;
a single message is notified exactly as dramatiq-pg's own enqueue does (its message, or its
id when large). Both together: 144 -> 127 ms for 10,000 messages (benchmarks/retry_cost.py).
"""

import json
import time
import uuid
from collections.abc import Sequence

from dramatiq import Message
from dramatiq.common import dq_name
from sqlalchemy import Connection, text

from core.sql import queries_beside

QUERIES = queries_beside(__file__)
ACTOR_NAME = "review_listing"

# The payload dramatiq-pg's ENQUEUE statement notifies: the message, or its id when large.
NOTIFY_ENQUEUED = text("""
select count(pg_notify('dramatiq.' || queue_name || '.enqueue',
  case when octet_length(message::text) >= 8000
    then jsonb_build_object('message_id', message_id)::text
    else message::text end))
from dramatiq.queue
where message_id = any(cast(string_to_array(:message_ids, ',') as uuid[]))
""")

# Many messages: one wake-up naming the first, in dramatiq-pg's form for a large message.
NOTIFY_WAKE_UP = text("select pg_notify(:channel, :payload)")


class DramatiqPgQueue:
    """Implements core.jobs.queue.JobQueue: one new message, with a new id, per job.

    Message ids are never reused: recovery sends a job again under a fresh id because the
    old message's advisory lock may still be held by a hung worker.
    """

    def __init__(self, queue_name: str) -> None:
        self.queue_name = queue_name

    def enqueue(
        self, connection: Connection, job_ids: Sequence[uuid.UUID], delay_seconds: float = 0
    ) -> None:
        """Delayed messages go to dramatiq's delay queue (`<queue>.DQ`) with an `eta`, as
        dramatiq's own retries do; its delay consumer moves them to the queue when due.
        """
        if not job_ids:
            return
        now = int(time.time() * 1000)
        queue_name, options = self.queue_name, {}
        if delay_seconds > 0:
            queue_name, options = dq_name(self.queue_name), {"eta": now + int(delay_seconds * 1000)}
        message_ids = connection.execute(QUERIES["insert_messages"], {
            "queue_name": queue_name, "actor_name": ACTOR_NAME, "options": json.dumps(options),
            "timestamp": now, "job_ids": list(job_ids)}).scalars().all()
        self.notify(connection, queue_name, len(message_ids), message_ids[0])

    def enqueue_new_batch(self, connection: Connection, batch_id: uuid.UUID) -> None:
        """The messages of a batch just written, in one statement from its job rows."""
        written = connection.execute(QUERIES["insert_batch_messages"], {
            "queue_name": self.queue_name, "actor_name": ACTOR_NAME, "options": "{}",
            "timestamp": int(time.time() * 1000), "batch_id": batch_id}).one()
        self.notify(connection, self.queue_name, written.messages, written.first_id)

    def notify(self, connection: Connection, queue_name: str, count: int, first_id: uuid.UUID | None) -> None:
        """Wake the consumers of `queue_name` for the `count` messages just written."""
        if count == 1:
            connection.execute(NOTIFY_ENQUEUED, {"message_ids": str(first_id)})
        elif count:
            connection.execute(NOTIFY_WAKE_UP, {"channel": f"dramatiq.{queue_name}.enqueue",
                                                "payload": json.dumps({"message_id": str(first_id)})})


def message_json(queue_name: str, message_id: uuid.UUID, job_id: uuid.UUID, timestamp_ms: int,
                 options: dict) -> str:
    """The message dramatiq's worker decodes: review_listing(job_id). The queue's write_messages
    (tasks/queries.sql) builds the same JSON in the database; tests compare the two."""
    message = Message(
        queue_name=queue_name, actor_name=ACTOR_NAME, args=(str(job_id),), kwargs={},
        options=options, message_id=str(message_id), message_timestamp=timestamp_ms,
    )
    return json.dumps(message.asdict())
