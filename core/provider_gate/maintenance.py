"""The provider gate's step in every worker process's maintenance loop: no waiting job is
left behind by a lost probe or a gate closed outside the usual path, and call counts older
than the operations page shows are forgotten."""

from sqlalchemy import Engine

from core.jobs.queue import JobQueue
from core.provider_gate.breaker import stranded_waiters
from core.provider_gate.rate_limits import forget_old_call_counts


def send_stranded_waiters(engine: Engine, queue: JobQueue, grace_seconds: float) -> int:
    """Send again the jobs `stranded_waiters` picks, in the transaction that stops their
    waiting (a crash in between loses nothing); returns how many were sent. Call counts over
    a day old go in the same pass (a no-op through the minute index most of the time)."""
    with engine.begin() as connection:
        job_ids = stranded_waiters(connection, grace_seconds)
        if job_ids:
            queue.enqueue(connection, job_ids)
        forget_old_call_counts(connection)
    return len(job_ids)
