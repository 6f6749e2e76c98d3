"""Concurrent completions: terminal writes of different jobs of one batch no longer take turns
on the batch row (0009's completion trigger locked it in every terminal write, so at 16
processes x 8 threads one batch's completions committed one at a time).

A terminal write now first looks for an unfinished sibling that nobody is writing and takes
a SHARE lock on it (SKIP LOCKED: it never waits). Found, the writer cannot be the last: that
sibling can become terminal only after this transaction commits (an UPDATE waits for a SHARE
lock), and its writer will then see this job terminal. Only when every unfinished sibling is
being written right now (or none is left) does the writer take the batch row and check, as
0009 did; those few writers take turns, and whichever checks last sees every other child
terminal. So the invariant holds as before (completed exactly in the transaction of the last
terminal write, never earlier, never missed) and, until a batch's last few jobs, no two
terminal writes wait for each other.

The sibling taken is the unfinished one latest in the batch (review_jobs_batch_unfinished_
position_idx, which replaces 0009's review_jobs_batch_unfinished_idx on batch_id alone): it is
claimed last, so a claim or write rarely waits for the short SHARE lock, and not every writer
of a large batch piles onto the same running job. A worker's terminal write is the last
statement of its transaction, so a SHARE lock is never held while waiting for anything. A
transaction writing several jobs of one batch in separate statements (economy mode's result
chunks) does hold them while it writes on: two such transactions on the same batch can, rarely,
deadlock; PostgreSQL aborts one, and its chunk is written on a later pass.

Online-safe (migrations/online.py): functions are replaced in place; the index is built
concurrently before the one it replaces is dropped concurrently.

Revision ID: 0015_concurrent_completions
Revises: 0014_economy_mode
"""

from migrations import online

revision = "0015_concurrent_completions"
down_revision = "0014_economy_mode"

# The probe, written once: the plan test (tests/test_history_plans.py) explains it with the
# batch as a parameter instead of the trigger's variable.
IDLE_UNFINISHED_SIBLING = """select 1 from review_jobs
    where batch_id = {batch} and completed_at is null
    order by item_position desc limit 1
    for share skip locked"""

# The batch row is taken only by a writer that may be the last; the check is 0009's.
UNFINISHED_CHILD = "select 1 from review_jobs where batch_id = {batch} and completed_at is null"

SETTLE = f"""
-- Complete `batch` if every child is terminal, under its row lock (callers that may be its
-- last writer take turns here; each statement reads a fresh READ COMMITTED snapshot).
create function review_batch_settle(batch uuid) returns boolean language plpgsql as $$
begin
  perform 1 from review_batches where id = batch and completed_at is null for update;
  if not found or exists ({UNFINISHED_CHILD.format(batch="batch")}) then
    return false;
  end if;
  update review_batches b set completed_at = c.last, succeeded = c.succeeded,
    failed = c.failed, cancelled = c.cancelled
  from (select max(completed_at) as last,
          count(*) filter (where status = 'SUCCEEDED') as succeeded,
          count(*) filter (where status = 'FAILED') as failed,
          count(*) filter (where status = 'CANCELLED') as cancelled
        from review_jobs where batch_id = batch) c
  where b.id = batch;
  return true;
end $$
"""

COMPLETE = f"""
-- After each statement that writes review_jobs, per batch of a terminal child it wrote: a
-- SHARE-locked unfinished sibling nobody is writing proves this is not the last write (that
-- sibling finishes after this commit); else settle under the batch's lock. Lock order: job,
-- then sibling job (never waited for), then batch.
create or replace function review_batches_complete() returns trigger language plpgsql as $$
declare
  finished uuid;
begin
  for finished in
    select distinct batch_id from new_rows
    where batch_id is not null and completed_at is not null
    order by 1
  loop
    perform 1 from ({IDLE_UNFINISHED_SIBLING.format(batch="finished")}) idle;
    continue when found;
    perform review_batch_settle(finished);
  end loop;
  return null;
end $$
"""

# 0009's function as it was, for the downgrade (and benchmarks/batch_completion.py's "before").
LOCK_EVERY_TIME = """
create or replace function review_batches_complete() returns trigger language plpgsql as $$
declare
  finished uuid;
begin
  for finished in
    select distinct batch_id from new_rows
    where batch_id is not null and completed_at is not null
    order by 1
  loop
    perform 1 from review_batches where id = finished and completed_at is null for update;
    continue when not found or exists (
      select 1 from review_jobs where batch_id = finished and completed_at is null);
    update review_batches b set completed_at = c.last, succeeded = c.succeeded,
      failed = c.failed, cancelled = c.cancelled
    from (select max(completed_at) as last,
            count(*) filter (where status = 'SUCCEEDED') as succeeded,
            count(*) filter (where status = 'FAILED') as failed,
            count(*) filter (where status = 'CANCELLED') as cancelled
          from review_jobs where batch_id = finished) c
    where b.id = finished;
  end loop;
  return null;
end $$
"""

NEW_INDEX = ("review_jobs_batch_unfinished_position_idx",
             "on review_jobs (batch_id, item_position) where completed_at is null")
OLD_INDEX = ("review_jobs_batch_unfinished_idx", "on review_jobs (batch_id) where completed_at is null")


def upgrade() -> None:
    online.create_index_concurrently(*NEW_INDEX)
    online.drop_index_concurrently(OLD_INDEX[0])
    online.execute(SETTLE)
    online.execute(COMPLETE)


def downgrade() -> None:
    online.execute(LOCK_EVERY_TIME)
    online.execute("drop function review_batch_settle")
    online.create_index_concurrently(*OLD_INDEX)
    online.drop_index_concurrently(NEW_INDEX[0])
