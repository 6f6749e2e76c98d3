-- name: insert_batch
-- Claims (owner, idempotency_key). ON CONFLICT waits for a concurrent submitter's commit,
-- so exactly one of N concurrent equivalent submissions creates the batch.
insert into review_batches (id, owner, idempotency_key, request_hash, source_name, source_format,
  source_columns, retry_of, name, rejected_rows, rejected_report, column_map, budget_usd, mode)
values (:id, :owner, :key, :request_hash, :source_name, :source_format,
  cast(:source_columns as text[]), :retry_of, :name, :rejected_rows,
  cast(:rejected_report as jsonb), cast(:column_map as jsonb), :budget_usd, :mode)
on conflict on constraint review_batches_owner_key_unique do nothing
returning id

-- name: find_batch_by_key
-- The batch a key names, with what a replay is compared with (its identity and its mode).
select id, request_hash, mode from review_batches where owner = :owner and idempotency_key = :key

-- name: copy_batch_jobs
-- All children with one COPY (no per-row round trips); every accepted job starts QUEUED.
copy review_jobs (id, owner, batch_id, item_id, item_position, request_hash, payload, status)
from stdin

-- name: batch_progress
-- The one definition of a batch's progress, embedded as a lateral subquery over the including
-- query's batch `b`. A complete batch (b.completed_at, written with its final counts by the
-- trigger of its last child's terminal write, migration 0009) is read as stored; only an
-- unfinished one counts its children, so the cost is bounded by the seller's unfinished
-- work, not by history. Done counts the children in a terminal status (bound as terminal,
-- from core/jobs/status.py). Status is COMPLETED once b.completed_at is set, QUEUED while
-- every child is queued, else RUNNING.
select c.*,
  case when c.completed_at is not null then 'COMPLETED' when c.queued = c.total then 'QUEUED'
    else 'RUNNING' end as status
from (
  select b.succeeded + b.failed + b.cancelled as total, 0::bigint as queued, 0::bigint as running,
    b.succeeded::bigint as succeeded, b.failed::bigint as failed,
    b.cancelled::bigint as cancelled, b.succeeded + b.failed + b.cancelled as done,
    b.completed_at
  where b.completed_at is not null
  union all
  select count(*) as total,
    count(*) filter (where j.status = 'QUEUED') as queued,
    count(*) filter (where j.status = 'RUNNING') as running,
    count(*) filter (where j.status = 'SUCCEEDED') as succeeded,
    count(*) filter (where j.status = 'FAILED') as failed,
    count(*) filter (where j.status = 'CANCELLED') as cancelled,
    count(*) filter (where j.status = any(cast(:terminal as text[]))) as done,
    null::timestamptz as completed_at
  from review_jobs j
  where j.batch_id = b.id and b.completed_at is null
  having b.completed_at is null
) c

-- name: batch_labels
-- What a batch is called, as every batch query selects it beside its progress: its name, the
-- batch it retries and that batch's name and file, the batch its chain of retries is named
-- after and how many retries down from it this one is (for "Retry 2 of <name>"; `parent` and
-- `anchor` joined by the including query through batch_ancestry), its rejected rows and mode.
b.id, b.submitted_at, b.source_name, b.source_format, b.name, b.retry_of, b.rejected_rows, b.mode,
  parent.name as parent_name, parent.source_name as parent_source_name,
  anchor.id as anchor_id, anchor.name as anchor_name, anchor.source_name as anchor_source_name,
  anchor.depth as retry_depth

-- name: batch_ancestry
-- The batch `b` retries (`parent`), and the batch its chain is named after (`anchor`): the
-- nearest batch up the retry_of links with a name, else the chain's first batch; `depth` counts
-- the links to it (1: b retries it). One primary-key probe a link; no row for a batch that is
-- no retry.
left join review_batches parent on parent.id = b.retry_of
left join lateral (
  with recursive up as (
    select a.id, a.retry_of, a.name, a.source_name, 1 as depth
    from review_batches a where a.id = b.retry_of
    union all
    select a.id, a.retry_of, a.name, a.source_name, up.depth + 1
    from up join review_batches a on a.id = up.retry_of
    where up.name is null
  )
  select up.id, up.name, up.source_name, up.depth from up order by up.depth desc limit 1
) anchor on true

-- name: batch_summary
-- One batch with its progress; every count comes from one statement, so they describe one
-- snapshot.
select {{batch_labels}}, p.*
from review_batches b
{{batch_ancestry}}
cross join lateral ({{batch_progress}}) p
where b.id = :batch_id and b.owner = :owner

-- name: recent_batches
-- One page of a seller's batches, newest first, keyset by (submitted_at, id) descending
-- (index review_batches_owner_recent_idx): the index walk stops once the page is full.
select {{batch_labels}}, p.*
from review_batches b
{{batch_ancestry}}
cross join lateral ({{batch_progress}}) p
where b.owner = :owner
  and (cast(:before_at as timestamptz) is null
    or (b.submitted_at, b.id) < (cast(:before_at as timestamptz), cast(:before_id as uuid)))
order by b.submitted_at desc, b.id desc
limit :limit_plus_one

