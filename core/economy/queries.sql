-- name: next_economy_batch
-- The oldest unfinished economy batch with a QUEUED job no provider batch ever carried (a job
-- re-sent in standard mode has a provider_batch_jobs row, so it is never picked again). The
-- batch row is locked SKIP LOCKED: two processes never split one batch at the same moment.
-- Bounded by review_batches_economy_idx and the jobs' batch_id index. Its seller and budget
-- are what the claim is checked against (core/costs/budget.py).
select b.id, b.owner, b.budget_usd from review_batches b
where b.mode = 'economy' and b.completed_at is null
  and exists (select 1 from review_jobs j where j.batch_id = b.id and j.status = 'QUEUED'
              and not exists (select 1 from provider_batch_jobs p where p.job_id = j.id))
order by b.submitted_at
limit 1
for update of b skip locked

-- name: stop_unsent_over_budget
-- The batch's or its seller's budget is spent: its jobs no provider batch carries end unclaimed
-- as the standard path ends them (core/costs/queries.sql stop_over_budget): CANCELLED with the
-- code BUDGET_EXCEEDED, no attempt spent. The jobs' batch_id index bounds it.
update review_jobs j set status = 'CANCELLED', completed_at = current_timestamp,
  error_code = 'BUDGET_EXCEEDED', error_message = :message
where j.batch_id = :batch_id and j.status = 'QUEUED'
  and not exists (select 1 from provider_batch_jobs p where p.job_id = j.id)

-- name: insert_intent
-- A provider batch about to be sent: no provider id yet. next_poll_at is its lease: nobody
-- else sends it before then.
insert into provider_batches (id, batch_id, provider, state, next_poll_at)
values (:id, :batch_id, :provider, 'preparing',
        current_timestamp + make_interval(secs => :lease_seconds))

-- name: reserve_jobs
-- Up to :limit of the batch's unsent QUEUED jobs, and no more than fit in :max_bytes of
-- requests (each estimated as twice its stored listing, for the escaping of a JSON string in a
-- JSON request, plus :overhead_bytes of prompt and schema; the first always fits), become RUNNING for the provider batch, each with its own execution token (its results
-- are fenced by it) and one attempt spent. The heartbeat is set to the end of the provider's
-- window: the provider holds these jobs until then, so recovery (release_stale_jobs) leaves
-- them alone. A job joins at most one provider batch ever (provider_batch_jobs' primary key).
-- The batch row is locked by next_economy_batch, so no other process reserves from it now.
with sized as (
  select j.id, sum(2 * octet_length(j.payload::text) + :overhead_bytes)
                 over (order by j.item_position rows unbounded preceding) as running_bytes
  from review_jobs j
  where j.batch_id = :batch_id and j.status = 'QUEUED'
    and not exists (select 1 from provider_batch_jobs p where p.job_id = j.id)
  order by j.item_position
  limit :limit
), picked as (
  select j.id from review_jobs j join sized s on s.id = j.id
  where s.running_bytes <= :max_bytes or s.running_bytes = (select min(running_bytes) from sized)
  for update of j skip locked
), claimed as (
  update review_jobs j set status = 'RUNNING', attempts = j.attempts + 1,
    execution_token = gen_random_uuid(), started_at = current_timestamp,
    heartbeat_at = current_timestamp + make_interval(secs => :window_seconds)
  from picked where j.id = picked.id
  returning j.id, j.execution_token
)
insert into provider_batch_jobs (job_id, provider_batch_id, token)
select id, :provider_batch, execution_token from claimed
returning job_id

-- name: claim_due_intent
-- A provider batch of this provider whose sender died (or failed) before recording the
-- provider's answer, once its lease is over; taking it renews the lease. SKIP LOCKED: one
-- process per intent. provider_batches_open_idx bounds it.
update provider_batches set next_poll_at = current_timestamp + make_interval(secs => :lease_seconds)
where id = (select id from provider_batches
            where state = 'preparing' and provider = :provider and next_poll_at <= current_timestamp
            order by next_poll_at limit 1 for update skip locked)
returning id, created_at, create_refusals

-- name: count_refusal
-- The provider refused this intent's create (an error answer, or none): one more refusal, and
-- the intent is resumed after :wait_seconds (its lease and the backoff), not at once.
update provider_batches set create_refusals = create_refusals + 1,
  next_poll_at = current_timestamp + make_interval(secs => :wait_seconds)
where id = :id and state = 'preparing'

-- name: refuse_intent
-- The provider refused the intent's create too often, or its window ran out before it was sent,
-- and its jobs went back to standard mode: it is never resumed again (provider_batches_open_idx
-- leaves it out), and its provider_batch_jobs rows stay, so next_economy_batch never offers
-- those jobs again.
update provider_batches set state = 'refused' where id = :id and state = 'preparing'

-- name: requests
-- The listings a provider batch still carries (not cancelled meanwhile), to build its input.
select j.id, j.payload::text as payload
from provider_batch_jobs p join review_jobs j on j.id = p.job_id
where p.provider_batch_id = :id and j.status = 'RUNNING' and j.execution_token = p.token
order by j.item_position

-- name: drop_empty_intent
-- Every job an unsent intent carried was cancelled (or otherwise ended) before it was sent:
-- nothing to create. The intent goes, its provider_batch_jobs rows with it: the jobs are
-- terminal, so none is sent. Matches nothing while one of them is unfinished (recovery gave it
-- back to standard mode when its window ran out): submit.py then keeps the intent as 'refused'
-- (refuse_intent), its rows a tombstone. provider_batch_jobs_batch_idx and the jobs' primary key.
delete from provider_batches pb where pb.id = :id and pb.state = 'preparing'
  and not exists (select 1 from provider_batch_jobs p join review_jobs j on j.id = p.job_id
                  where p.provider_batch_id = pb.id and j.status in ('QUEUED', 'RUNNING'))

-- name: recorded_provider_batch
-- What an intent recorded, when recording ours matched nothing.
select provider_batch_id from provider_batches where id = :id

-- name: record_submission
-- The provider accepted the batch: its id is stored in the same transaction that marks the
-- intent submitted, or 'cancelling' (at once) when the seller cancelled every job it carries
-- while it was being created. Fails (UNIQUE) if that provider batch is already recorded.
update provider_batches pb set provider_batch_id = :provider_batch_id, input_file_id = :input_file_id,
  state = case when exists (select 1 from provider_batch_jobs p join review_jobs j on j.id = p.job_id
                            where p.provider_batch_id = pb.id and j.status = 'RUNNING'
                              and j.execution_token = p.token)
          then 'submitted' else 'cancelling' end,
  submitted_at = current_timestamp, expected_by = :expected_by,
  next_poll_at = current_timestamp + make_interval(secs => :first_poll_seconds)
where pb.id = :id and pb.state = 'preparing'
returning pb.state

-- name: claim_due_poll
-- One submitted (or cancelling) provider batch of this provider due for a poll; taking it
-- renews its lease.
update provider_batches set next_poll_at = current_timestamp + make_interval(secs => :lease_seconds)
where id = (select id from provider_batches
            where state in ('submitted', 'cancelling') and provider = :provider
              and next_poll_at <= current_timestamp
            order by next_poll_at limit 1 for update skip locked)
returning id, provider_batch_id, state, polls

-- name: lock_for_writing
-- Whether this session now holds the provider batch for writing its answers: a session
-- advisory lock in economy mode's key space 7317 (provider gates use 7305; dramatiq-pg's message
-- locks are one bigint, not a pair), keyed by our id. Not waiting: a poll finding it held moves
-- on. Held across the writer's transactions until unlock_for_writing, or until the session ends
-- (a writer that dies lets it go; the next poll finishes the write, the fence skipping what is
-- written).
select pg_try_advisory_lock(7317, hashtext(cast(:id as text)))

