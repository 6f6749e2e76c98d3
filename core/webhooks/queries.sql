-- name: register_webhook
-- One webhook per seller: registering again replaces the URL and the secret (the old secret
-- stops signing at once). The URL rule is webhooks_url_check.
insert into webhooks (owner, url, secret) values (:owner, :url, :secret)
on conflict (owner) do update set url = excluded.url, secret = excluded.secret,
  created_at = now(), active = true
returning owner, url, created_at, active

-- name: read_webhook
-- The seller's webhook (primary key), never its secret.
select owner, url, created_at, active from webhooks where owner = :owner

-- name: remove_webhook
-- Pending deliveries stay; the delivery step fails them as WEBHOOK_REMOVED.
delete from webhooks where owner = :owner returning owner

-- name: batch_deliveries
-- The seller's batch (primary key, checked against the owner) and its delivery, if any
-- (webhook_deliveries_batch_key): no row means no such batch for this seller.
select b.id as batch_id, d.id, d.status, d.attempts, d.next_attempt_at, d.last_status_code,
  d.last_error, d.created_at, d.delivered_at
from review_batches b left join webhook_deliveries d on d.batch_id = b.id
where b.id = :batch_id and b.owner = :owner

-- name: claim_due
-- Due pending deliveries (webhook_deliveries_due_idx), each claimed by one worker (SKIP LOCKED)
-- and leased: next_attempt_at moves past the HTTP call, so the claim commits before the call
-- and a worker that dies mid-call leaves a delivery that is due again when the lease ends
-- (at least once, same delivery id). The attempt is counted at the claim.
with due as (
  select id from webhook_deliveries
  where status = 'pending' and next_attempt_at <= now()
  order by next_attempt_at
  limit :limit
  for update skip locked
), claimed as (
  update webhook_deliveries d set attempts = d.attempts + 1,
    next_attempt_at = now() + make_interval(secs => :lease)
  from due where d.id = due.id
  returning d.id, d.owner, d.batch_id, d.payload, d.attempts
)
select c.id, c.owner, c.batch_id, c.payload, c.attempts, w.url, w.secret
from claimed c left join webhooks w on w.owner = c.owner and w.active

-- name: mark_delivered
-- Only a pending delivery: a late answer after the delivery failed for good changes nothing.
update webhook_deliveries set status = 'delivered', delivered_at = now(),
  last_status_code = :status_code, last_error = null
where id = :id and status = 'pending'

-- name: mark_attempt_failed
-- Back off before the next attempt, or fail for good once the attempts are spent (or the
-- seller removed the webhook).
update webhook_deliveries set last_status_code = :status_code, last_error = :error,
  next_attempt_at = now() + make_interval(secs => :delay),
  status = case when cast(:final as boolean) or attempts >= :max_attempts then 'failed' else 'pending' end
where id = :id and status = 'pending'
