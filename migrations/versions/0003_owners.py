"""Sellers: an owner on batches and jobs; idempotency keys are unique per owner, and a member
job always belongs to its batch's owner. Also records the source file of a batch.

Revision ID: 0003_owners
Revises: 0002_review_batches
"""

from alembic import op

revision = "0003_owners"
down_revision = "0002_review_batches"

UPGRADE = """
alter table review_batches
  add column owner varchar(128) not null default 'local',
  add column source_name varchar(255),
  add column source_format varchar(8),
  drop constraint review_batches_idempotency_key_key,
  add constraint review_batches_owner_key_unique unique (owner, idempotency_key),
  add constraint review_batches_id_owner_unique unique (id, owner),
  add constraint review_batches_owner_check check (length(btrim(owner)) > 0),
  add constraint review_batches_key_check check (length(idempotency_key) > 0),
  add constraint review_batches_hash_check check (request_hash ~ '^[0-9a-f]{64}$'),
  add constraint review_batches_format_check
    check (source_format is null or source_format in ('csv', 'json', 'jsonl'));

alter table review_jobs
  add column owner varchar(128) not null default 'local',
  drop constraint review_jobs_idempotency_key_key,
  drop constraint review_jobs_batch_id_fkey,
  add constraint review_jobs_owner_key_unique unique (owner, idempotency_key),
  add constraint review_jobs_batch_owner_fkey
    foreign key (batch_id, owner) references review_batches (id, owner),
  add constraint review_jobs_owner_check check (length(btrim(owner)) > 0),
  add constraint review_jobs_key_check check (idempotency_key is null or length(idempotency_key) > 0),
  add constraint review_jobs_hash_check check (request_hash ~ '^[0-9a-f]{64}$'),
  add constraint review_jobs_item_id_check check (item_id is null or length(btrim(item_id)) > 0),
  add constraint review_jobs_started_check check (status = 'QUEUED' or started_at is not null);

create index review_jobs_status_idx on review_jobs (status) where status in ('QUEUED', 'RUNNING');
"""


def upgrade() -> None:
    op.execute(UPGRADE)
