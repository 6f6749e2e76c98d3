"""What worker processes record for the operations page: that they are alive, and what their
recovery loop recovered. Written by tasks/recovery.py, read by core/operations/stats.py.
"""

import uuid

from sqlalchemy import Connection, Engine

from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def record_worker_heartbeat(engine: Engine, worker_id: uuid.UUID, hostname: str, pid: int) -> None:
    """Insert or refresh this process's row (heartbeat_at = now); forget processes silent for
    a day. Database errors propagate (the recovery loop logs them and carries on).
    """
    with engine.begin() as connection:
        connection.execute(QUERIES["upsert_worker"], {"id": worker_id, "hostname": hostname, "pid": pid})
        connection.execute(QUERIES["prune_workers"])


def record_recoveries(connection_or_engine: Connection | Engine, kind: str, count: int) -> None:
    """Record that `count` things of `kind` ('stale_job' or 'orphan_message') were recovered.

    Given a connection it writes inside the caller's transaction (commits with the recovery
    itself); given an engine it commits on its own. Nothing is written for a count of 0.
    """
    if count <= 0:
        return
    params = {"kind": kind, "count": count}
    if isinstance(connection_or_engine, Engine):
        with connection_or_engine.begin() as connection:
            connection.execute(QUERIES["insert_recovery_event"], params)
    else:
        connection_or_engine.execute(QUERIES["insert_recovery_event"], params)
