"""Budgets and the per-seller cap on running calls (core/costs/budget.py, core/provider_gate/seller_share.py):
- review_batches.budget_usd: an optional budget per batch (USD, > 0);
- review_jobs_error_check: a CANCELLED job may carry one error code, BUDGET_EXCEEDED (the
  items a reached budget stopped: shown like cancelled, retried like cancelled);
- seller_turns: per seller, the tail of the line of jobs told to wait for a running slot, so
  they come back spaced out instead of all at once (like provider_rate_limits.returns_at);
- review_jobs_owner_completed_idx: one seller's finished jobs by completion, the seller's spend
  today checked at admission when LISTING_REVIEW_DAILY_BUDGET is set (not partial on
  status = 'SUCCEEDED': the planner would then scan all of it for any query on successes).

Online-safe (migrations/online.py): a nullable column without a default is instant; each
constraint is replaced NOT VALID in one statement (never a moment without it) and validated
in another, which only takes a SHARE UPDATE EXCLUSIVE lock while it scans; indexes are built
concurrently.

Revision ID: 0013_budgets
Revises: 0012_rate_limits
"""

from migrations import online

revision = "0013_budgets"
down_revision = "0012_rate_limits"

ERROR_CHECK = """
check (case status when 'FAILED' then error_code is not null
  when 'CANCELLED' then error_code is null or error_code = 'BUDGET_EXCEEDED'
  else error_code is null end)
"""

TURNS = """
create table seller_turns (
  owner varchar(128) primary key,
  returns_at timestamptz not null,
  constraint seller_turns_owner_check check (length(btrim(owner)) > 0)
)
"""

INDEXES = {
    "review_jobs_owner_completed_idx":
        "on review_jobs (owner, completed_at) where completed_at is not null",
}


def upgrade() -> None:
    online.execute("alter table review_batches add column budget_usd numeric(12, 4)")
    online.execute("alter table review_batches add constraint review_batches_budget_check "
                   "check (budget_usd > 0) not valid")
    online.execute("alter table review_batches validate constraint review_batches_budget_check")
    online.execute("alter table review_jobs drop constraint review_jobs_error_check, "
                   f"add constraint review_jobs_error_check {ERROR_CHECK} not valid")
    online.execute("alter table review_jobs validate constraint review_jobs_error_check")
    online.execute(TURNS)
    for name, definition in INDEXES.items():
        online.create_index_concurrently(name, definition)


def downgrade() -> None:
    for name in INDEXES:
        online.drop_index_concurrently(name)
    online.execute("drop table seller_turns")
    online.execute("update review_jobs set error_code = null, error_message = null "
                   "where error_code = 'BUDGET_EXCEEDED'")
    online.execute("alter table review_jobs drop constraint review_jobs_error_check, "
                   "add constraint review_jobs_error_check "
                   "check ((status = 'FAILED') = (error_code is not null)) not valid")
    online.execute("alter table review_jobs validate constraint review_jobs_error_check")
    online.execute("alter table review_batches drop column budget_usd")
