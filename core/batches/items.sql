-- name: item_class
-- Where one item stands for the seller, over the including query's job `j`: its verdict once
-- reviewed, else its job state in lower case (queued, running, failed, cancelled). The verdict
-- rule is core/batches/verdicts.py's verdict_of; its cut-off is bound as :good_from
-- (GOOD_SCORE_FROM), never written here. A view (filter tab) is a set of classes
-- (core/batches/pages.py VIEW_CLASSES), so tabs and their counts share this one definition.
case when j.status <> 'SUCCEEDED' then lower(j.status)
  when coalesce((j.result->>'requiresHumanReview')::boolean, false) then 'needs_human_review'
  when (j.result->>'qualityScore')::integer < :good_from then 'needs_work'
  else 'good' end

-- name: item_counts
-- How many of the batch's items are in each class, in one statement: one range of
-- review_jobs_batch_position_unique, so the cost is bounded by the batch's size (10,000 at
-- most), whatever the history. The left join tells an unknown batch (no row) from an empty
-- class list.
select b.id as batch_id, c.item_class, c.items
from review_batches b
left join lateral (
  select {{item_class}} as item_class, count(*) as items
  from review_jobs j
  where j.batch_id = b.id
  group by 1
) c on true
where b.id = :batch_id and b.owner = :owner

-- name: batch_items_page
-- Keyset page in position order (review_jobs_batch_position_unique): items after :after whose
-- class is one of :classes (the view). The walk stops once the page is full; a sparse view
-- walks at most the batch's range. The listing (payload) is read by primary key for the page's
-- rows only. The left join tells an unknown batch (no row) from a batch with nothing after
-- :after. sort_key is 0 for every row (the shape the score and search pages share).
select b.id as batch_id, p.*, l.payload->>'title' as title, l.payload::text as payload
from review_batches b
left join lateral (
  select {{item_columns}}, 0 as sort_key
  from review_jobs j
  where j.batch_id = b.id and j.item_position > :after
    and {{item_class}} = any(cast(:classes as text[]))
  order by j.item_position
  limit :limit_plus_one
) p on true
left join review_jobs l on l.id = p.id
where b.id = :batch_id and b.owner = :owner
order by p.sort_key, p.item_position

-- name: batch_items_by_score
-- Keyset page by score, worst first, then position. Reviewed items come first, walked on
-- review_jobs_batch_score_idx from (:after_score, :after_position); items without a score
-- (not reviewed yet: queued, running, failed, cancelled) follow in position order after
-- :unscored_after, with sort_key 101 (above any score). While the cursor is in the reviewed
-- part, :unscored_after is 0; once it is in the unscored part, :after_score is null and the
-- reviewed walk returns nothing. Each part reads at most one page.
select b.id as batch_id, p.*, l.payload->>'title' as title, l.payload::text as payload
from review_batches b
left join lateral (
  (select {{item_columns}},
     (j.result->>'qualityScore')::integer as sort_key
   from review_jobs j
   where j.batch_id = b.id and j.result is not null
     and ((j.result->>'qualityScore')::integer, j.item_position)
       > (cast(:after_score as integer), cast(:after_position as integer))
     and {{item_class}} = any(cast(:classes as text[]))
   order by (j.result->>'qualityScore')::integer, j.item_position
   limit :limit_plus_one)
  union all
  (select {{item_columns}}, 101 as sort_key
   from review_jobs j
   where j.batch_id = b.id and j.item_position > :unscored_after
     and (j.result->>'qualityScore') is null
     and {{item_class}} = any(cast(:classes as text[]))
   order by j.item_position
   limit :limit_plus_one)
  order by sort_key, item_position
  limit :limit_plus_one
) p on true
left join review_jobs l on l.id = p.id
where b.id = :batch_id and b.owner = :owner
order by p.sort_key, p.item_position

-- name: batch_items_search
-- Items whose item id starts with :search (byte for byte), or whose title starts with it
-- case-insensitively, in the view, a keyset page in position or score order (:by_score).
-- Each prefix is a range of its index (review_jobs_batch_item_prefix_idx,
-- review_jobs_batch_title_prefix_idx, text_pattern_ops): from the prefix up to the prefix
-- with its last character raised by one (U+D7FF skips the surrogates to U+E000; the caller
-- refuses U+10FFFF, which has no successor). Ranges, not LIKE, so the seller's % _ \ are
-- ordinary characters and a generic plan uses the indexes too. The two ranges are OR-ed
-- (a BitmapOr), so only matching rows are read, then sorted: a short prefix matching the
-- whole batch costs one sort of at most the batch's size. sort_key: 0 by position; by score,
-- the score, or 101 for items without one (after the reviewed ones, as batch_items_by_score).
select b.id as batch_id, p.*, l.payload->>'title' as title, l.payload::text as payload
from review_batches b
cross join lateral (
  select cast(:search as text) as id_from, lower(cast(:search as text)) as title_from) f
cross join lateral (select
  left(f.id_from, -1) || chr(ascii(right(f.id_from, 1))
    + case ascii(right(f.id_from, 1)) when 55295 then 2049 else 1 end) as id_before,
  left(f.title_from, -1) || chr(ascii(right(f.title_from, 1))
    + case ascii(right(f.title_from, 1)) when 55295 then 2049 else 1 end) as title_before) t
left join lateral (
  select {{item_columns}}, k.sort_key
  from review_jobs j
  cross join lateral (select case when cast(:by_score as boolean)
    then coalesce((j.result->>'qualityScore')::integer, 101) else 0 end as sort_key) k
  where j.batch_id = b.id
    and ((j.item_id ~>=~ f.id_from and j.item_id ~<~ t.id_before)
      or (lower(j.payload->>'title') ~>=~ f.title_from
        and lower(j.payload->>'title') ~<~ t.title_before))
    and (k.sort_key, j.item_position) > (cast(:after_key as integer), cast(:after_position as integer))
    and {{item_class}} = any(cast(:classes as text[]))
  order by k.sort_key, j.item_position
  limit :limit_plus_one
) p on true
left join review_jobs l on l.id = p.id
where b.id = :batch_id and b.owner = :owner
order by p.sort_key, p.item_position

-- name: item_columns
-- What a page shows of each item (every page query selects these, then its sort key).
j.id, j.item_id, j.item_position, j.status, j.submitted_at, j.started_at, j.completed_at,
  j.result, j.error_code, j.error_message
