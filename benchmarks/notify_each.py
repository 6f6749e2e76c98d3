"""The queue as it was before (tasks/queue.py): messages built in Python and copied in, and
one NOTIFY per message carrying it, as dramatiq-pg's own enqueue does. The baseline of
benchmarks/retry_cost.py, and what dramatiq-pg's stock consumer (worker_pipeline.py's
"before") needs: it takes the messages the notifications name, not the oldest queued ones.
Not used by the product.
"""

import time
import uuid
from collections.abc import Sequence

from dramatiq.common import dq_name
from sqlalchemy import Connection, text

from core.database import copy_rows
from tasks.queue import NOTIFY_ENQUEUED, DramatiqPgQueue, message_json

COPY_MESSAGES = 'copy dramatiq.queue (queue_name, message_id, "state", message) from stdin'
BATCH_JOBS = text("select id from review_jobs where batch_id = :batch_id order by item_position")


class NotifyEachQueue(DramatiqPgQueue):
    def enqueue(self, connection: Connection, job_ids: Sequence[uuid.UUID], delay_seconds: float = 0) -> None:
        now = int(time.time() * 1000)
        queue_name, options = self.queue_name, {}
        if delay_seconds > 0:
            queue_name, options = dq_name(self.queue_name), {"eta": now + int(delay_seconds * 1000)}
        message_ids = [uuid.uuid4() for _ in job_ids]
        rows = ((queue_name, message_id, "queued",
                 message_json(queue_name, message_id, job_id, now, options))
                for message_id, job_id in zip(message_ids, job_ids, strict=True))
        copy_rows(connection, COPY_MESSAGES, rows)
        connection.execute(NOTIFY_ENQUEUED, {"message_ids": ",".join(map(str, message_ids))})

    def enqueue_new_batch(self, connection: Connection, batch_id: uuid.UUID) -> None:
        """As before: the batch's job ids fetched into Python, then sent back as messages."""
        self.enqueue(connection, connection.execute(BATCH_JOBS, {"batch_id": batch_id}).scalars().all())
