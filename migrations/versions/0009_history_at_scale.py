"""History at scale: a batch records its completion (indexable status), exact job counts kept
per status as jobs change (the operations page reads 80 rows, not the jobs table), indexes
that bound every user path by the rows it returns, retention-friendly keys, and no default
owner. Online-safe (migrations/online.py): short lock timeouts with retries, constraints
added NOT VALID then validated, indexes built concurrently.

Revision ID: 0009_history_at_scale
Revises: 0008_sellers_and_audit
"""

from migrations import online

revision = "0009_history_at_scale"
down_revision = "0008_sellers_and_audit"

COLUMNS = """
-- A batch is complete once every child job is terminal. The trigger below writes when, and
-- the final counts, in the transaction of the last child's terminal write, so "COMPLETED" is
-- an indexed column and a complete batch's summary is read, not recounted.
alter table review_batches
  add column completed_at timestamptz,
  add column succeeded integer,
  add column failed integer,
  add column cancelled integer,
  drop constraint review_batches_retry_of_fkey,
  add constraint review_batches_retry_of_fkey foreign key (retry_of, owner)
    references review_batches (id, owner) on delete set null (retry_of) not valid,
  add constraint review_batches_outcome_check check (
    (completed_at is null) = (succeeded is null) and (completed_at is null) = (failed is null)
    and (completed_at is null) = (cancelled is null)
    and least(succeeded, failed, cancelled) >= 0) not valid,
  alter column owner drop default
"""

JOB_OWNER = "alter table review_jobs alter column owner drop default"

COMPLETION = """
-- After each statement that writes review_jobs: the batches of the terminal children it wrote
-- (completed_at set: the terminal statuses, by review_jobs_terminal_completed_check), one
-- check per batch however many children the statement touched (a cancel of 10,000 jobs
-- checks once; a batch already complete is skipped at its row). No join of the old and new
-- rows: transition tables have no statistics, and a nested loop over them is quadratic.
-- For each, in id order: lock the batch row, then look for an unfinished sibling. Writers of
-- one batch's last jobs take turns on that lock, and each statement of the function reads a
-- fresh READ COMMITTED snapshot, so whichever finishes last sees every other child terminal
-- and completes the batch. Lock order: job, then batch.
create function review_batches_complete() returns trigger language plpgsql as $$
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
end $$;

create trigger review_jobs_complete_batches after update on review_jobs
  referencing new table as new_rows for each statement
  execute function review_batches_complete();

-- The invariant itself, whoever writes: a batch is complete only with every child terminal,
-- is born unfinished, and a completion is never rewritten.
create function review_batches_guard_completion() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or old.completed_at is not null then
    raise exception using errcode = 'check_violation', constraint = 'review_batches_completion_guard',
      message = 'review_batches_completion_guard: batch ' || new.id
        || ': its completion is written once, by its last job';
  end if;
  if exists (select 1 from review_jobs where batch_id = new.id and completed_at is null) then
    raise exception using errcode = 'check_violation', constraint = 'review_batches_completion_guard',
      message = 'review_batches_completion_guard: batch ' || new.id || ' has unfinished jobs';
  end if;
  return new;
end $$;

create trigger review_batches_completion_guard before insert or update of completed_at,
  succeeded, failed, cancelled on review_batches
  for each row when (new.completed_at is not null
    or new.succeeded is not null or new.failed is not null or new.cancelled is not null)
  execute function review_batches_guard_completion();

-- Batches already complete before this revision.
update review_batches b set completed_at = c.last, succeeded = c.succeeded, failed = c.failed,
  cancelled = c.cancelled
from (select batch_id, max(completed_at) as last,
        count(*) filter (where status = 'SUCCEEDED') as succeeded,
        count(*) filter (where status = 'FAILED') as failed,
        count(*) filter (where status = 'CANCELLED') as cancelled
      from review_jobs where batch_id is not null
      group by batch_id having bool_and(completed_at is not null)) c
where b.id = c.batch_id
"""

