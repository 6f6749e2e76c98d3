"""Polling submitted provider batches from the maintenance loop (no thread per batch): one due
provider batch per call, its next poll after an exponential backoff, and once it has ended its
answers streamed into the job lifecycle (core/economy/results.py) chunk by chunk.
"""

from sqlalchemy import Engine

from core.economy.batches_api import ENDED, ProviderBatches
from core.economy.policy import EconomyPolicy
from core.economy.results import ResultWriter
from core.jobs.queue import JobQueue
from core.sql import queries_beside

QUERIES = queries_beside(__file__)


def poll_next_batch(engine: Engine, queue: JobQueue, batches: ProviderBatches, policy: EconomyPolicy,
                    max_attempts: int) -> bool:
    """Poll one due provider batch; False when none was due. Raises ProviderBatchUnavailable
    (polled again once its lease is over) or storage errors."""
    with engine.begin() as connection:
        due = connection.execute(QUERIES["claim_due_poll"], {
            "lease_seconds": policy.lease_seconds, "provider": batches.provider}).first()
    if due is None:
        return False
    status = batches.status(due.provider_batch_id)
    if due.state == "cancelling":
        if status.state not in ENDED:  # an ended batch cannot be cancelled (the provider refuses)
            batches.cancel(due.provider_batch_id)
        _finish(engine, due.id)
        return True
    if status.state not in ENDED:
        with engine.begin() as connection:
            connection.execute(QUERIES["polled"], {"id": due.id, "wait_seconds": backoff(policy, due.polls)})
        return True
    writer = ResultWriter(engine, queue, due.id, batches.provider, batches.model, max_attempts)
    writer.write(batches.answers(due.provider_batch_id, status), status.state)
    _finish(engine, due.id, status.output_file_id, status.error_file_id)
    return True


def backoff(policy: EconomyPolicy, polls: int) -> float:
    """Doubling from the first poll's wait up to the longest: a day-long batch costs a few dozen
    polls, a quick one is seen soon."""
    return float(min(policy.max_poll_seconds, policy.first_poll_seconds * 2 ** min(polls, 20)))


def _finish(engine: Engine, provider_batch: object, output_file_id: str | None = None,
            error_file_id: str | None = None) -> None:
    with engine.begin() as connection:
        connection.execute(QUERIES["finish"], {"id": provider_batch, "output_file_id": output_file_id,
                                               "error_file_id": error_file_id})
