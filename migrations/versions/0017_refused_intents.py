"""Economy intents the provider keeps refusing: provider_batches.create_refusals counts the
refused creates of an intent, and a new state 'refused' marks an intent given up on (its jobs
went back to standard mode; core/economy/submit.py). A refused intent never had a provider id,
like a 'preparing' one. The due index covers only the states that are still claimed, so given-up
intents never lie in the claims' path.

Online-safe (migrations/online.py): the column has a constant default (instant); each check is
added NOT VALID in the statement that drops the old one (a brief lock, no scan), then validated
in a transaction of its own (online.validate_constraint: SHARE UPDATE EXCLUSIVE while it scans);
the new index is built concurrently before the old one is dropped.

Revision ID: 0017_refused_intents
Revises: 0016_gemini_batches
"""

from migrations import online

revision = "0017_refused_intents"
down_revision = "0016_gemini_batches"

OPEN_STATES = "state in ('preparing', 'submitted', 'cancelling')"


def _replace_check(name: str, condition: str) -> None:
    online.execute(f"alter table provider_batches drop constraint {name}, "
                   f"add constraint {name} check ({condition}) not valid")
    online.validate_constraint("provider_batches", name)


def _checks(states: str, unsent: str) -> None:
    _replace_check("provider_batches_state_check", f"state in ({states})")
    _replace_check("provider_batches_submitted_check",
                   f"(state in ({unsent})) = (provider_batch_id is null) "
                   "and (provider_batch_id is null) = (submitted_at is null)")


def upgrade() -> None:
    online.execute("alter table provider_batches add column create_refusals integer not null default 0")
    online.execute("alter table provider_batches add constraint provider_batches_create_refusals_check "
                   "check (create_refusals >= 0) not valid")
    online.validate_constraint("provider_batches", "provider_batches_create_refusals_check")
    _checks("'preparing', 'submitted', 'cancelling', 'finished', 'refused'", "'preparing', 'refused'")
    online.create_index_concurrently("provider_batches_open_idx",
                                     f"on provider_batches (next_poll_at) where {OPEN_STATES}")
    online.drop_index_concurrently("provider_batches_due_idx")


def downgrade() -> None:
    """A refused intent becomes 'preparing' again: the earlier code drops it once taken up (its
    jobs no longer run for it)."""
    online.create_index_concurrently("provider_batches_due_idx",
                                     "on provider_batches (next_poll_at) where state <> 'finished'")
    online.drop_index_concurrently("provider_batches_open_idx")
    online.execute("update provider_batches set state = 'preparing' where state = 'refused'")
    _checks("'preparing', 'submitted', 'cancelling', 'finished'", "'preparing'")
    online.execute("alter table provider_batches drop column create_refusals")
