"""The batch workflow a seller works in: an optional batch name, partial acceptance (how many
rows were left out and their error report), the column mapping the file was read with (so the
fix-up file gives the seller's own columns back), one retry per batch (a retry chain never
forks or loops), and the indexes behind searching and sorting a batch's items.

Online-safe (migrations/online.py): the new columns are nullable or have constant defaults
(no table rewrite), constraints are added NOT VALID then validated, indexes are built
concurrently.

Revision ID: 0011_batch_workflow
Revises: 0010_webhooks
"""

from migrations import online

revision = "0011_batch_workflow"
down_revision = "0010_webhooks"

COLUMNS = r"""
-- name: what the seller calls the batch (shown everywhere; a retry shows "Retry of <name>"),
-- printable text without control characters.
-- rejected_rows / rejected_report: rows left out when the seller chose to submit the valid
-- rows only, and their error report (the rows' bounded error list, our own messages only).
-- column_map: which of the file's columns the seller mapped to which listing field.
alter table review_batches
  add column name varchar(120),
  add column rejected_rows integer not null default 0,
  add column rejected_report jsonb,
  add column column_map jsonb,
  add constraint review_batches_name_check
    check (name is null or (length(btrim(name)) between 1 and 120 and name !~ '[\x00-\x1f\x7f]')) not valid,
  add constraint review_batches_rejected_check
    check (rejected_rows >= 0 and (rejected_rows = 0) = (rejected_report is null)) not valid,
  add constraint review_batches_rejected_report_check
    check (rejected_report is null or jsonb_typeof(rejected_report) = 'array') not valid,
  add constraint review_batches_column_map_check
    check (column_map is null or jsonb_typeof(column_map) = 'object') not valid
"""

CONSTRAINTS = ("review_batches_name_check", "review_batches_rejected_check",
               "review_batches_rejected_report_check", "review_batches_column_map_check")

INDEXES = {
    # Search a batch's items by item id prefix (`like 'SKU-10%'`, byte order).
    "review_jobs_batch_item_prefix_idx":
        "on review_jobs (batch_id, item_id text_pattern_ops) where batch_id is not null",
    # Search a batch's items by title prefix, case-insensitively.
    "review_jobs_batch_title_prefix_idx":
        "on review_jobs (batch_id, lower(payload->>'title') text_pattern_ops) where batch_id is not null",
    # A batch's reviewed items by score (keyset on score, then position).
    "review_jobs_batch_score_idx":
        "on review_jobs (batch_id, ((result->>'qualityScore')::integer), item_position) "
        "where batch_id is not null and result is not null",
    # A batch is retried at most once: the retry of a retry extends one chain, never a fork.
    "review_batches_retry_of_key": "on review_batches (retry_of) where retry_of is not null",
}


def upgrade() -> None:
    online.execute(COLUMNS)
    for name in CONSTRAINTS:
        online.execute(f"alter table review_batches validate constraint {name}")
    for name, definition in INDEXES.items():
        unique = name.endswith("_key")
        online.create_index_concurrently(name, definition, unique=unique)
    online.drop_index_concurrently("review_batches_retry_of_idx")


def downgrade() -> None:
    online.create_index_concurrently(
        "review_batches_retry_of_idx", "on review_batches (retry_of) where retry_of is not null")
    for name in INDEXES:
        online.drop_index_concurrently(name)
    online.execute("""
alter table review_batches drop column name, drop column rejected_rows,
  drop column rejected_report, drop column column_map
""")
