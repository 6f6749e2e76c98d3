-- name: requeue_orphaned_messages
-- Messages left `consumed` with nobody holding their advisory lock (consumed at least the
-- grace ago) whose job is QUEUED go back to queued, with the NOTIFY dramatiq-pg's broker
-- sends, so an idle consumer takes them at once. Messages of finished jobs are marked done.
-- RUNNING jobs are left to the heartbeat lease. A re-send that races an ack is harmless: the
-- claim skips a job that is already running or finished.
with held as materialized (
  -- Every advisory lock of this database, read once and hashed: pg_locks copies the whole
  -- lock table, and reading it once per consumed message took 0.5 s a pass with 640 of them
  -- (16 processes x 40 prefetched), every second on every process.
  select (l.classid::bigint << 32) | l.objid::bigint as lock_id
  from pg_locks l
  where l.locktype = 'advisory' and l.objsubid = 1
    and l.database = (select oid from pg_database where datname = current_database())
), orphans as (
  select q.message_id, j.status
  from dramatiq.queue q
  left join review_jobs j on j.id = (q.message->'args'->>0)::uuid
  where q.state = 'consumed' and q.queue_name = any(:queue_names)
    and q.mtime < (now() at time zone 'UTC') - make_interval(secs => :grace_seconds)
    and (j.status is null or j.status <> 'RUNNING')
    and not exists (
      select 1 from held where held.lock_id = dramatiq_message_lock(q.queue_name, q.message_id))
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

-- name: claim_queued_messages
-- The consumer's take (tasks/consumer.py): up to :room of the oldest queued messages of one
-- queue, marked consumed and locked for this session (dramatiq-pg's advisory lock, so acks,
-- unlocks and orphan recovery work as with its own CONSUME_ONE). SKIP LOCKED: processes woken
-- by the same NOTIFY take different messages, and none tries a message another already took.
-- Walks the ("state", mtime) index from its queued end.
with picked as (
  select message_id from dramatiq.queue
  where "state" = 'queued' and queue_name = :queue_name
  order by mtime
  limit :room
  for update skip locked
)
update dramatiq.queue q set "state" = 'consumed', mtime = now() at time zone 'UTC'
from picked
where q.message_id = picked.message_id
  and pg_try_advisory_lock(dramatiq_message_lock(q.queue_name, q.message_id))
returning q.message::text

-- name: write_messages
-- One message per row of `m` (message_id, job_id), embedded by the two inserts below: built
-- here rather than in Python and copied in (10,000 messages of a retry were 60 % of its time),
-- the JSON dramatiq's Message.asdict() gives (message_json in tasks/queue.py), under a new
-- message id each. `mtime` and the rest are the queue's defaults.
insert into dramatiq.queue (queue_name, message_id, "state", message)
select :queue_name, m.message_id, 'queued', jsonb_build_object(
  'queue_name', cast(:queue_name as text), 'actor_name', cast(:actor_name as text),
  'args', jsonb_build_array(m.job_id::text), 'kwargs', '{}'::jsonb,
  'options', cast(:options as jsonb), 'message_id', m.message_id::text,
  'message_timestamp', cast(:timestamp as bigint))

-- name: insert_messages
-- A message for each of :job_ids, in their order.
{{write_messages}}
from (
  select gen_random_uuid() as message_id, job_id, position
  from unnest(cast(:job_ids as uuid[])) with ordinality as job(job_id, position)
) m
order by m.position
returning message_id

-- name: insert_batch_messages
-- A message for each job of :batch_id, a batch written in this transaction (all unfinished,
-- nobody can have claimed them), in position order, read from the rows just written: one
-- range of review_jobs_batch_unfinished_position_idx. Returns how many, and one message id for
-- the wake-up.
with written as (
  {{write_messages}}
  from (
    select gen_random_uuid() as message_id, j.id as job_id, j.item_position
    from review_jobs j
    where j.batch_id = :batch_id and j.completed_at is null
  ) m
  order by m.item_position
  returning message_id
)
select count(*) as messages, (array_agg(message_id))[1] as first_id from written

-- name: ack_message
-- dramatiq-pg's ACK without its pg_notify on `dramatiq.<queue>.ack`: nothing listens on that
-- channel, yet each NOTIFY makes PostgreSQL signal every listening backend of the database at
-- commit (two per worker process), so every finished job woke every process's listeners.
-- Only a consumed message becomes done (Dramatiq acks a message its Retries middleware
-- already requeued, too).
update dramatiq.queue set "state" = 'done', message = cast(:message as jsonb)
where message_id = :message_id and queue_name = :queue_name and "state" = 'consumed'

-- name: nack_message
-- dramatiq-pg's NACK, likewise without its NOTIFY.
update dramatiq.queue set "state" = 'rejected', message = cast(:message as jsonb)
where message_id = :message_id and queue_name = :queue_name and "state" <> 'rejected'

-- name: unlock_messages
-- The consumer releases the advisory locks (dramatiq-pg's message_lock) of the messages its
-- threads finished since its last pass, in one statement instead of one each.
select count(pg_advisory_unlock(lock)) from unnest(cast(:locks as bigint[])) as unlocked (lock)
