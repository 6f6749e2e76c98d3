"""Sellers who sign in (issuer + subject -> a stable seller id, the owner on their batches, jobs
and API keys), the operators' audit of cancels and retries on a seller's batch, and the index
behind the operator's list of every seller's batches.

Revision ID: 0008_sellers_and_audit
Revises: 0007_provider_gates
"""

from alembic import op

revision = "0008_sellers_and_audit"
down_revision = "0007_provider_gates"

UPGRADE = """
-- One row per person who signed in. seller_id is derived from (issuer, subject) by
-- core/identity (the e-mail and name can change at the provider; issuer + subject cannot),
-- and is what review_batches.owner, review_jobs.owner and api_keys.owner hold.
create table sellers (
  seller_id varchar(128) primary key,
  issuer text not null,
  subject text not null,
  email text,
  display_name text,
  created_at timestamptz not null default current_timestamp,
  last_seen_at timestamptz not null default current_timestamp,
  constraint sellers_issuer_subject_unique unique (issuer, subject),
  constraint sellers_id_check check (seller_id ~ '^oidc-[0-9a-f]{32}$'),
  constraint sellers_issuer_check check (length(issuer) between 1 and 2000),
  constraint sellers_subject_check check (length(subject) between 1 and 255),
  constraint sellers_email_check check (email is null or length(email) between 3 and 320),
  constraint sellers_name_check check (display_name is null or length(display_name) between 1 and 200),
  constraint sellers_seen_check check (last_seen_at >= created_at)
);

-- An operator's cancel or retry on a batch of another seller: who, what, which batch, when.
-- The batch's owner is part of the key, so the row can only name a batch as it really is.
create table operator_actions (
  id bigint generated always as identity primary key,
  actor varchar(128) not null,
  action text not null,
  batch_id uuid not null,
  batch_owner varchar(128) not null,
  at timestamptz not null default current_timestamp,
  constraint operator_actions_batch_fkey
    foreign key (batch_id, batch_owner) references review_batches (id, owner) on delete cascade,
  constraint operator_actions_actor_check check (length(btrim(actor)) > 0),
  constraint operator_actions_action_check check (action in ('cancel', 'retry')),
  constraint operator_actions_other_seller_check check (actor <> batch_owner)
);
-- The batch page lists its audit rows, newest first.
create index operator_actions_batch_idx on operator_actions (batch_id, at desc, id desc);

-- The operator's list of every seller's batches, newest first, in keyset pages.
create index review_batches_recent_idx on review_batches (submitted_at desc, id desc);

-- A seller's own API keys page.
create index api_keys_owner_idx on api_keys (owner, created_at, id);
"""


def upgrade() -> None:
    op.execute(UPGRADE)
