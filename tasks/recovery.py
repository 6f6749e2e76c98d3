"""The recovery loop every worker process runs: heartbeats for its own attempts, release of
jobs whose worker stopped heartbeating, and re-sending of orphaned dramatiq-pg messages.

dramatiq-pg marks a message `consumed` and holds a session advisory lock on it while it is
processed; when the process dies the lock vanishes but the message stays `consumed`, and
dramatiq-pg itself only looks again when a consumer starts (or at random, ~10 min).
"""

import logging
import threading

from sqlalchemy import Engine, text

from core.jobs.heartbeat import InFlight, beat
from core.jobs.queue import JobQueue
from core.jobs.recovery import recover_stale_jobs
from core.settings import Settings

log = logging.getLogger(__name__)

# Consumed, nobody holds its lock, older than the grace (dramatiq-pg's ack releases the lock
# a moment before it marks the message done), and its job never started: back to queued,
# with the NOTIFY dramatiq-pg's broker sends, so an idle consumer takes it at once. Messages
# of finished jobs are just marked done. RUNNING jobs are left to the heartbeat lease.
REQUEUE_ORPHANED_MESSAGES = text("""
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
""")


def requeue_orphaned_messages(engine: Engine, queue_name: str, grace_seconds: float) -> int:
    """Re-send messages whose consumer is gone; returns how many were re-sent."""
    params = {"queue_names": [queue_name, f"{queue_name}.DQ"], "grace_seconds": grace_seconds}
    with engine.begin() as connection:
        count = connection.execute(REQUEUE_ORPHANED_MESSAGES, params).scalar_one()
    if count:
        log.warning("re-sent %d orphaned message(s) whose consumer is gone", count)
    return count


def recovery_pass(engine: Engine, queue: JobQueue, in_flight: InFlight, settings: Settings) -> None:
    """One round: prove our attempts alive first, then recover other processes' work."""
    beat(engine, in_flight)
    recover_stale_jobs(engine, queue, settings.job_lease)
    requeue_orphaned_messages(engine, settings.queue_name, settings.recovery_interval)


def start_recovery_loop(
    engine: Engine, queue: JobQueue, in_flight: InFlight, settings: Settings, stop: threading.Event
) -> threading.Thread:
    """A daemon thread running recovery_pass every `recovery_interval` until `stop` is set.

    Failures (database down) are logged and the loop carries on: it is how work resumes.
    """

    def loop() -> None:
        while not stop.wait(settings.recovery_interval):
            try:
                recovery_pass(engine, queue, in_flight, settings)
            except Exception as error:
                log.warning("recovery pass failed: %s", type(error).__name__)

    thread = threading.Thread(target=loop, name="listing-review-recovery", daemon=True)
    thread.start()
    return thread
