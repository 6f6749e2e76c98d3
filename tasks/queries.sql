-- name: requeue_orphaned_messages
-- Messages left `consumed` with nobody holding their advisory lock (consumed at least the
-- grace ago) whose job is QUEUED go back to queued, with the NOTIFY dramatiq-pg's broker
-- sends, so an idle consumer takes them at once. Messages of finished jobs are marked done.
-- RUNNING jobs are left to the heartbeat lease. A re-send that races an ack is harmless: the
-- claim skips a job that is already running or finished.
with orphans as (
  select q.message_id, j.status
  from dramatiq.queue q
  left join review_jobs j on j.id = (q.message->'args'->>0)::uuid
  where q.state = 'consumed' and q.queue_name = any(:queue_names)
    and q.mtime < (now() at time zone 'UTC') - make_interval(secs => :grace_seconds)
    and (j.status is null or j.status <> 'RUNNING')
    and not exists (
      select 1 from pg_locks l
      where l.locktype = 'advisory' and l.objsubid = 1
        and l.database = (select oid from pg_database where datname = current_database())
        and ((l.classid::bigint << 32) | l.objid::bigint)
          = dramatiq_message_lock(q.queue_name, q.message_id))
  for update of q skip locked
), updated as (
  update dramatiq.queue q
  set "state" = case when o.status = 'QUEUED' then 'queued' else 'done' end::dramatiq.state,
    mtime = now() at time zone 'UTC'
  from orphans o where q.message_id = o.message_id
  returning q.queue_name, q.message_id, q.message, q."state"
)
select count(pg_notify('dramatiq.' || queue_name || '.enqueue',
  case when octet_length(message::text) >= 8000
    then jsonb_build_object('message_id', message_id)::text
    else message::text end))
from updated where "state" = 'queued'
