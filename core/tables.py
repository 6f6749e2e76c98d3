"""The tables this code reads and writes, declared as SQLModel table models.

The migrations in `migrations/` create the schema; these models say what the code expects of
it, column by column, and tests/test_schema_drift.py fails when a migrated database and the
models disagree (a column added, dropped, retyped or made nullable on one side only).
Constraints that carry invariants (CHECK, UNIQUE, FK) live in the migrations and are tested by
breaking them (tests/test_schema_invariants.py).
"""

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlmodel import Field, SQLModel

_MOMENT = sa.DateTime(timezone=True)
_OWNER = sa.String(128)
_HASH = sa.CHAR(64)


class ReviewBatch(SQLModel, table=True):
    """A seller's batch; its progress is derived from its jobs (no counters here)."""

    __tablename__ = "review_batches"

    id: uuid.UUID = Field(primary_key=True)
    idempotency_key: str = Field(sa_type=sa.String(128))
    request_hash: str = Field(sa_type=_HASH)
    submitted_at: datetime = Field(sa_type=_MOMENT)
    owner: str = Field(sa_type=_OWNER)
    source_name: str | None = Field(default=None, sa_type=sa.String(255))
    source_format: str | None = Field(default=None, sa_type=sa.String(8))
    retry_of: uuid.UUID | None = None
    source_columns: list[str] | None = Field(default=None, sa_type=postgresql.ARRAY(sa.Text))
    # Written by the trigger of the last child's terminal write (migration 0009), all or none.
    completed_at: datetime | None = Field(default=None, sa_type=_MOMENT)
    succeeded: int | None = None
    failed: int | None = None
    cancelled: int | None = None
    name: str | None = Field(default=None, sa_type=sa.String(120))
    rejected_rows: int = 0
    rejected_report: list[dict[str, Any]] | None = Field(default=None, sa_type=postgresql.JSONB)
    column_map: dict[str, str] | None = Field(default=None, sa_type=postgresql.JSONB)
    # The batch's budget in USD (migration 0013; core/budgets/spending.py); None: no budget.
    budget_usd: Decimal | None = Field(default=None, sa_type=sa.Numeric(12, 4))
    # 'standard' or 'economy' (migration 0014; core/economy): how its jobs reach the provider.
    mode: str = Field(default="standard", sa_type=sa.Text)


class ReviewJob(SQLModel, table=True):
    """One listing review: standalone (idempotency_key) or a batch member (batch_id, item_id)."""

    __tablename__ = "review_jobs"

    id: uuid.UUID = Field(primary_key=True)
    idempotency_key: str | None = Field(default=None, sa_type=sa.String(128))
    request_hash: str = Field(sa_type=_HASH)
    payload: dict[str, Any] = Field(sa_type=postgresql.JSONB)
    status: str = Field(sa_type=sa.String(16))
    submitted_at: datetime = Field(sa_type=_MOMENT)
    started_at: datetime | None = Field(default=None, sa_type=_MOMENT)
    completed_at: datetime | None = Field(default=None, sa_type=_MOMENT)
    attempts: int
    execution_token: uuid.UUID | None = None
    result: dict[str, Any] | None = Field(default=None, sa_type=postgresql.JSONB)
    error_code: str | None = Field(default=None, sa_type=sa.String(64))
    error_message: str | None = Field(default=None, sa_type=sa.String(256))
    batch_id: uuid.UUID | None = None
    item_id: str | None = Field(default=None, sa_type=sa.String(128))
    item_position: int | None = None
    owner: str = Field(sa_type=_OWNER)
    heartbeat_at: datetime | None = Field(default=None, sa_type=_MOMENT)


class ReviewJobCount(SQLModel, table=True):
    """Jobs per status in one shard, kept exact by triggers on review_jobs (the sum over shards
    is the count): the operations page reads these instead of counting the jobs table."""

    __tablename__ = "review_job_counts"

    status: str = Field(primary_key=True, sa_type=sa.String(16))
    shard: int = Field(primary_key=True, sa_type=sa.SmallInteger)
    count: int = Field(sa_type=sa.BigInteger)


class ApiKey(SQLModel, table=True):
    """An API key of a seller; only the key's SHA-256 is stored."""

    __tablename__ = "api_keys"

    id: uuid.UUID = Field(primary_key=True)
    owner: str = Field(sa_type=_OWNER)
    key_hash: str = Field(sa_type=_HASH)
    created_at: datetime = Field(sa_type=_MOMENT)
    revoked_at: datetime | None = Field(default=None, sa_type=_MOMENT)


class WorkerProcess(SQLModel, table=True):
    """A worker process's heartbeat, for the operations page."""

    __tablename__ = "worker_processes"

    id: uuid.UUID = Field(primary_key=True)
    hostname: str = Field(sa_type=sa.Text)
    pid: int
    started_at: datetime = Field(sa_type=_MOMENT)
    heartbeat_at: datetime = Field(sa_type=_MOMENT)


class RecoveryEvent(SQLModel, table=True):
    """How many stale jobs or orphan messages one recovery pass put right."""

    __tablename__ = "recovery_events"

    id: int = Field(primary_key=True, sa_type=sa.BigInteger)
    kind: str = Field(sa_type=sa.Text)
    count: int
    recorded_at: datetime = Field(sa_type=_MOMENT)


