-- name: claim_job
-- One short transaction: an unfinished job under its attempt budget becomes RUNNING with a
-- new execution token; one at the budget becomes FAILED EXECUTION_ATTEMPTS_EXHAUSTED with
-- no model call; terminal jobs match nothing (skipped). A RUNNING job is re-claimed: that
-- is recovery, and the new token fences off the old attempt's late writes.
update review_jobs j set
  status = case when j.attempts >= :max_attempts then 'FAILED' else 'RUNNING' end,
  attempts = case when j.attempts >= :max_attempts then j.attempts else j.attempts + 1 end,
  execution_token = case when j.attempts >= :max_attempts then null else cast(:token as uuid) end,
  started_at = case when j.attempts >= :max_attempts then j.started_at
    else current_timestamp end,
  completed_at = case when j.attempts >= :max_attempts then current_timestamp end,
  error_code = case when j.attempts >= :max_attempts then 'EXECUTION_ATTEMPTS_EXHAUSTED' end,
  error_message = case when j.attempts >= :max_attempts then :exhausted_message end
where j.id = :id and j.status in ('QUEUED', 'RUNNING')
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
