"""Recent batches with their progress; filter by status, keyset paging."""

import streamlit as st

from core.batches.recent import list_batches
from ui.components import current_cursor, pager, plain_label
from ui.services import call, runtime

STATUSES = {"All": None, "Queued": "QUEUED", "Running": "RUNNING", "Completed": "COMPLETED"}

st.title("Batches")
loaded = call(runtime)
if loaded is None:
    st.stop()
label = st.segmented_control("Status", list(STATUSES), default="All") or "All"
pages_key = f"batches-{label}"
recent = call(lambda: list_batches(loaded.engine, loaded.settings.owner, status=STATUSES[label],
                                   before=current_cursor(pages_key, None), limit=20))
if recent is None:
    st.stop()
if not recent.items:
    st.info("No batches yet: upload a catalog to start.")
for batch in recent.items:
    with st.container(border=True):
        name, status, outcome = st.columns([3, 1, 1])
        name.page_link("pages/batch.py", label=plain_label(batch.source_name or str(batch.batch_id)),
                       query_params={"batch": str(batch.batch_id)})
        name.caption(f"Submitted {batch.submitted_at:%Y-%m-%d %H:%M:%S %Z}")
        status.text(batch.status)
        outcome.text(batch.outcome or "in progress")
        st.progress(batch.done / batch.total, text=f"{batch.done} of {batch.total} done: {batch.succeeded} "
                    f"succeeded, {batch.failed} failed, {batch.cancelled} cancelled")
pager(pages_key, recent.next_before)
