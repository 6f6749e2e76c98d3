"""The provider gate: one circuit breaker per provider+model shared by every worker process
on every host, and the jobs waiting (QUEUED, no message, no attempt spent) for it to close.

Revision ID: 0007_provider_gates
Revises: 0006_batch_operations
"""

from alembic import op

revision = "0007_provider_gates"
down_revision = "0006_batch_operations"

UPGRADE = """
-- closed: calls go ahead; `failures` counts consecutive provider failures since the last
-- answer. open: no claims until `next_probe_at`. half_open: one probe (`probe_job_id`) is
-- in flight; `next_probe_at` is its lease, after which another job may probe.
create table provider_gates (
  provider text not null,
  model text not null,
  state text not null default 'closed',
  failures integer not null default 0,
  reason text,
  opened_at timestamptz,
  next_probe_at timestamptz,
  probe_job_id uuid,
  updated_at timestamptz not null default current_timestamp,
  primary key (provider, model),
  constraint provider_gates_names_check
    check (length(provider) between 1 and 100 and length(model) between 1 and 200),
  constraint provider_gates_state_check check (state in ('closed', 'open', 'half_open')),
  constraint provider_gates_failures_check check (failures >= 0),
  constraint provider_gates_reason_check check (reason in ('unavailable', 'rate_limited')),
  constraint provider_gates_open_reason_check check ((state = 'closed') = (reason is null)),
  constraint provider_gates_opened_check check ((state = 'closed') = (opened_at is null)),
  constraint provider_gates_next_probe_check check ((state = 'closed') = (next_probe_at is null)),
  constraint provider_gates_probe_check check ((state = 'half_open') = (probe_job_id is not null))
);

-- Jobs that found their gate shut: they stay QUEUED with no message until the gate closes
-- (all of them are sent then) or a probe is due (one is sent). A job deleted by retention
-- takes its row along; a gate cannot be deleted while jobs wait for it.
create table provider_gate_waits (
  job_id uuid primary key references review_jobs (id) on delete cascade,
  provider text not null,
  model text not null,
  parked_at timestamptz not null default current_timestamp,
  constraint provider_gate_waits_gate_fkey
    foreign key (provider, model) references provider_gates (provider, model)
);
create index provider_gate_waits_gate_idx on provider_gate_waits (provider, model, parked_at);
"""


def upgrade() -> None:
    op.execute(UPGRADE)
