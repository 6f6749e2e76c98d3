-- name: claim_job
-- One short transaction: an unfinished job under its attempt budget becomes RUNNING with a
-- new execution token; one at the budget becomes FAILED EXECUTION_ATTEMPTS_EXHAUSTED with
-- no model call; terminal jobs match nothing (skipped). A RUNNING job is claimed again only
-- once its heartbeat is older than the lease (its worker is gone or hung): a duplicate
-- delivery while it is alive is skipped, and the new token fences off any late write.
-- A server (re)start counts as a heartbeat of every job: workers cut off by a restart get a
-- lease from the start to beat again (this rule is also in release_stale_jobs).
-- :unbudgeted_only (the claim without admission, core/jobs/execution.py) matches only a job
-- whose batch has no budget (the others are admitted first: core/costs/budget.py).
update review_jobs j set
  status = case when j.attempts >= :max_attempts then 'FAILED' else 'RUNNING' end,
  attempts = case when j.attempts >= :max_attempts then j.attempts else j.attempts + 1 end,
  execution_token = case when j.attempts >= :max_attempts then null else cast(:token as uuid) end,
  started_at = case when j.attempts >= :max_attempts then j.started_at
    else current_timestamp end,
  completed_at = case when j.attempts >= :max_attempts then current_timestamp end,
  error_code = case when j.attempts >= :max_attempts then 'EXECUTION_ATTEMPTS_EXHAUSTED' end,
  error_message = case when j.attempts >= :max_attempts then :exhausted_message end,
  heartbeat_at = case when j.attempts >= :max_attempts then null else current_timestamp end
where j.id = :id and (j.status = 'QUEUED' or (j.status = 'RUNNING'
  and j.heartbeat_at < current_timestamp - make_interval(secs => :lease_seconds)
  and pg_postmaster_start_time() < current_timestamp - make_interval(secs => :lease_seconds)))
  and (not cast(:unbudgeted_only as boolean) or not exists (select 1 from review_batches b
    where b.id = j.batch_id and b.budget_usd is not null))
returning j.id, j.status, j.attempts, j.payload::text as payload, j.submitted_at, j.started_at

-- name: succeed_job
-- Fenced: only the attempt holding the current token may complete the job.
update review_jobs set status = 'SUCCEEDED', result = cast(:result as jsonb),
  completed_at = current_timestamp, execution_token = null
where id = :id and status = 'RUNNING' and execution_token = :token
returning id, submitted_at, completed_at

-- name: fail_job
-- Fenced like succeed_job; error_message is one of the fixed safe messages.
update review_jobs set status = 'FAILED', error_code = :code, error_message = :message,
  completed_at = current_timestamp, execution_token = null
where id = :id and status = 'RUNNING' and execution_token = :token
returning id, submitted_at, completed_at

-- name: release_job
-- A transient failure with attempts left: back to QUEUED until the delayed retry claims it.
-- Fenced like the other writes.
update review_jobs set status = 'QUEUED', execution_token = null, heartbeat_at = null
where id = :id and status = 'RUNNING' and execution_token = :token
returning id

-- name: give_back_job
-- An attempt that must not count: a failure while the provider's gate is shut (this call opened
-- it, or it already was), a claimed job that got no model slot or whose process is stopping
-- (core/jobs/execution.py), the jobs of an economy intent given up (core/economy/submit.py). The
-- job goes back to QUEUED and the attempt it was charged is returned. Fenced like the rest.
update review_jobs set status = 'QUEUED', attempts = attempts - 1, execution_token = null,
  heartbeat_at = null
where id = :id and status = 'RUNNING' and execution_token = :token
returning id

-- name: heartbeat_jobs
-- The attempts this process is running are alive; a token mismatch means it lost the job.
update review_jobs set heartbeat_at = current_timestamp
from unnest(cast(:ids as uuid[]), cast(:tokens as uuid[])) as live(id, token)
where review_jobs.id = live.id and review_jobs.execution_token = live.token
  and review_jobs.status = 'RUNNING'

-- name: release_stale_jobs
-- RUNNING jobs whose attempt stopped heartbeating (worker killed, hung or cut off): back to
-- QUEUED with the token cleared, so the old attempt can no longer write. SKIP LOCKED lets
-- every worker run this without two of them releasing the same job. Nothing is released
-- within a lease of the server's start: a restart stops every heartbeat, not every worker.
update review_jobs set status = 'QUEUED', execution_token = null, heartbeat_at = null
where id in (
  select id from review_jobs
  where status = 'RUNNING'
    and heartbeat_at < current_timestamp - make_interval(secs => :lease_seconds)
    and pg_postmaster_start_time() < current_timestamp - make_interval(secs => :lease_seconds)
  for update skip locked
)
returning id

-- name: insert_standalone_job
insert into review_jobs (id, owner, idempotency_key, request_hash, payload, status)
values (:id, :owner, :key, :request_hash, cast(:payload as jsonb), 'QUEUED')
on conflict on constraint review_jobs_owner_key_unique do nothing
returning id

-- name: find_job_by_key
select id, request_hash from review_jobs where owner = :owner and idempotency_key = :key

-- name: get_job
-- Never selects payload, request_hash or execution_token.
select id, batch_id, item_id, item_position, status, submitted_at, started_at, completed_at,
  attempts, result, error_code, error_message
from review_jobs where id = :id and owner = :owner

-- name: cancel_queued_batch_jobs
-- The seller calls off what has not started: QUEUED children become CANCELLED (terminal, no
-- result, no error code). RUNNING and finished jobs are untouched. A claim racing this waits
-- for the row lock and then skips the job (status is no longer QUEUED), and vice versa; the
-- job's message stays and is acked unprocessed when delivered. `found` tells an unknown or
-- foreign batch from one with nothing left to cancel. The batch's unfinished children are one
-- range of review_jobs_batch_unfinished_position_idx (the batch_id itself pins the owner).
with batch as (
  select id, owner from review_batches where id = :batch_id and owner = :owner
), cancelled as (
  update review_jobs j set status = 'CANCELLED', completed_at = current_timestamp,
    execution_token = null, heartbeat_at = null
  from batch
  where j.batch_id = batch.id and j.completed_at is null and j.status = 'QUEUED'
  returning j.id
)
select (select count(*) from batch) as found, (select count(*) from cancelled) as cancelled

-- name: job_may_run
-- Whether a delivery may still run the job (not terminal: QUEUED, or RUNNING and perhaps left
-- by a dead worker); a cancelled or finished job's message is skipped without waiting for a
-- model slot. Primary key.
select exists (select 1 from review_jobs where id = :id
  and status <> all(cast(:terminal as text[])))
