-- name: admit
-- Before a claim: 'pass' when the gate is closed (or has never failed), 'probe' when this
-- delivery took the due probe (open past next_probe_at, or a half-open probe whose lease
-- ran out) or is the probing job itself delivered again (its worker died and recovery sent
-- it back), 'wait' otherwise. The row lock of the update lets exactly one of many
-- concurrent deliveries take a probe; the others re-check, find it taken, and wait.
with probe as (
  update provider_gates set state = 'half_open', probe_job_id = :job_id,
    next_probe_at = current_timestamp + make_interval(secs => :probe_lease),
    updated_at = current_timestamp
  where provider = :provider and model = :model and state <> 'closed'
    and (next_probe_at <= current_timestamp or probe_job_id = :job_id)
  returning 1
)
select case when exists (select 1 from probe) then 'probe'
  when coalesce(g.state, 'closed') = 'closed' then 'pass' else 'wait' end as verdict
from (values (1)) as one (x)
left join provider_gates g on g.provider = :provider and g.model = :model

-- name: park_job
-- The gate is shut: the QUEUED job waits for it without a message. FOR SHARE orders this
-- with a closing update, so a job is never parked after the gate's waiters were sent.
-- Returns 0 when the gate closed meanwhile (the caller claims instead).
with gate as (
  select provider, model from provider_gates
  where provider = :provider and model = :model and state <> 'closed'
  for share
), parked as (
  insert into provider_gate_waits (job_id, provider, model)
  select :job_id, gate.provider, gate.model from gate
  where exists (select 1 from review_jobs where id = :job_id and status = 'QUEUED')
  on conflict (job_id) do nothing
  returning job_id
)
select count(*) as shut from gate

-- name: hand_back_probe
-- The probing job made no call (skipped, exhausted, unreadable): the next delivery probes.
update provider_gates set state = 'open', probe_job_id = null,
  next_probe_at = current_timestamp, updated_at = current_timestamp
where provider = :provider and model = :model and state = 'half_open'
  and probe_job_id = :job_id

-- name: ensure_gate
insert into provider_gates (provider, model) values (:provider, :model)
on conflict (provider, model) do nothing

-- name: record_failure
-- The provider failed a call (unavailable, timed out, rate limited). A closed gate opens at
-- the threshold of consecutive failures; a half-open one (its probe, or a late call, failed)
-- opens again. Opening pauses every worker for :pause seconds; while open, a Retry-After
-- (:extend) can only lengthen the pause. `was` (old.state) tells the caller whether this
-- call opened it. Every value is computed from the updated row alone: when other workers
-- queue on the gate's lock, PostgreSQL re-reads this row at its latest version, whereas a
-- separately locked read (a FOR UPDATE CTE joined in) may hold another version, and
-- mixing the two wrote rows like 'open' with no next probe.
update provider_gates g set
  failures = g.failures + 1,
  state = case when g.state = 'closed' and g.failures + 1 < :threshold then 'closed'
    else 'open' end,
  reason = case when g.state = 'closed' and g.failures + 1 < :threshold then null
    else :reason end,
  opened_at = case when g.state = 'closed' and g.failures + 1 >= :threshold
    then current_timestamp else g.opened_at end,
  next_probe_at = case
    when g.state = 'closed' and g.failures + 1 < :threshold then null
    when g.state <> 'open' then current_timestamp + make_interval(secs => :pause)
    when :extend then greatest(g.next_probe_at, current_timestamp + make_interval(secs => :pause))
    else g.next_probe_at end,
  probe_job_id = null,
  updated_at = current_timestamp
where g.provider = :provider and g.model = :model
returning old.state as was, new.state,
  coalesce(extract(epoch from new.next_probe_at - current_timestamp), 0)::float8 as wait_seconds

