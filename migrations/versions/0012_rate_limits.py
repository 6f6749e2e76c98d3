"""Shared rate limits per provider+model: one bucket row per provider+model that every worker
process on every host reserves call slots from (core/provider_gate/rate_limits.py), and the
per-minute call counts the operations page shows against the limit.

Online-safe (migrations/online.py): two new tables (no existing table is rewritten or locked
beyond the instant of creation), indexes built concurrently.

Revision ID: 0012_rate_limits
Revises: 0011_batch_workflow
"""

from migrations import online

revision = "0012_rate_limits"
down_revision = "0011_batch_workflow"

BUCKETS = """
-- A GCRA bucket per provider+model (the limits as the workers last configured them).
-- requests_free_at / tokens_free_at: the "theoretical arrival time" of each limit; a call may
-- start once both, less the burst allowance, have passed, and pushes them on by its share of
-- a minute. returns_at: the tail of the line of jobs told to come back later, so they come
-- back one call-period apart instead of all at once.
create table provider_rate_limits (
  provider text not null,
  model text not null,
  requests_per_minute integer,
  tokens_per_minute integer,
  requests_free_at timestamptz not null default current_timestamp,
  tokens_free_at timestamptz not null default current_timestamp,
  returns_at timestamptz not null default current_timestamp,
  updated_at timestamptz not null default current_timestamp,
  primary key (provider, model),
  constraint provider_rate_limits_names_check
    check (length(provider) between 1 and 100 and length(model) between 1 and 200),
  constraint provider_rate_limits_some_limit_check
    check (requests_per_minute is not null or tokens_per_minute is not null),
  constraint provider_rate_limits_requests_check
    check (requests_per_minute between 1 and 1000000),
  constraint provider_rate_limits_tokens_check
    check (tokens_per_minute between 1 and 1000000000)
)
"""

COUNTS = """
-- Provider calls per minute (answered or failed) and how many of them the provider refused
-- with 429, in 16 shards by backend pid so concurrent writers rarely share a row.
create table provider_call_counts (
  provider text not null,
  model text not null,
  minute timestamptz not null,
  shard smallint not null,
  calls integer not null,
  rate_limited integer not null,
  tokens bigint not null,
  primary key (provider, model, minute, shard),
  constraint provider_call_counts_names_check
    check (length(provider) between 1 and 100 and length(model) between 1 and 200),
  constraint provider_call_counts_minute_check check (mod(extract(epoch from minute), 60) = 0),
  constraint provider_call_counts_shard_check check (shard between 0 and 15),
  constraint provider_call_counts_calls_check check (calls >= 1),
  constraint provider_call_counts_rate_limited_check check (rate_limited between 0 and calls),
  constraint provider_call_counts_tokens_check check (tokens >= 0)
)
"""

# The last hour's counts for the operations page, and pruning a day back.
INDEXES = {"provider_call_counts_minute_idx": "on provider_call_counts (minute)"}


def upgrade() -> None:
    online.execute(BUCKETS)
    online.execute(COUNTS)
    for name, definition in INDEXES.items():
        online.create_index_concurrently(name, definition)


def downgrade() -> None:
    online.execute("drop table provider_call_counts")
    online.execute("drop table provider_rate_limits")
