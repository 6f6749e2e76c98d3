-- Reading a batch for its downloads (core/batches/export.py). Every block runs inside one
-- REPEATABLE READ transaction per download, so the header pass and the chunks describe one
-- moment. The owner is checked on the batch row (its key) in every block, so each read is one
-- range of the batch's items, never combined with the seller's whole owner index.

-- name: batch_source
-- Where a batch came from and what it is called; no row for unknown or foreign ids.
-- source_columns is the CSV header as it was read (after the column mapping), column_map the
-- mapping itself (null when the seller mapped nothing).
select id, owner, name, source_name, source_format, source_columns, column_map
from review_batches where id = :batch_id and owner = :owner

-- name: needs_fixing
-- A condition embedded below, not a query: a reviewed item whose verdict is Needs work (score
-- below :good_from, always bound to core/batches/verdicts.py GOOD_SCORE_FROM) or Needs human
-- review, the rule verdicts.verdict_of applies in Python. Failed items are never in it: every
-- stored error code is the platform's side (core/listings/errors.py), retried, not fixed.
(j.status = 'SUCCEEDED' and ((j.result->>'requiresHumanReview')::boolean
  or (j.result->>'qualityScore')::integer < :good_from))

-- name: export_chunk
-- The next :limit items after position :after (with :fixup_only, only the items the fix-up
-- file holds), with the snapshot as typed and the outcome. Callers page through a whole batch
-- in chunks: one range of review_jobs_batch_position_unique per chunk.
select j.item_id, j.item_position, j.status, j.payload::text as payload, j.result, j.error_code,
  j.error_message
from review_batches b
join review_jobs j on j.batch_id = b.id and j.item_position > :after
where b.id = :batch_id and b.owner = :owner and (not :fixup_only or {{needs_fixing}})
order by j.item_position
limit :limit

-- name: attribute_names
-- The attribute names of the batch's listings (with :fixup_only, of the fix-up file's only), in
-- order of first appearance (position, then place in the stored listing), at most :limit. The
-- cheap first pass that fixes a CSV header before any row is streamed: reads the batch's items
-- once and returns names only, so neither its cost nor its answer grows with the history.
select k.name
from review_batches b
join review_jobs j on j.batch_id = b.id
cross join lateral jsonb_object_keys(j.payload->'attributes') with ordinality as k(name, place)
where b.id = :batch_id and b.owner = :owner and (not :fixup_only or {{needs_fixing}})
group by k.name
order by min(array[j.item_position::bigint, k.place]), k.name
limit :limit

-- name: fixup_count
-- How many items the fix-up file holds (a page says "nothing to fix" without building it).
-- One range of the batch's items; no row for unknown or foreign ids.
select count(j.id) as items
from review_batches b
left join review_jobs j on j.batch_id = b.id and {{needs_fixing}}
where b.id = :batch_id and b.owner = :owner
group by b.id
