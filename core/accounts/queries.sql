-- name: insert_key
-- Only the hash of the secret is stored; the secret itself is shown once, at creation.
insert into api_keys (id, owner, key_hash) values (:id, :owner, :key_hash)

-- name: list_keys
-- Every key (the CLI), or one seller's (their API keys page; index api_keys_owner_idx).
select id, owner, created_at, revoked_at from api_keys
where cast(:owner as text) is null or owner = cast(:owner as text)
order by created_at, id

-- name: revoke_key
-- Idempotent: a revoked key keeps its first revocation time. greatest() keeps
-- revoked_at >= created_at even if the clock moved backwards.
update api_keys set revoked_at = coalesce(revoked_at, greatest(current_timestamp, created_at))
where id = :id and (cast(:owner as text) is null or owner = cast(:owner as text))
returning id, owner, created_at, revoked_at

-- name: owner_of_key
-- Looked up by the hash (unique index), so no secret is ever compared in application code.
select owner from api_keys where key_hash = :key_hash and revoked_at is null
