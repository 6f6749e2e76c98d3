-- name: snapshot_time
select current_timestamp as taken_at

-- name: queue_depth
-- dramatiq-pg messages per state, every queue (delay queues included).
select "state"::text as state, count(*) as count from dramatiq.queue group by "state"

-- name: jobs_by_status
-- Exact counts kept by triggers on review_jobs (migration 0009): at most 5 x 16 shard rows,
-- whatever the size of the jobs table.
select status, sum(count)::bigint as count from review_job_counts group by status

-- name: failures_last_hour
-- Index review_jobs_completed_idx.
select error_code, count(*) as count
from review_jobs
where status = 'FAILED' and completed_at >= current_timestamp - interval '1 hour'
group by error_code
order by count desc, error_code

-- name: oldest_queued
-- Seconds since the oldest still-QUEUED job was submitted (index review_jobs_status_idx).
select extract(epoch from current_timestamp - min(submitted_at))::float8 as seconds
from review_jobs where status = 'QUEUED'

-- name: completions_per_minute
-- Reviews finished (SUCCEEDED or FAILED, not CANCELLED) in each of the last 60 minutes,
-- the current minute last; minutes with none are listed with 0.
with minutes as (
  select generate_series(date_trunc('minute', current_timestamp) - interval '59 minutes',
    date_trunc('minute', current_timestamp), interval '1 minute') as minute
)
select m.minute, count(j.id) as count
from minutes m
left join review_jobs j on j.completed_at >= m.minute
  and j.completed_at < m.minute + interval '1 minute' and j.status in ('SUCCEEDED', 'FAILED')
group by m.minute
order by m.minute

-- name: active_workers
select id, hostname, pid, started_at, heartbeat_at
from worker_processes
where heartbeat_at >= current_timestamp - interval '1 minute'
order by started_at, id

-- name: recoveries_last_hour
select kind, sum(count)::integer as count
from recovery_events
where recorded_at >= current_timestamp - interval '1 hour'
group by kind

-- name: upsert_worker
-- A worker process proves it is alive once per recovery pass.
insert into worker_processes (id, hostname, pid)
values (:id, :hostname, :pid)
on conflict (id) do update
  set heartbeat_at = current_timestamp, hostname = excluded.hostname, pid = excluded.pid

-- name: prune_workers
-- Processes silent for a day are gone for good; keeps the table at the size of the fleet.
delete from worker_processes where heartbeat_at < current_timestamp - interval '1 day'

-- name: insert_recovery_event
insert into recovery_events (kind, count) values (:kind, :count)
