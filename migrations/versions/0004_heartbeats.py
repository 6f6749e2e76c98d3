"""Liveness of running attempts: a heartbeat per RUNNING job, and dramatiq-pg's message lock
key computed in SQL so recovery can tell an orphaned message from one still being worked on.

Revision ID: 0004_heartbeats
Revises: 0003_owners
"""

from alembic import op

revision = "0004_heartbeats"
down_revision = "0003_owners"

UPGRADE = """
alter table review_jobs add column heartbeat_at timestamptz;
update review_jobs set heartbeat_at = coalesce(started_at, current_timestamp)
  where status = 'RUNNING';
alter table review_jobs add constraint review_jobs_heartbeat_check
  check (status <> 'RUNNING' or heartbeat_at is not null);
create index review_jobs_running_heartbeat_idx on review_jobs (heartbeat_at)
  where status = 'RUNNING';

-- dramatiq_pg.broker.message_lock: sha256(queue_name || message_id), hex digits 25-40 read
-- as an unsigned 64-bit number minus 2^63 (the same bits with the top one flipped).
create function dramatiq_message_lock(queue_name text, message_id uuid) returns bigint
language sql immutable strict as $$
  select (('x' || substr(encode(sha256(convert_to(queue_name || message_id::text, 'UTF8')),
    'hex'), 25, 16))::bit(64) # x'8000000000000000')::bigint
$$;
"""


def upgrade() -> None:
    op.execute(UPGRADE)
