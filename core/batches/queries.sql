-- name: insert_batch
-- Claims (owner, idempotency_key). ON CONFLICT waits for a concurrent submitter's commit,
-- so exactly one of N concurrent equivalent submissions creates the batch.
insert into review_batches (id, owner, idempotency_key, request_hash, source_name, source_format)
values (:id, :owner, :key, :request_hash, :source_name, :source_format)
on conflict on constraint review_batches_owner_key_unique do nothing
returning id

-- name: find_batch_by_key
select id, request_hash from review_batches where owner = :owner and idempotency_key = :key

-- name: copy_batch_jobs
-- All children with one COPY (no per-row round trips); every accepted job starts QUEUED.
copy review_jobs (id, owner, batch_id, item_id, item_position, request_hash, payload, status)
from stdin

-- name: batch_summary
-- Every count from one statement, so they describe one snapshot. completed_at only when
-- every child is terminal.
select b.id, b.submitted_at, b.source_name, b.source_format,
  count(j.id) as total,
  count(*) filter (where j.status = 'QUEUED') as queued,
  count(*) filter (where j.status = 'RUNNING') as running,
  count(*) filter (where j.status = 'SUCCEEDED') as succeeded,
  count(*) filter (where j.status = 'FAILED') as failed,
  case when bool_and(j.status in ('SUCCEEDED', 'FAILED')) then max(j.completed_at) end
    as completed_at
from review_batches b join review_jobs j on j.batch_id = b.id and j.owner = b.owner
where b.id = :batch_id and b.owner = :owner
group by b.id

-- name: batch_items_page
-- Keyset page by immutable position. Never selects payload, request_hash or execution_token.
-- The left join tells an unknown batch (no row) from a batch with nothing after :after.
select b.id as batch_id, j.id, j.item_id, j.item_position, j.status, j.submitted_at,
  j.started_at, j.completed_at, j.result, j.error_code, j.error_message
from review_batches b
left join lateral (
  select id, item_id, item_position, status, submitted_at, started_at, completed_at,
    result, error_code, error_message
  from review_jobs
  where batch_id = b.id and item_position > :after
  order by item_position
  limit :limit_plus_one
) j on true
where b.id = :batch_id and b.owner = :owner
order by j.item_position
