"""The batch page's downloads: results as CSV or JSON, the fix-up file, and the report of the
rows left out at upload. Files are built only when a button is clicked (a render never reads
every item); their names say which batch and day they are. A click does not rerun the page
(ui.components.download), so the file is not lost to a rerun the click itself started."""

import streamlit as st
from sqlalchemy import Engine

from core.batches.export import fixup_count, fixup_rule, nothing_to_fix_message
from core.batches.progress import BatchSummary
from core.batches.rejected import rejected_rows_csv
from core.downloads import download_bytes, download_name
from ui.components import download
from ui.services import call

FORMATS = {"csv": ("Results (CSV)", "text/csv"), "json": ("Results (JSON)", "application/json")}


def downloads(engine: Engine, owner: str, summary: BatchSummary) -> None:
    st.subheader("Files")
    batch_id = summary.batch_id
    columns = st.columns(4)
    for column, (kind, (label, media_type)) in zip(columns, FORMATS.items(), strict=False):
        download(column, label, lambda kind=kind: download_bytes(engine, owner, batch_id, kind),
                 file_name(summary, kind), media_type)
    fixup(columns[2], engine, owner, summary)
    if summary.rejected_rows:
        download(columns[3], f"Rows left out at upload ({summary.rejected_rows:,})",
                 lambda: rejected_rows_csv(engine, owner, batch_id)[1],
                 f"{file_name(summary, 'csv').removesuffix('-results.csv')}-rejected-rows.csv", "text/csv")


def fixup(column, engine: Engine, owner: str, summary: BatchSummary) -> None:
    """The fix-up file once the batch is complete (its content is final then)."""
    if summary.status != "COMPLETED":
        column.button("Fix-up file", disabled=True, help="Available once the batch is complete.")
        return
    to_fix = call(lambda: fixup_count(engine, owner, summary.batch_id)) or 0
    download(column, f"Fix-up file ({to_fix:,} listings)",
             lambda: download_bytes(engine, owner, summary.batch_id, "fixup"),
             file_name(summary, "fixup"), "text/csv", disabled=not to_fix, help=fixup_rule())
    if not to_fix:
        column.caption(nothing_to_fix_message())


def file_name(summary: BatchSummary, kind: str) -> str:
    return download_name(summary.batch_id, kind, batch_name=summary.name, source_name=summary.source_name)
