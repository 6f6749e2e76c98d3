"""Admission control: a seller may not queue more than `max_unfinished_items_per_owner` jobs.

This is a soft limit. The count is read in its own statement before the acceptance
transaction, so submissions racing each other can all pass and together overshoot the limit
by what they add; it bounds a seller's backlog, it is not an exact quota. A request
whose idempotency key is already known skips the limit: it can only replay the stored work
(or conflict), never add to it.
"""

from sqlalchemy import Engine, TextClause, text

from core.batches.acceptance import AcceptedBatch
from core.batches.submission import accept_checked, batch_name, checked_catalog
from core.costs.budget import BudgetInput, checked_budget
from core.economy.mode import requested_mode
from core.errors import AdmissionLimitExceeded, storage_errors
from core.jobs.queue import JobQueue
from core.settings import Settings

# One statement each: the owner's unfinished jobs (partial index review_jobs_owner_unfinished_idx)
# and whether this idempotency key already names a batch / a standalone job of the owner.
BATCH_ADMISSION = text("""
select
  (select count(*) from review_jobs
   where owner = :owner and status in ('QUEUED', 'RUNNING')) as unfinished,
  exists (select 1 from review_batches where owner = :owner and idempotency_key = :key) as known
""")
JOB_ADMISSION = text("""
select
  (select count(*) from review_jobs
   where owner = :owner and status in ('QUEUED', 'RUNNING')) as unfinished,
  exists (select 1 from review_jobs where owner = :owner and idempotency_key = :key) as known
""")


def admit_batch(engine: Engine, *, owner: str, key: str, incoming: int, limit: int) -> None:
    """Raise AdmissionLimitExceeded when a new batch of `incoming` items would take the
    owner's unfinished jobs over `limit`; StorageUnavailable when the database is down.
    """
    _admit(engine, BATCH_ADMISSION, owner, key, incoming, limit)


def admit_job(engine: Engine, *, owner: str, key: str, limit: int) -> None:
    """admit_batch for one standalone job."""
    _admit(engine, JOB_ADMISSION, owner, key, 1, limit)


def submit_admitted_catalog(
    engine: Engine, queue: JobQueue, settings: Settings, *, owner: str, filename: str,
    data: bytes, key: str, name: str | None = None, accept_valid_rows: bool = False,
    budget: BudgetInput = None, mode: str | None = None,
) -> AcceptedBatch:
    """submit_catalog behind the admission limit: check the file once, admit its listings,
    accept them. Raises what submit_catalog raises, and AdmissionLimitExceeded.
    """
    batch, amount, chosen = batch_name(name), checked_budget(budget), requested_mode(mode, settings.provider)
    check = checked_catalog(settings, filename, data, accept_valid_rows=accept_valid_rows)
    admit_batch(engine, owner=owner, key=key, incoming=len(check.items),
                limit=settings.max_unfinished_items_per_owner)
    return accept_checked(engine, queue, settings, check, owner=owner, filename=filename, data=data,
                          key=key, name=batch, budget=amount, mode=chosen)


def _admit(engine: Engine, statement: TextClause, owner: str, key: str, incoming: int,
           limit: int) -> None:
    with storage_errors(), engine.connect() as connection:
        row = connection.execute(statement, {"owner": owner, "key": key}).one()
    if not row.known and row.unfinished + incoming > limit:
        raise AdmissionLimitExceeded(_message(row.unfinished, incoming, limit))


def _message(unfinished: int, incoming: int, limit: int) -> str:
    return (f"You have {unfinished:,} listings waiting for review; {incoming:,} more would pass "
            f"the limit of {limit:,}. Nothing was stored: try again when some have finished.")