COUNTS = """
-- Jobs per status, kept exact by statement triggers in the transaction of every insert,
-- status change and delete. A writer adds its delta to the row of its own shard (its backend
-- pid modulo 16), so concurrent writers rarely wait for each other; readers sum the shards.
create table review_job_counts (
  status varchar(16) not null,
  shard smallint not null,
  count bigint not null,
  primary key (status, shard),
  constraint review_job_counts_shard_check check (shard between 0 and 15)
);

create function review_job_counts_apply() returns trigger language plpgsql as $$
begin
  insert into review_job_counts as c (status, shard, count)
  select status, mod(pg_backend_pid(), 16), sum(delta)
  from (
    select status, 1 as delta from new_rows
    union all
    select status, -1 from old_rows
  ) d
  group by status having sum(delta) <> 0
  order by status
  on conflict (status, shard) do update set count = c.count + excluded.count;
  return null;
end $$;

create function review_job_counts_apply_inserts() returns trigger language plpgsql as $$
begin
  insert into review_job_counts as c (status, shard, count)
  select status, mod(pg_backend_pid(), 16), count(*) from new_rows group by status order by status
  on conflict (status, shard) do update set count = c.count + excluded.count;
  return null;
end $$;

create function review_job_counts_apply_deletes() returns trigger language plpgsql as $$
begin
  insert into review_job_counts as c (status, shard, count)
  select status, mod(pg_backend_pid(), 16), -count(*) from old_rows group by status order by status
  on conflict (status, shard) do update set count = c.count + excluded.count;
  return null;
end $$;

create function review_job_counts_reset() returns trigger language plpgsql as $$
begin
  delete from review_job_counts;
  return null;
end $$;

create trigger review_job_counts_on_insert after insert on review_jobs
  referencing new table as new_rows for each statement
  execute function review_job_counts_apply_inserts();
create trigger review_job_counts_on_update after update on review_jobs
  referencing old table as old_rows new table as new_rows for each statement
  execute function review_job_counts_apply();
create trigger review_job_counts_on_delete after delete on review_jobs
  referencing old table as old_rows for each statement
  execute function review_job_counts_apply_deletes();
create trigger review_job_counts_on_truncate after truncate on review_jobs
  for each statement execute function review_job_counts_reset();

-- Counted once, under the trigger's lock (writes wait for this count, reads do not).
insert into review_job_counts (status, shard, count)
select status, 0, count(*) from review_jobs group by status
"""

INDEXES = {
    # A batch's unfinished children: the completion trigger's probe.
    "review_jobs_batch_unfinished_idx": "on review_jobs (batch_id) where completed_at is null",
    # Retry: a batch's failed and cancelled children in position order.
    "review_jobs_batch_retryable_idx":
        "on review_jobs (batch_id, item_position) where status in ('FAILED', 'CANCELLED')",
    # The seller's batch list filtered by status, newest first.
    "review_batches_owner_unfinished_idx":
        "on review_batches (owner, submitted_at desc, id desc) where completed_at is null",
    "review_batches_owner_completed_idx":
        "on review_batches (owner, submitted_at desc, id desc) where completed_at is not null",
    # Retention: finished batches, oldest completion first.
    "review_batches_completed_idx": "on review_batches (completed_at) where completed_at is not null",
    # Deleting a batch sets its retries' retry_of to null (the foreign key's lookup).
    "review_batches_retry_of_idx": "on review_batches (retry_of) where retry_of is not null",
}


def upgrade() -> None:
    online.execute(COLUMNS)
    online.execute(JOB_OWNER)
    online.execute(COMPLETION)
    online.execute(COUNTS)
    online.execute("alter table review_batches validate constraint review_batches_retry_of_fkey")
    online.execute("alter table review_batches validate constraint review_batches_outcome_check")
    for name, definition in INDEXES.items():
        online.create_index_concurrently(name, definition)


def downgrade() -> None:
    for name in INDEXES:
        online.drop_index_concurrently(name)
    online.execute("""
drop table review_job_counts;
drop function review_job_counts_apply, review_job_counts_apply_inserts,
  review_job_counts_apply_deletes, review_job_counts_reset cascade;
drop function review_batches_complete, review_batches_guard_completion cascade;
alter table review_jobs alter column owner set default 'local';
alter table review_batches alter column owner set default 'local',
  drop constraint review_batches_retry_of_fkey,
  add constraint review_batches_retry_of_fkey foreign key (retry_of, owner)
    references review_batches (id, owner),
  drop column completed_at, drop column succeeded, drop column failed, drop column cancelled
""")