-- name: still_submitted
-- Read once the lock is held: the poll that held it before may have written and finished it.
select 1 from provider_batches where id = :id and state = 'submitted'

-- name: unlock_for_writing
select pg_advisory_unlock(7317, hashtext(cast(:id as text)))

-- name: polled
-- Still running at the provider: come back after the backoff.
update provider_batches set polled_at = current_timestamp, polls = polls + 1,
  next_poll_at = current_timestamp + make_interval(secs => :wait_seconds)
where id = :id

-- name: finish
-- Every job of the provider batch is written: nothing more to poll.
update provider_batches set state = 'finished', polled_at = current_timestamp, polls = polls + 1,
  output_file_id = :output_file_id, error_file_id = :error_file_id
where id = :id

-- name: carried_jobs
-- Up to :limit jobs of a provider batch still waiting for its answer, with the attempt they
-- hold (provider_batch_jobs_batch_idx, then each job's primary key).
select j.id, p.token, j.attempts, j.payload::text as payload, j.submitted_at, j.started_at
from provider_batch_jobs p join review_jobs j on j.id = p.job_id
where p.provider_batch_id = :id and j.status = 'RUNNING' and j.execution_token = p.token
limit :limit

-- name: carried_jobs_among
-- Those of the jobs :ids (one chunk of answers) the provider batch still carries: primary key
-- lookups of provider_batch_jobs and review_jobs. A job id the batch does not carry (already
-- written, cancelled, or another batch's) is not returned, so its answer is dropped.
select j.id, p.token, j.attempts, j.payload::text as payload, j.submitted_at, j.started_at
from provider_batch_jobs p join review_jobs j on j.id = p.job_id
where p.job_id = any(:ids) and p.provider_batch_id = :id
  and j.status = 'RUNNING' and j.execution_token = p.token

-- name: cancel_provider_batches
-- The seller cancels an economy batch: the jobs its provider batches still carry become
-- CANCELLED (fenced by their token), and each submitted provider batch is marked for the
-- maintenance loop to cancel at the provider (no HTTP call inside the seller's request).
with marked as (
  update provider_batches set state = 'cancelling', next_poll_at = current_timestamp
  where batch_id = :batch_id and state = 'submitted'
  returning id
), carried as (
  update review_jobs j set status = 'CANCELLED', completed_at = current_timestamp,
    execution_token = null, heartbeat_at = null
  from provider_batch_jobs p, provider_batches pb
  where p.job_id = j.id and pb.id = p.provider_batch_id and pb.batch_id = :batch_id
    and j.status = 'RUNNING' and j.execution_token = p.token
  returning j.id
)
select (select count(*) from carried) as cancelled, (select count(*) from marked) as marked

-- name: batch_economy_status
-- The batch page's economy line: the batch's mode and its provider batches (newest first), for
-- the batch's owner only. provider_batches_batch_idx bounds it.
select b.mode, pb.state, pb.provider_batch_id, pb.submitted_at, pb.expected_by, pb.polled_at,
  (select count(*) from provider_batch_jobs p where p.provider_batch_id = pb.id) as items
from review_batches b
left join provider_batches pb on pb.batch_id = b.id
where b.id = :batch_id and b.owner = :owner
order by pb.created_at desc
