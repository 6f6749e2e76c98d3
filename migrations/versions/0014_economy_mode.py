"""Economy mode (core/economy): batches reviewed through OpenAI's Batch API at batch prices.
- review_batches.mode: 'standard' (one queue message per job) or 'economy';
- provider_batches: one provider batch per row, written as an intent ('preparing', no provider
  id yet) before anything is sent, and given its provider id in the transaction that records
  the provider's acceptance (see core/economy/submit.py for why in that order);
- provider_batch_jobs: which jobs a provider batch carries, with the execution token each
  job was claimed with (results are written fenced by it).

Online-safe (migrations/online.py): a column with a constant default is instant (PostgreSQL 11+);
its constraint is added NOT VALID and validated apart; new tables take no lock on old ones
beyond the FK's brief SHARE ROW EXCLUSIVE; indexes on new, empty tables are built concurrently.

Revision ID: 0014_economy_mode
Revises: 0013_budgets
"""

from migrations import online

revision = "0014_economy_mode"
down_revision = "0013_budgets"

PROVIDER_BATCHES = """
create table provider_batches (
  id uuid primary key,
  batch_id uuid not null references review_batches (id) on delete cascade,
  provider text not null,
  provider_batch_id text,
  input_file_id text,
  state text not null default 'preparing',
  created_at timestamptz not null default current_timestamp,
  submitted_at timestamptz,
  expected_by timestamptz,
  polled_at timestamptz,
  next_poll_at timestamptz not null default current_timestamp,
  polls integer not null default 0,
  output_file_id text,
  error_file_id text,
  constraint provider_batches_provider_batch_id_unique unique (provider_batch_id),
  constraint provider_batches_provider_check check (provider in ('openai')),
  constraint provider_batches_state_check check (state in
    ('preparing', 'submitted', 'cancelling', 'finished')),
  constraint provider_batches_submitted_check check ((state = 'preparing') = (provider_batch_id is null)
    and (provider_batch_id is null) = (submitted_at is null)),
  constraint provider_batches_polls_check check (polls >= 0)
)
"""

PROVIDER_BATCH_JOBS = """
create table provider_batch_jobs (
  job_id uuid primary key references review_jobs (id) on delete cascade,
  provider_batch_id uuid not null references provider_batches (id) on delete cascade,
  token uuid not null
)
"""

INDEXES = {
    "provider_batches_due_idx": "on provider_batches (next_poll_at) where state <> 'finished'",
    "provider_batches_batch_idx": "on provider_batches (batch_id)",
    "provider_batch_jobs_batch_idx": "on provider_batch_jobs (provider_batch_id)",
    "review_batches_economy_idx": "on review_batches (submitted_at) where mode = 'economy'",
}


def upgrade() -> None:
    online.execute("alter table review_batches add column mode text not null default 'standard'")
    online.execute("alter table review_batches add constraint review_batches_mode_check "
                   "check (mode in ('standard', 'economy')) not valid")
    online.execute("alter table review_batches validate constraint review_batches_mode_check")
    online.execute(PROVIDER_BATCHES)
    online.execute(PROVIDER_BATCH_JOBS)
    for name, definition in INDEXES.items():
        online.create_index_concurrently(name, definition)


def downgrade() -> None:
    for name in INDEXES:
        online.drop_index_concurrently(name)
    online.execute("drop table provider_batch_jobs")
    online.execute("drop table provider_batches")
    online.execute("alter table review_batches drop column mode")
