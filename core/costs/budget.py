"""Budgets, checked when a job is admitted (core/jobs/execution.py), before it is claimed: a
batch's own budget (review_batches.budget_usd, set at submit) and its seller's budget per UTC
day (LISTING_REVIEW_DAILY_BUDGET). Once what was spent reaches either, the job ends unclaimed
as CANCELLED with the code BUDGET_EXCEEDED; a retry of the batch (with a raised budget, or
the next day) reviews it.

Spend is read from the ledger (the stored usage of successes, priced when read, ledger.py), so
a call still in flight is not counted yet: overspend is at most the calls already admitted
when the budget was reached, each at most one call's cost. An unknown cost (an unpriced
model) counts as reached: a budget is never passed silently.

Functions take the caller's connection and never commit.
"""

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, time
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlalchemy import Connection, Engine

from core.costs.ledger import QUERIES, UsageGroup, cost_of
from core.errors import InvalidBatchRequest, storage_errors
from core.listings.errors import SAFE_MESSAGES

BUDGET_EXCEEDED = "BUDGET_EXCEEDED"
# review_batches.budget_usd is numeric(12, 4) with check budget_usd > 0 (migration 0013).
BUDGET_MAX = Decimal(1_000_000)
BUDGET_PLACES = Decimal("0.0001")
BudgetInput = Decimal | int | float | str | None


def checked_budget(value: BudgetInput) -> Decimal | None:
    """The one rule for a batch's budget: none (None or blank), or US dollars above 0 and at
    most BUDGET_MAX, kept to a hundredth of a cent. InvalidBatchRequest otherwise (checked
    before anything is stored)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        amount = Decimal(value.strip() if isinstance(value, str) else str(value))
    except InvalidOperation:
        amount = Decimal("NaN")
    if isinstance(value, bool) or not amount.is_finite() or not 0 < amount <= BUDGET_MAX:
        raise InvalidBatchRequest(f"The budget must be an amount of US dollars above 0 and at most "
                                  f"{BUDGET_MAX:,}, such as 2.50.")
    return max(amount.quantize(BUDGET_PLACES), BUDGET_PLACES)


def batch_budget(engine: Engine, owner: str, batch_id: uuid.UUID) -> Decimal | None:
    """A batch's budget for the batch page, the API and the CLI (None: none, or not `owner`'s)."""
    with storage_errors(), engine.connect() as connection:
        return budget_of(connection, owner, batch_id)


def budget_of(connection: Connection, owner: str, batch_id: uuid.UUID) -> Decimal | None:
    """A batch's budget (None: none, or no such batch of `owner`)."""
    return connection.execute(QUERIES["batch_budget"], {"owner": owner, "batch_id": batch_id}).scalar()


@dataclass(frozen=True)
class JobBudgets:
    """A QUEUED job's seller and batch, and the batch's budget (None: none)."""

    owner: str
    batch_id: uuid.UUID | None
    budget_usd: Decimal | None


def read_job_budgets(connection: Connection, job_id: uuid.UUID) -> JobBudgets | None:
    """The budgets a job runs under; None when it is not QUEUED (the claim decides those)."""
    row = connection.execute(QUERIES["job_budgets"], {"id": job_id}).first()
    return None if row is None else JobBudgets(row.owner, row.batch_id, row.budget_usd)


def budget_reached(connection: Connection, job: JobBudgets, daily_budget: float,
                   prices_file: Path | None) -> bool:
    """True when the job's batch or its seller's day has spent its budget (or cannot say)."""
    if job.batch_id is not None and job.budget_usd is not None:
        spent = _spent(connection, "batch_spend_usage", {"batch_id": job.batch_id}, prices_file)
        if spent is None or spent >= job.budget_usd:
            return True
    if daily_budget > 0:
        spent = _spent(connection, "seller_day_usage", {"owner": job.owner, "since": _today()}, prices_file)
        return spent is None or spent >= Decimal(str(daily_budget))
    return False


def stop_over_budget(connection: Connection, job_id: uuid.UUID) -> bool:
    """End a QUEUED job as BUDGET_EXCEEDED; False when it was no longer QUEUED."""
    params = {"id": job_id, "message": SAFE_MESSAGES[BUDGET_EXCEEDED]}
    return connection.execute(QUERIES["stop_over_budget"], params).first() is not None


def _spent(connection: Connection, query: str, params: dict[str, object],
           prices_file: Path | None) -> Decimal | None:
    rows = connection.execute(QUERIES[query], params)
    groups = [UsageGroup(row.provider, row.model, row.items, row.reported, row.input_tokens,
                         row.output_tokens, row.last_at) for row in rows]
    return cost_of(groups, prices_file).amount_usd


def _today() -> datetime:
    """The current UTC day's midnight."""
    return datetime.combine(datetime.now(UTC).date(), time(), tzinfo=UTC)