-- name: record_answer
-- The provider answered (a review, or an answer we refused): it is available. A half-open
-- gate, or an open one whose pause is over, closes; a closed one forgets its failures. An
-- open gate still inside its pause (e.g. a Retry-After) stays open: a late answer from a
-- call sent before it opened does not cut the pause short. Matches nothing when healthy.
update provider_gates set state = 'closed', failures = 0, reason = null, opened_at = null,
  next_probe_at = null, probe_job_id = null, updated_at = current_timestamp
where provider = :provider and model = :model and (state = 'half_open'
  or (state = 'closed' and failures > 0)
  or (state = 'open' and next_probe_at <= current_timestamp))
returning provider

-- name: wake_gate_waiters
-- The gate closed: every job waiting for it goes back to the queue (the caller sends a
-- message for each job still QUEUED; cancelled or finished ones are just forgotten).
with woken as (
  delete from provider_gate_waits
  where provider = :provider and model = :model
  returning job_id
)
select woken.job_id from woken join review_jobs j on j.id = woken.job_id
where j.status = 'QUEUED'

-- name: wake_stranded_waiters
-- Maintenance (every worker process, every recovery pass): jobs waiting on a gate that is
-- closed (a park that lost a race, or an operator reset the row), and one job per gate
-- whose probe is overdue by :grace (the job carrying the probe was lost or cancelled).
-- SKIP LOCKED: processes running this at once never send the same job twice.
with overdue as (
  select provider, model from provider_gates
  where state <> 'closed' and next_probe_at <= current_timestamp - make_interval(secs => :grace)
), released as (
  select w.job_id from provider_gate_waits w
  join provider_gates g on g.provider = w.provider and g.model = w.model and g.state = 'closed'
  for update of w skip locked
), probes as (
  select probe.job_id from overdue cross join lateral (
    select w.job_id from provider_gate_waits w
    where w.provider = overdue.provider and w.model = overdue.model
    order by w.parked_at
    limit 1
    for update skip locked
  ) probe
), woken as (
  delete from provider_gate_waits w
  where w.job_id in (select job_id from released union all select job_id from probes)
  returning w.job_id
)
select woken.job_id from woken join review_jobs j on j.id = woken.job_id
where j.status = 'QUEUED'

-- name: gate_states
-- Every gate with the jobs waiting for it, for the operations page and the metrics.
select g.provider, g.model, g.state, g.failures, g.reason, g.opened_at,
  greatest(0, extract(epoch from g.next_probe_at - current_timestamp))::float8
    as next_probe_in_seconds,
  (select count(*) from provider_gate_waits w
   where w.provider = g.provider and w.model = g.model) as waiting_jobs
from provider_gates g
order by g.provider, g.model

-- name: rate_free_at
-- (Embedded.) The earliest moment the next call may start: the later of the two limits'
-- theoretical arrival times, less the burst allowance. Unqualified: it reads the row of the
-- statement it is embedded in.
(greatest(requests_free_at, tokens_free_at) - make_interval(secs => :burst))

-- name: ensure_rate_limit
insert into provider_rate_limits (provider, model, requests_per_minute, tokens_per_minute)
values (:provider, :model, :rpm, :tpm)
on conflict (provider, model) do nothing

