"""Batch operations: retries linked to their original batch, the seller's CSV header, a
CANCELLED job status (terminal, like SUCCEEDED and FAILED), and the tables behind the
operations page (live worker processes, recovery events).

Revision ID: 0006_batch_operations
Revises: 0005_api_keys
"""

from alembic import op

revision = "0006_batch_operations"
down_revision = "0005_api_keys"

UPGRADE = """
-- A retry belongs to the same seller as the batch it retries (hence the (id, owner) key).
alter table review_batches
  add column retry_of uuid,
  add column source_columns text[],
  add constraint review_batches_retry_of_fkey
    foreign key (retry_of, owner) references review_batches (id, owner),
  add constraint review_batches_retry_of_check check (retry_of <> id),
  add constraint review_batches_source_columns_check
    check (source_columns is null or cardinality(source_columns) > 0);

-- The seller's recent batches, newest first (core/batches/recent.py keyset pages).
create index review_batches_owner_recent_idx
  on review_batches (owner, submitted_at desc, id desc);

-- CANCELLED: a job nobody started that the seller called off. Terminal (completed_at set),
-- no result (result_check), no error code (error_check), no token (token_check); it may
-- never have started, like a QUEUED job.
alter table review_jobs
  drop constraint review_jobs_status_check,
  add constraint review_jobs_status_check
    check (status in ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  drop constraint review_jobs_terminal_completed_check,
  add constraint review_jobs_terminal_completed_check
    check ((status in ('SUCCEEDED', 'FAILED', 'CANCELLED')) = (completed_at is not null)),
  drop constraint review_jobs_started_check,
  add constraint review_jobs_started_check
    check (status in ('QUEUED', 'CANCELLED') or started_at is not null);

-- Failures in the last hour and completions per minute on the operations page.
create index review_jobs_completed_idx on review_jobs (completed_at)
  where completed_at is not null;

create table worker_processes (
  id uuid primary key,
  hostname text not null,
  pid integer not null,
  started_at timestamptz not null default current_timestamp,
  heartbeat_at timestamptz not null default current_timestamp,
  constraint worker_processes_pid_check check (pid > 0)
);
create index worker_processes_heartbeat_idx on worker_processes (heartbeat_at);

create table recovery_events (
  id bigserial primary key,
  kind text not null,
  count integer not null,
  recorded_at timestamptz not null default current_timestamp,
  constraint recovery_events_kind_check check (kind in ('stale_job', 'orphan_message')),
  constraint recovery_events_count_check check (count > 0)
);
create index recovery_events_recorded_idx on recovery_events (recorded_at);
"""


def upgrade() -> None:
    op.execute(UPGRADE)
