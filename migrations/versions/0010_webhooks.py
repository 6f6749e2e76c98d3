"""Completion webhooks: one registered URL per seller, and an outbox of deliveries written by
PostgreSQL in the transaction that completes a batch (so no completion is missed, and none is
announced before it is true). Workers deliver the outbox at least once (core/webhooks).

Revision ID: 0010_webhooks
Revises: 0009_history_at_scale
"""

from migrations import online

revision = "0010_webhooks"
down_revision = "0009_history_at_scale"

TABLES = r"""
-- One endpoint per seller (the primary key). The secret signs every delivery, so it is kept
-- (unlike API keys, which are only hashed); it is shown to the seller once, at registration.
-- Only https, or plain http to this machine (a local receiver), and printable ASCII only.
create table webhooks (
  owner varchar(128) primary key,
  url text not null,
  secret varchar(80) not null,
  created_at timestamptz not null default now(),
  active boolean not null default true,
  constraint webhooks_url_check check (length(url) <= 2000 and url ~
    '^(https://[A-Za-z0-9.-]+|http://(localhost|127\.0\.0\.1))(:[0-9]{1,5})?(/[!-~]*)?$'),
  constraint webhooks_secret_check check (length(secret) >= 32)
);

-- The outbox: one delivery per batch completion (unique batch_id), deleted with its batch.
-- The id is the delivery id receivers de-duplicate by; last_error is a bounded code, never
-- text from the receiver.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  owner varchar(128) not null,
  batch_id uuid not null,
  payload jsonb not null,
  status varchar(16) not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_status_code integer,
  last_error varchar(32),
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  constraint webhook_deliveries_batch_key unique (batch_id),
  constraint webhook_deliveries_batch_fkey foreign key (batch_id, owner)
    references review_batches (id, owner) on delete cascade,
  constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed')),
  constraint webhook_deliveries_delivered_check check ((status = 'delivered') = (delivered_at is not null)),
  constraint webhook_deliveries_attempts_check check (attempts >= 0),
  constraint webhook_deliveries_error_check check (last_error ~ '^[A-Z_]{1,32}$'),
  constraint webhook_deliveries_status_code_check check (last_status_code between 100 and 599)
);

-- The workers' claim: due pending deliveries, soonest first.
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
  where status = 'pending';
"""

ENQUEUE = """
-- When a batch's completion is written (by its last job's statement, migration 0009), the
-- delivery is written by the same transaction, if the seller has an active webhook. The
-- payload is the API's batch summary (core/batches/progress.py), as of that moment.
create function webhook_deliveries_enqueue() returns trigger language plpgsql as $$
begin
  insert into webhook_deliveries (owner, batch_id, payload)
  select new.owner, new.id, jsonb_build_object(
    'batchId', new.id,
    'submittedAt', to_char(new.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
    'completedAt', to_char(new.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
    'status', 'COMPLETED',
    'total', (select count(*) from review_jobs where batch_id = new.id),
    'queued', 0, 'running', 0,
    'succeeded', new.succeeded, 'failed', new.failed, 'cancelled', new.cancelled,
    'sourceName', new.source_name,
    'itemsUrl', '/api/listings/review-batches/' || new.id || '/items')
  from webhooks where owner = new.owner and active;
  return null;
end $$;

create trigger review_batches_webhook after update of completed_at on review_batches
  for each row when (old.completed_at is null and new.completed_at is not null)
  execute function webhook_deliveries_enqueue();
"""


def upgrade() -> None:
    online.execute(TABLES)
    online.execute(ENQUEUE)


def downgrade() -> None:
    online.execute("""
drop trigger review_batches_webhook on review_batches;
drop function webhook_deliveries_enqueue;
drop table webhook_deliveries, webhooks
""")
