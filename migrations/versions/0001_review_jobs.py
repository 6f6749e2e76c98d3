"""V1: standalone review jobs with their lifecycle invariants, and dramatiq-pg's queue table.

Revision ID: 0001_review_jobs
Revises:
"""

from alembic import op

revision = "0001_review_jobs"
down_revision = None

REVIEW_JOBS = """
create table review_jobs (
  id uuid primary key,
  idempotency_key varchar(128) not null unique,
  request_hash char(64) not null,
  payload jsonb not null,
  status varchar(16) not null check (status in ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  submitted_at timestamptz not null default current_timestamp,
  started_at timestamptz,
  completed_at timestamptz,
  attempts integer not null default 0 check (attempts >= 0),
  execution_token uuid,
  result jsonb,
  error_code varchar(64),
  error_message varchar(256),
  constraint review_jobs_terminal_completed_check
    check ((status in ('SUCCEEDED', 'FAILED')) = (completed_at is not null)),
  constraint review_jobs_result_check check ((status = 'SUCCEEDED') = (result is not null)),
  constraint review_jobs_error_check check ((status = 'FAILED') = (error_code is not null)),
  constraint review_jobs_token_check check ((status = 'RUNNING') = (execution_token is not null))
)
"""

# dramatiq-pg 0.12's schema.sql, with its psql variables written out.
DRAMATIQ_QUEUE = """
create schema if not exists dramatiq;
create type dramatiq.state as enum ('queued', 'consumed', 'rejected', 'done');
create table dramatiq.queue (
  message_id uuid primary key,
  queue_name text not null default 'default',
  "state" dramatiq.state,
  mtime timestamptz default (now() at time zone 'UTC'),
  message jsonb,
  "result" jsonb,
  result_ttl timestamptz
);
create index on dramatiq.queue ("state", mtime);
"""


def upgrade() -> None:
    op.execute(REVIEW_JOBS)
    op.execute(DRAMATIQ_QUEUE)
