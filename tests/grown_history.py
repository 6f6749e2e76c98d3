"""A database with a long history, built with generate_series in a few statements (tests of
query plans on grown data, and benchmarks/history.py at larger sizes).

One seller (BIG) has 1,000 complete batches, one complete 10,000-item batch where everything
failed, and unfinished work: QUEUED_BATCHES batches nobody started and one running batch.
Other sellers own the rest, in complete batches of 1,000. The rows are written as the product
would have left them: terminal jobs with their outcome, complete batches with their
completion and counts, review_job_counts exact.
Triggers are switched off for the session while building (session_replication_role), which
is why the counts and completions are written here explicitly.
"""

import json
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, text

from core.listings.snapshot import encode_snapshot
from tests.builders import draft

BIG = "history-seller"
BIG_BATCHES = 1000
QUEUED_BATCHES = 5
RESULT = {"qualityScore": 90, "missingFields": [], "issues": [], "suggestions": [],
          "requiresHumanReview": False, "provider": "heuristic", "model": "rules",
          "promptVersion": "v1", "usage": None}


@dataclass(frozen=True)
class GrownHistory:
    """What was built: the 10,000-item all-failed batch, a running batch, the job count."""

    failed_batch: str
    running_batch: str
    jobs: int


INSERT_BATCHES = text("""
insert into review_batches (id, owner, idempotency_key, request_hash, submitted_at, source_name,
  source_format)
select gen_random_uuid(), :owner_prefix || case when :owners = 1 then '' else (n % :owners)::text end,
  :key_prefix || n, repeat('a', 64), now() - interval '1 day' - n * interval '1 minute',
  'catalog.csv', 'csv'
from generate_series(1, :count) n
""")

INSERT_JOBS = text("""
insert into review_jobs (id, owner, batch_id, item_id, item_position, request_hash, payload,
  status, submitted_at, started_at, completed_at, attempts, result, error_code, error_message,
  execution_token, heartbeat_at)
select gen_random_uuid(), b.owner, b.id, 'item-' || p, p, repeat('a', 64), cast(:payload as jsonb),
  s.status, b.submitted_at,
  case when s.status <> 'QUEUED' then b.submitted_at end,
  case when s.status in ('SUCCEEDED', 'FAILED') then b.submitted_at + interval '30 seconds' end,
  case when s.status = 'QUEUED' then 0 else 1 end,
  case when s.status = 'SUCCEEDED' then cast(:result as jsonb) end,
  case when s.status = 'FAILED' then 'AI_RESPONSE_INVALID' end,
  case when s.status = 'FAILED' then 'Safe message.' end,
  case when s.status = 'RUNNING' then gen_random_uuid() end,
  case when s.status = 'RUNNING' then now() end
from review_batches b
cross join generate_series(1, :items) p
cross join lateral (select case
  when :mode = 'done' and p % 10 = 0 then 'FAILED' when :mode = 'done' then 'SUCCEEDED'
  when :mode = 'running' and p <= 10 then 'RUNNING' else upper(:mode) end as status) s
where b.idempotency_key like :key_prefix || '%'
""")

COMPLETE_BATCHES = text("""
update review_batches b set completed_at = c.last, succeeded = c.succeeded, failed = c.failed,
  cancelled = 0
from (select batch_id, max(completed_at) as last,
        count(*) filter (where status = 'SUCCEEDED') as succeeded,
        count(*) filter (where status = 'FAILED') as failed
      from review_jobs group by batch_id having bool_and(completed_at is not null)) c
where b.id = c.batch_id
""")

RECOUNT = text("""
delete from review_job_counts;
insert into review_job_counts (status, shard, count)
select status, 0, count(*) from review_jobs group by status
""")


def grow(engine: Engine, jobs: int) -> GrownHistory:
    """About `jobs` jobs in all (at least the big seller's share); returns what was built."""
    per_batch = max(10, jobs // 5000)
    failed_items = 10_000
    with engine.begin() as connection:
        connection.execute(text("set local session_replication_role = replica"))
        _batches(connection, BIG, 1, "big-", BIG_BATCHES, per_batch, "done")
        _batches(connection, BIG, 1, "failed-", 1, failed_items, "failed")
        _batches(connection, BIG, 1, "queued-", QUEUED_BATCHES, 1000, "queued")
        _batches(connection, BIG, 1, "running-", 1, 100, "running")
        others = max(0, jobs - BIG_BATCHES * per_batch - failed_items - QUEUED_BATCHES * 1000 - 100)
        _batches(connection, "seller-", 500, "other-", max(1, -(-others // 1000)), 1000, "done")
        connection.execute(COMPLETE_BATCHES)
        connection.execute(RECOUNT)
        failed = _key_batch(connection, "failed-1")
        running = _key_batch(connection, "running-1")
        total = connection.execute(text("select count(*) from review_jobs")).scalar_one()
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(
            text("analyze review_jobs, review_batches"))
    return GrownHistory(failed, running, total)


def _batches(connection: Connection, owner: str, owners: int, key_prefix: str, count: int,
             items: int, mode: str) -> None:
    connection.execute(INSERT_BATCHES, {"owner_prefix": owner, "owners": owners,
                                        "key_prefix": key_prefix, "count": count})
    connection.execute(INSERT_JOBS, {"payload": encode_snapshot(draft()), "result": json.dumps(RESULT),
                                     "items": items, "mode": mode, "key_prefix": key_prefix})


def _key_batch(connection: Connection, key: str) -> str:
    return str(connection.execute(text("select id from review_batches where idempotency_key = :k"),
                                  {"k": key}).scalar_one())
