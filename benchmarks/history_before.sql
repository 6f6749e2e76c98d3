-- The definitions before migration 0009 (commit 3fe4959), timed by benchmarks/history.py on the same database
-- as the baseline of each rewrite. Not used by the product.

-- name: batch_progress
-- Recounted every child of every batch it was embedded over.
select c.*,
  case when c.queued = c.total then 'QUEUED' when c.done = c.total then 'COMPLETED'
    else 'RUNNING' end as status
from (
  select count(*) as total,
    count(*) filter (where j.status = 'QUEUED') as queued,
    count(*) filter (where j.status = 'RUNNING') as running,
    count(*) filter (where j.status = 'SUCCEEDED') as succeeded,
    count(*) filter (where j.status = 'FAILED') as failed,
    count(*) filter (where j.status = 'CANCELLED') as cancelled,
    count(*) filter (where j.status = any(cast(:terminal as text[]))) as done,
    case when bool_and(j.status = any(cast(:terminal as text[]))) then max(j.completed_at) end
      as completed_at
  from review_jobs j
  where j.batch_id = b.id and j.owner = b.owner
) c

-- name: recent_batches
select b.id, b.submitted_at, b.source_name, b.source_format, p.*
from review_batches b
cross join lateral ({{batch_progress}}) p
where b.owner = :owner
  and (cast(:before_at as timestamptz) is null
    or (b.submitted_at, b.id) < (cast(:before_at as timestamptz), cast(:before_id as uuid)))
  and (cast(:status as text) is null or p.status = cast(:status as text))
order by b.submitted_at desc, b.id desc
limit :limit_plus_one

-- name: batch_summary
select b.id, b.submitted_at, b.source_name, b.source_format, p.*
from review_batches b
cross join lateral ({{batch_progress}}) p
where b.id = :batch_id and b.owner = :owner

-- name: failed_items
-- As at commit 3fe4959 (the correlated exists the issue measured was already gone).
select b.source_name, b.source_format, b.source_columns, j.item_id, j.payload::text as payload
from review_batches b
join review_jobs j on j.batch_id = b.id and j.owner = b.owner
  and j.status in ('FAILED', 'CANCELLED')
where b.id = :batch_id and b.owner = :owner
order by j.item_position

-- name: jobs_by_status
select status, count(*) as count from review_jobs group by status
