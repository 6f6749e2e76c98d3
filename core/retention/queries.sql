-- name: purge_preview
-- What a purge at :cutoff would delete: finished batches completed before it (index
-- review_batches_completed_idx) with their jobs (counts stored at completion), and finished
-- standalone jobs (index review_jobs_completed_idx). Unfinished work has no completion time.
select
  (select count(*) from review_batches where completed_at < :cutoff) as batches,
  (select coalesce(sum(succeeded + failed + cancelled), 0) from review_batches
   where completed_at < :cutoff)
  + (select count(*) from review_jobs where batch_id is null and completed_at < :cutoff) as jobs

-- name: purge_batch_chunk
-- One chunk, in its own short transaction: the oldest finished batches before :cutoff whose
-- jobs add up to about :max_jobs (always at least one batch), with their jobs. SKIP LOCKED
-- leaves a batch another purger holds to it. Jobs are deleted first (they name their batch);
-- a retry of a purged batch keeps its own rows, its retry_of set to null by the foreign key.
with picked as (
  select id from (
    select id, sum(succeeded + failed + cancelled) over (order by completed_at, id)
      - (succeeded + failed + cancelled) as jobs_before
    from review_batches
    where completed_at < :cutoff
    order by completed_at, id
    limit :max_batches
  ) oldest
  where jobs_before < :max_jobs
), chosen as (
  select b.id from review_batches b join picked using (id)
  where b.completed_at < :cutoff
  for update of b skip locked
), jobs as (
  delete from review_jobs j using chosen where j.batch_id = chosen.id returning 1
), batches as (
  delete from review_batches b using chosen where b.id = chosen.id returning 1
)
select (select count(*) from batches) as batches, (select count(*) from jobs) as jobs

-- name: purge_standalone_chunk
-- Finished standalone jobs before :cutoff, :max_jobs at a time, oldest first.
delete from review_jobs where id in (
  select id from review_jobs
  where completed_at < :cutoff and batch_id is null
  order by completed_at
  limit :max_jobs
  for update skip locked
)

-- name: delete_done_messages
-- dramatiq-pg messages acked (done) more than :age_seconds ago, :limit at a time (index on
-- dramatiq.queue (state, mtime); mtime compared as dramatiq-pg writes it, UTC wall clock). SKIP LOCKED lets every worker process run this at once.
delete from dramatiq.queue where message_id in (
  select message_id from dramatiq.queue
  where "state" = 'done'
    and mtime < (now() at time zone 'UTC') - make_interval(secs => :age_seconds)
  order by mtime
  limit :limit
  for update skip locked
)