-- name: recent_completed_batches
-- recent_batches with the COMPLETED filter: an indexed column (review_batches_owner_completed_idx),
-- so the walk reads only complete batches, each progress read as stored.
select {{batch_labels}}, p.*
from review_batches b
{{batch_ancestry}}
cross join lateral ({{batch_progress}}) p
where b.owner = :owner and b.completed_at is not null
  and (cast(:before_at as timestamptz) is null
    or (b.submitted_at, b.id) < (cast(:before_at as timestamptz), cast(:before_id as uuid)))
order by b.submitted_at desc, b.id desc
limit :limit_plus_one

-- name: recent_unfinished_batches
-- recent_batches with the QUEUED or RUNNING filter: only unfinished batches are walked
-- (review_batches_owner_unfinished_idx), so the cost is bounded by the seller's unfinished
-- work; QUEUED and RUNNING are told apart by batch_progress in this same statement.
select {{batch_labels}}, p.*
from review_batches b
{{batch_ancestry}}
cross join lateral ({{batch_progress}}) p
where b.owner = :owner and b.completed_at is null
  and (cast(:before_at as timestamptz) is null
    or (b.submitted_at, b.id) < (cast(:before_at as timestamptz), cast(:before_id as uuid)))
  and p.status = cast(:status as text)
order by b.submitted_at desc, b.id desc
limit :limit_plus_one

-- name: retry_source
-- What a retry of the complete batch :batch_id needs to know before it is written, in one row
-- (its items never leave the database: 10,000 rows built in Python cost a 30-50 ms garbage
-- collection every few retries): where the batch came from, how many of its children FAILED
-- or were CANCELLED, and their identity, the sha256 of each one's item id (prefixed by its
-- length, so no two lists read alike) and fingerprint (64 characters), in position order. The
-- caller has checked the batch is complete, so the set is final and the identity the same
-- each time it is asked (the retry's idempotency).
-- One range of review_jobs_batch_retryable_idx: reads only the rows it counts.
select b.source_name, b.source_format, b.source_columns, b.column_map, f.items, f.identity
from review_batches b
cross join lateral (
  select count(*) as items, encode(sha256(convert_to(coalesce(string_agg(
      length(j.item_id) || ':' || j.item_id || j.request_hash, '' order by j.item_position), ''),
    'UTF8')), 'hex') as identity
  from review_jobs j
  where j.batch_id = b.id and j.status in ('FAILED', 'CANCELLED')
) f
where b.id = :batch_id and b.owner = :owner

-- name: copy_retry_jobs
-- The retry batch :retry_id's jobs: the FAILED and CANCELLED children of :batch_id, snapshot
-- and fingerprint copied as stored (never decoded and encoded again), QUEUED, numbered from 1
-- in their old order; the same range of review_jobs_batch_retryable_idx as retry_source.
-- Time-ordered ids (uuidv7): 10,000 random ones landed on as many leaf pages of the primary
-- key, read, dirtied and written whole to the WAL after each checkpoint (at 1,000,000 jobs:
-- 5,500 pages read and up to 126 MB of WAL per retry, against 800 pages and 13 MB).
insert into review_jobs (id, owner, batch_id, item_id, item_position, request_hash, payload, status)
select uuidv7(), b.owner, :retry_id, j.item_id,
  row_number() over (order by j.item_position), j.request_hash, j.payload, 'QUEUED'
from review_batches b
join review_jobs j on j.batch_id = b.id and j.status in ('FAILED', 'CANCELLED')
where b.id = :batch_id and b.owner = :owner
order by j.item_position

-- name: newest_of_chain
-- The newest batch of the retry chain that starts at :batch_id (the batch itself when it was
-- never retried): each step is one probe of review_batches_retry_of_key, which also makes the
-- chain a line (one retry per batch), so the walk reads one row per link whatever the seller's
-- history. No row for unknown or foreign ids.
with recursive chain as (
  select b.id, 0 as depth from review_batches b where b.id = :batch_id and b.owner = :owner
  union all
  select r.id, chain.depth + 1
  from chain join review_batches r
    on r.retry_of = chain.id and r.retry_of is not null and r.owner = :owner
)
select id from chain order by depth desc limit 1

-- name: rejected_report
-- The rows a batch left out (submitted with "valid rows only") and their problems, as stored.
select rejected_rows, rejected_report from review_batches where id = :batch_id and owner = :owner

-- name: score_distribution
-- Quality scores of the batch's reviews in buckets of ten (100 joins the 90s), for a chart:
-- at most ten rows whatever the batch size.
select least(floor((j.result->>'qualityScore')::int / 10.0) * 10, 90)::int as bucket,
  count(*) as items
from review_batches b join review_jobs j on j.batch_id = b.id
where b.id = :batch_id and b.owner = :owner and j.status = 'SUCCEEDED'
group by bucket order by bucket

-- name: settle_finished_batches
-- Maintenance's safety net under the completion trigger (migrations 0009 and 0015): a batch
-- not complete although it has jobs and none is unfinished is completed now, by the trigger's
-- own review_batch_settle (under the batch's row lock). The trigger leaves none
-- (tests/test_batch_completion.py races it); jobs inserted already terminal would, since only
-- an UPDATE fires it. Walks the unfinished batches only (review_batches_owner_unfinished_idx),
-- each checked through review_jobs_batch_unfinished_position_idx.
select count(*) filter (where review_batch_settle(b.id)) as settled
from review_batches b
where b.completed_at is null
  and exists (select 1 from review_jobs j where j.batch_id = b.id)
  and not exists (select 1 from review_jobs j where j.batch_id = b.id and j.completed_at is null)
