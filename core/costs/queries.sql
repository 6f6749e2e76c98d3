-- name: usage_columns
-- The stored usage of a group of succeeded jobs `j` (the select list every ledger query shares):
-- items, the items whose provider reported both token counts, the token sums, and the group's
-- last completion (the moment its prices are looked up for). Failed and cancelled jobs store no
-- result, so they carry no usage. A sum of bigints is numeric: cast back to a count.
j.result->>'provider' as provider, j.result->>'model' as model, count(*) as items,
  count(*) filter (where j.result->'usage'->>'inputTokens' is not null
    and j.result->'usage'->>'outputTokens' is not null) as reported,
  cast(coalesce(sum(cast(j.result->'usage'->>'inputTokens' as bigint)), 0) as bigint)
    as input_tokens,
  cast(coalesce(sum(cast(j.result->'usage'->>'outputTokens' as bigint)), 0) as bigint)
    as output_tokens,
  max(j.completed_at) as last_at

-- name: batches_usage
-- Usage per batch, provider and model for a list of batches (one batch's page, or the Batches
-- list's page at once). Each batch's jobs are one range of review_jobs_batch_position_unique
-- (batch_id, item_position). :owner null means the caller already listed these batches for
-- its viewer (an operator's list of every seller); otherwise only that seller's jobs count.
select j.batch_id, {{usage_columns}}
from review_jobs j
where j.batch_id = any(cast(:batch_ids as uuid[])) and j.status = 'SUCCEEDED'
  and (cast(:owner as text) is null or j.owner = cast(:owner as text))
group by j.batch_id, 2, 3
order by j.batch_id, 2, 3

-- name: daily_usage
-- Usage per seller, UTC day, provider and model of the jobs completed in [:since, :until),
-- optionally of one seller: a range of review_jobs_completed_idx (completed_at), or for one
-- seller of review_jobs_owner_completed_idx (owner, completed_at; migration 0013).
select j.owner, cast(timezone('UTC', j.completed_at) as date) as day, {{usage_columns}}
from review_jobs j
where j.completed_at >= :since and j.completed_at < :until and j.status = 'SUCCEEDED'
  and (cast(:owner as text) is null or j.owner = cast(:owner as text))
group by j.owner, 2, 3, 4
order by j.owner, 2, 3, 4

-- name: job_budgets
-- What admission checks before claiming a QUEUED job (core/costs/budget.py): its seller, its
-- batch and the batch's budget. Nothing for a job that is not QUEUED (the claim decides).
select j.owner, j.batch_id, b.budget_usd
from review_jobs j
left join review_batches b on b.id = j.batch_id
where j.id = :id and j.status = 'QUEUED'

-- name: batch_spend_usage
-- One batch's usage so far, per provider and model: a range of
-- review_jobs_batch_position_unique (batch_id, item_position) filtered to its successes.
select {{usage_columns}}
from review_jobs j
where j.batch_id = :batch_id and j.status = 'SUCCEEDED'
group by 1, 2

-- name: seller_day_usage
-- One seller's usage since :since (UTC midnight), per provider and model: a range of
-- review_jobs_owner_completed_idx (owner, completed_at), filtered to its successes.
select {{usage_columns}}
from review_jobs j
where j.owner = :owner and j.completed_at >= :since and j.status = 'SUCCEEDED'
group by 1, 2

-- name: stop_over_budget
-- A reached budget ends a QUEUED job unclaimed: CANCELLED with the code BUDGET_EXCEEDED (the
-- one code a cancelled job may carry, migration 0013), retried like any cancelled item.
update review_jobs set status = 'CANCELLED', completed_at = current_timestamp,
  error_code = 'BUDGET_EXCEEDED', error_message = :message
where id = :id and status = 'QUEUED'
returning id

-- name: batch_budget
-- One batch's budget (primary key, checked against the owner).
select budget_usd from review_batches where id = :batch_id and owner = :owner
