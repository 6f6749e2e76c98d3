-- name: upsert_seller
-- A sign-in: the first one creates the seller, later ones refresh the e-mail and name the
-- provider now reports (they may change; issuer + subject, hence seller_id, cannot).
insert into sellers (seller_id, issuer, subject, email, display_name)
values (:seller_id, :issuer, :subject, :email, :display_name)
on conflict (seller_id) do update
  set email = excluded.email, display_name = excluded.display_name,
    last_seen_at = greatest(current_timestamp, sellers.created_at)

-- name: batch_owner
-- Whose batch this is (primary key): only an operator's pages ask.
select owner from review_batches where id = :batch_id

-- name: seller_name
-- How an operator's pages name a batch's seller (primary key); an owner who never signed in
-- (the CLI's --owner, an API key's) has no row and is shown by id.
select coalesce(display_name, email, seller_id) from sellers where seller_id = :seller_id

-- name: every_recent_batch
-- The operator's list: one page of every seller's batches (or one seller's), newest first,
-- keyset by (submitted_at, id) descending (index review_batches_recent_idx, or
-- review_batches_owner_recent_idx with a seller), with the seller's name where one signed in.
select b.id, b.owner, coalesce(s.display_name, s.email, b.owner) as seller_name
from review_batches b
left join sellers s on s.seller_id = b.owner
where (cast(:owner as text) is null or b.owner = cast(:owner as text))
  and (cast(:before_at as timestamptz) is null
    or (b.submitted_at, b.id) < (cast(:before_at as timestamptz), cast(:before_id as uuid)))
order by b.submitted_at desc, b.id desc
limit :limit_plus_one

-- name: known_sellers
-- The operator's seller filter: every owner with a batch, by name (a bounded list: owners are
-- few next to batches). Walks the owner index's distinct values.
select o.owner, coalesce(s.display_name, s.email, o.owner) as seller_name
from (select distinct owner from review_batches) o
left join sellers s on s.seller_id = o.owner
order by seller_name, o.owner
limit 500

-- name: record_operator_action
-- The audit row of an operator's cancel or retry, written in that action's own transaction.
insert into operator_actions (actor, action, batch_id, batch_owner)
values (:actor, :action, :batch_id, :batch_owner)

-- name: operator_actions
-- The batch page's audit trail, newest first (index operator_actions_batch_idx).
select a.action, a.at, coalesce(s.display_name, s.email, a.actor) as actor_name
from operator_actions a
left join sellers s on s.seller_id = a.actor
where a.batch_id = :batch_id
order by a.at desc, a.id desc
limit 50