class Seller(SQLModel, table=True):
    """A person who signed in; seller_id (from issuer + subject) is the owner of their work."""

    __tablename__ = "sellers"

    seller_id: str = Field(primary_key=True, sa_type=_OWNER)
    issuer: str = Field(sa_type=sa.Text)
    subject: str = Field(sa_type=sa.Text)
    email: str | None = Field(default=None, sa_type=sa.Text)
    display_name: str | None = Field(default=None, sa_type=sa.Text)
    created_at: datetime = Field(sa_type=_MOMENT)
    last_seen_at: datetime = Field(sa_type=_MOMENT)


class OperatorAction(SQLModel, table=True):
    """An operator's cancel or retry on another seller's batch, shown on the batch page."""

    __tablename__ = "operator_actions"

    id: int = Field(primary_key=True, sa_type=sa.BigInteger)
    actor: str = Field(sa_type=_OWNER)
    action: str = Field(sa_type=sa.Text)
    batch_id: uuid.UUID
    batch_owner: str = Field(sa_type=_OWNER)
    at: datetime = Field(sa_type=_MOMENT)


class Webhook(SQLModel, table=True):
    """A seller's completion webhook (one per seller); the secret signs deliveries."""

    __tablename__ = "webhooks"

    owner: str = Field(primary_key=True, sa_type=_OWNER)
    url: str = Field(sa_type=sa.Text)
    secret: str = Field(sa_type=sa.String(80))
    created_at: datetime = Field(sa_type=_MOMENT)
    active: bool


class WebhookDelivery(SQLModel, table=True):
    """The outbox: one delivery per batch completion, written by the completing transaction."""

    __tablename__ = "webhook_deliveries"

    id: uuid.UUID = Field(primary_key=True)
    owner: str = Field(sa_type=_OWNER)
    batch_id: uuid.UUID
    payload: dict[str, Any] = Field(sa_type=postgresql.JSONB)
    status: str = Field(sa_type=sa.String(16))
    attempts: int
    next_attempt_at: datetime = Field(sa_type=_MOMENT)
    last_status_code: int | None = None
    last_error: str | None = Field(default=None, sa_type=sa.String(32))
    created_at: datetime = Field(sa_type=_MOMENT)
    delivered_at: datetime | None = Field(default=None, sa_type=_MOMENT)


class ProviderRateLimit(SQLModel, table=True):
    """A provider+model's shared rate-limit bucket (core/provider_gate/rate_limits.py)."""

    __tablename__ = "provider_rate_limits"

    provider: str = Field(primary_key=True, sa_type=sa.Text)
    model: str = Field(primary_key=True, sa_type=sa.Text)
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    requests_free_at: datetime = Field(sa_type=_MOMENT)
    tokens_free_at: datetime = Field(sa_type=_MOMENT)
    returns_at: datetime = Field(sa_type=_MOMENT)
    updated_at: datetime = Field(sa_type=_MOMENT)


class ProviderCallCount(SQLModel, table=True):
    """Calls and 429s per provider+model per minute, in 16 shards (operations page)."""

    __tablename__ = "provider_call_counts"

    provider: str = Field(primary_key=True, sa_type=sa.Text)
    model: str = Field(primary_key=True, sa_type=sa.Text)
    minute: datetime = Field(primary_key=True, sa_type=_MOMENT)
    shard: int = Field(primary_key=True, sa_type=sa.SmallInteger)
    calls: int
    rate_limited: int
    tokens: int = Field(sa_type=sa.BigInteger)


class SellerTurn(SQLModel, table=True):
    """The tail of one seller's line of jobs waiting for a running slot (core/provider_gate/
    seller_share.py)."""

    __tablename__ = "seller_turns"

    owner: str = Field(primary_key=True, sa_type=_OWNER)
    returns_at: datetime = Field(sa_type=_MOMENT)


class ProviderBatch(SQLModel, table=True):
    """One provider batch of an economy batch's jobs (core/economy): an intent until the
    provider accepted it, then polled until its results are written; or 'refused' when the
    provider refused its create too often (its jobs went back to standard mode)."""

    __tablename__ = "provider_batches"

    id: uuid.UUID = Field(primary_key=True)
    batch_id: uuid.UUID
    provider: str = Field(sa_type=sa.Text)
    provider_batch_id: str | None = Field(default=None, sa_type=sa.Text)
    input_file_id: str | None = Field(default=None, sa_type=sa.Text)
    state: str = Field(sa_type=sa.Text)
    created_at: datetime = Field(sa_type=_MOMENT)
    submitted_at: datetime | None = Field(default=None, sa_type=_MOMENT)
    expected_by: datetime | None = Field(default=None, sa_type=_MOMENT)
    polled_at: datetime | None = Field(default=None, sa_type=_MOMENT)
    next_poll_at: datetime = Field(sa_type=_MOMENT)
    polls: int = 0
    output_file_id: str | None = Field(default=None, sa_type=sa.Text)
    error_file_id: str | None = Field(default=None, sa_type=sa.Text)
    create_refusals: int = 0


class ProviderBatchJob(SQLModel, table=True):
    """A job carried by a provider batch, with the execution token its result is fenced by."""

    __tablename__ = "provider_batch_jobs"

    job_id: uuid.UUID = Field(primary_key=True)
    provider_batch_id: uuid.UUID
    token: uuid.UUID