-- name: reserve_call
-- Before a claim, on a provider+model with a limit (GCRA, one row lock held to commit): when
-- the next call may start within :horizon seconds, this call takes that slot, pushing each
-- limit on by its share (:request_seconds per call, :token_seconds per estimated token).
-- Otherwise nothing is taken and the job is given a place in the line of jobs to come back
-- later: half a horizon before its capacity is due, and one call-period after the job in
-- front of it, so a backlog comes back at the pace it can be served, never all at once.
-- The token estimate is the job's listing (payload bytes / :bytes_per_token) plus
-- :fixed_tokens (instructions, schema, answer); reconcile_tokens corrects it after the call.
-- The limits are rewritten from the caller's settings on every reservation. Every value is
-- computed from the updated row alone (see record_failure); RETURNING reads the old one.
update provider_rate_limits set
  requests_per_minute = :rpm, tokens_per_minute = :tpm,
  requests_free_at = case
    when {{rate_free_at}} <= current_timestamp + make_interval(secs => :horizon)
    then greatest(requests_free_at, current_timestamp, {{rate_free_at}})
      + make_interval(secs => :request_seconds)
    else requests_free_at end,
  tokens_free_at = case
    when {{rate_free_at}} <= current_timestamp + make_interval(secs => :horizon)
    then greatest(tokens_free_at, current_timestamp, {{rate_free_at}})
      + make_interval(secs => :token_seconds * e.tokens)
    else tokens_free_at end,
  returns_at = case
    when {{rate_free_at}} <= current_timestamp + make_interval(secs => :horizon) then returns_at
    else greatest(returns_at, {{rate_free_at}} - make_interval(secs => :horizon / 2))
      + make_interval(secs => greatest(:request_seconds, :token_seconds * e.tokens))
    end,
  updated_at = current_timestamp
from (select coalesce((select ceil(octet_length(j.payload::text) / :bytes_per_token)::integer
                       from review_jobs j where j.id = :job_id), 0) + :fixed_tokens as tokens) e
where provider = :provider and model = :model
returning e.tokens, new.returns_at = old.returns_at as reserved,
  (select extract(epoch from case when new.returns_at = old.returns_at
      then greatest(current_timestamp, {{rate_free_at}})
      else greatest(old.returns_at, {{rate_free_at}} - make_interval(secs => :horizon / 2)) end
    - current_timestamp)::float8
   from (values (old.requests_free_at, old.tokens_free_at))
     as before (requests_free_at, tokens_free_at)) as wait_seconds

-- name: refund_call
-- The reserved call was not made (the job was finished, cancelled or running elsewhere): give
-- its share back. Only in the reserving transaction, which still holds the row's lock, so no
-- other reservation came after it.
update provider_rate_limits set
  requests_free_at = requests_free_at - make_interval(secs => :request_seconds),
  tokens_free_at = tokens_free_at - make_interval(secs => :token_seconds * :tokens)
where provider = :provider and model = :model

-- name: reconcile_tokens
-- After a call: charge the tokens the provider reported instead of the estimate (either way).
update provider_rate_limits set
  tokens_free_at = tokens_free_at + make_interval(secs => :token_seconds * (:reported - :estimated)),
  updated_at = current_timestamp
where provider = :provider and model = :model

-- name: count_calls
-- Provider calls made (answered or failed) in one minute, for the operations page, as a
-- process tallied them (call_tally.py: once a second, not once per job); :rate_limited of
-- them the provider refused with 429. One of 16 shards per minute, by backend pid.
insert into provider_call_counts as c (provider, model, minute, shard, calls, rate_limited, tokens)
values (:provider, :model, to_timestamp(:minute), pg_backend_pid() % 16, :calls,
        :rate_limited, :tokens)
on conflict (provider, model, minute, shard) do update set
  calls = c.calls + excluded.calls, rate_limited = c.rate_limited + excluded.rate_limited,
  tokens = c.tokens + excluded.tokens

-- name: forget_old_call_counts
-- Maintenance: counts older than a day are no longer shown (index provider_call_counts_minute_idx).
delete from provider_call_counts where minute < current_timestamp - interval '1 day'

