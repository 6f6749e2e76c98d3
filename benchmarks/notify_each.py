"""The queue as it was before one wake-up per enqueue (tasks/queue.py): one NOTIFY per message,
carrying the message as dramatiq-pg's own enqueue does. The baseline of benchmarks/retry_cost.py,
and what dramatiq-pg's stock consumer (worker_pipeline.py's "before") needs: it takes the
messages the notifications name, not the oldest queued ones. Not used by the product.
"""

import uuid
from collections.abc import Sequence

from sqlalchemy import Connection

from tasks.queue import NOTIFY_ENQUEUED, DramatiqPgQueue


class NotifyEachQueue(DramatiqPgQueue):
    def notify(self, connection: Connection, queue_name: str, message_ids: Sequence[uuid.UUID]) -> None:
        connection.execute(NOTIFY_ENQUEUED, {"message_ids": ",".join(map(str, message_ids))})
