"""V2: batches and the membership of their jobs (standalone XOR member, never half of each).

Revision ID: 0002_review_batches
Revises: 0001_review_jobs
"""

from alembic import op

revision = "0002_review_batches"
down_revision = "0001_review_jobs"

UPGRADE = """
create table review_batches (
  id uuid primary key,
  idempotency_key varchar(128) not null unique,
  request_hash char(64) not null,
  submitted_at timestamptz not null default current_timestamp
);

alter table review_jobs
  alter column idempotency_key drop not null,
  add column batch_id uuid references review_batches(id),
  add column item_id varchar(128),
  add column item_position integer,
  add constraint review_jobs_batch_item_unique unique (batch_id, item_id),
  add constraint review_jobs_batch_position_unique unique (batch_id, item_position),
  add constraint review_jobs_membership_check check (
    (idempotency_key is not null and batch_id is null and item_id is null and item_position is null)
    or
    (idempotency_key is null and batch_id is not null and item_id is not null
      and item_position is not null and item_position >= 1)
  );
"""


def upgrade() -> None:
    op.execute(UPGRADE)