-- name: provider_rates
-- Per provider+model that has a limit, a gate or calls in the last hour: calls in the
-- current and the previous minute, 429s and calls in the last hour (index
-- provider_call_counts_minute_idx), the limits the workers enforce, and the gate.
with recent as (
  select provider, model,
    coalesce(sum(calls) filter (where minute = date_trunc('minute', current_timestamp)), 0)
      as calls_this_minute,
    coalesce(sum(calls) filter (where minute = date_trunc('minute', current_timestamp)
      - interval '1 minute'), 0) as calls_last_minute,
    coalesce(sum(tokens) filter (where minute = date_trunc('minute', current_timestamp)
      - interval '1 minute'), 0) as tokens_last_minute,
    sum(calls) as calls_last_hour, sum(rate_limited) as rate_limited_last_hour
  from provider_call_counts
  where minute >= date_trunc('minute', current_timestamp) - interval '59 minutes'
  group by provider, model
), keys as (
  select provider, model from recent
  union select provider, model from provider_rate_limits
  union select provider, model from provider_gates
)
select k.provider, k.model,
  coalesce(r.calls_this_minute, 0)::integer as calls_this_minute,
  coalesce(r.calls_last_minute, 0)::integer as calls_last_minute,
  coalesce(r.tokens_last_minute, 0)::bigint as tokens_last_minute,
  coalesce(r.calls_last_hour, 0)::integer as calls_last_hour,
  coalesce(r.rate_limited_last_hour, 0)::integer as rate_limited_last_hour,
  l.requests_per_minute, l.tokens_per_minute,
  coalesce(g.state, 'closed') as breaker_state
from keys k
left join recent r on r.provider = k.provider and r.model = k.model
left join provider_rate_limits l on l.provider = k.provider and l.model = k.model
left join provider_gates g on g.provider = k.provider and g.model = k.model
order by k.provider, k.model

-- name: seller_running
-- One seller's RUNNING jobs, counted no further than :cap, among the RUNNING jobs only
-- (review_jobs_status_idx: as many as there are worker threads), so a seller's backlog never
-- makes it longer.
select count(*) as running from (
  select 1 from review_jobs where owner = :owner and status = 'RUNNING' limit :cap) running

-- name: lock_seller
-- Serialises the admissions of one seller that found room, until their transaction ends, so
-- two of them never both take the last running slot. The two-key form keeps these locks
-- apart from dramatiq-pg's one-key message locks.
select pg_advisory_xact_lock(7305, hashtext(:owner))

-- name: join_seller_line
-- A job told to wait takes the next place in its seller's line, :spacing after the last one
-- and at least :min_wait from now; returns how long until its place comes.
insert into seller_turns (owner, returns_at)
values (:owner, clock_timestamp() + make_interval(secs => :min_wait + :spacing))
on conflict (owner) do update
set returns_at = greatest(seller_turns.returns_at, clock_timestamp() + make_interval(secs => :min_wait))
  + make_interval(secs => :spacing)
returning extract(epoch from returns_at - clock_timestamp()) as wait_seconds

-- name: other_sellers_job
-- A QUEUED job of another seller than :job_id's, one running fewer than :cap jobs, for the
-- worker whose delivery has to wait for its own seller's turn: it reviews that job now instead
-- of going through the rest of the waiting seller's backlog of messages first (the job's own
-- message, delivered later, finds it claimed or done and is skipped). Sellers with unfinished
-- jobs are found by a skip scan of review_jobs_owner_unfinished_idx (one probe per seller, at
-- most :sellers of them, in owner order: each gets at most :cap running, so the first ones
-- cannot take every worker); each one's running count stops at :cap, and its QUEUED job is
-- one probe of the same index.
with recursive sellers (owner, seen) as (
  (select owner, 1 from review_jobs
   where status in ('QUEUED', 'RUNNING') order by owner limit 1)
  union all
  select (select r.owner from review_jobs r
          where r.status in ('QUEUED', 'RUNNING') and r.owner > s.owner order by r.owner limit 1),
    s.seen + 1
  from sellers s where s.owner is not null and s.seen < :sellers
), waiting as (
  select owner from review_jobs where id = :job_id
)
select j.id
from sellers s
cross join lateral (
  select q.id from review_jobs q where q.owner = s.owner and q.status = 'QUEUED' limit 1) j
where s.owner is not null and s.owner <> (select owner from waiting)
  and (select count(*) from (select 1 from review_jobs r
       where r.owner = s.owner and r.status = 'RUNNING' limit :cap) running) < :cap
limit 1
