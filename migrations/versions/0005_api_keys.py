"""API keys: each key belongs to one seller (owner); only a SHA-256 hash of the secret is kept.
Also an index for admission control's per-owner count of unfinished jobs.

Revision ID: 0005_api_keys
Revises: 0004_heartbeats
"""

from alembic import op

revision = "0005_api_keys"
down_revision = "0004_heartbeats"

UPGRADE = """
create table api_keys (
  id uuid primary key,
  owner varchar(128) not null,
  key_hash char(64) not null,
  created_at timestamptz not null default current_timestamp,
  revoked_at timestamptz,
  constraint api_keys_hash_unique unique (key_hash),
  constraint api_keys_owner_check check (length(btrim(owner)) > 0),
  constraint api_keys_hash_check check (key_hash ~ '^[0-9a-f]{64}$'),
  constraint api_keys_revoked_check check (revoked_at is null or revoked_at >= created_at)
);

-- Admission counts one owner's QUEUED/RUNNING jobs before every submission.
create index review_jobs_owner_unfinished_idx on review_jobs (owner)
  where status in ('QUEUED', 'RUNNING');
"""


def upgrade() -> None:
    op.execute(UPGRADE)
