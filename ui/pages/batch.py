"""One batch: live progress and its items, a page at a time."""

import uuid

import pandas as pd
import streamlit as st

from core.batches.pages import get_items_page
from core.batches.progress import get_summary
from ui.services import call, runtime

st.title("Batch detail")
loaded = call(runtime)
raw_id = st.query_params.get("batch", "")
try:
    batch_id = uuid.UUID(raw_id)
except ValueError:
    st.warning("No batch selected: open one from the upload page, or add ?batch=<id> to the URL.")
    st.stop()
if loaded is None:
    st.stop()
owner = loaded.settings.owner
if notice := st.session_state.pop("notice", None):
    st.info(notice)


@st.fragment(run_every=2)
def progress() -> None:
    summary = call(lambda: get_summary(loaded.engine, owner, batch_id))
    if summary is None:
        return
    done = summary.succeeded + summary.failed
    st.progress(done / summary.total, text=f"{summary.status}: {done} of {summary.total} reviewed")
    counts = [("Queued", summary.queued), ("Running", summary.running),
              ("Succeeded", summary.succeeded), ("Failed", summary.failed)]
    for column, (label, value) in zip(st.columns(4), counts):
        column.metric(label, value)


progress()
after = st.session_state.setdefault(f"after-{batch_id}", 0)
page = call(lambda: get_items_page(loaded.engine, owner, batch_id, after=after, limit=25,
                                   max_after=loaded.settings.max_batch_items))
if page is not None:
    st.dataframe(pd.DataFrame([{
        "#": item.position, "item": item.item_id, "status": item.status,
        "score": (item.result or {}).get("qualityScore"),
        "human review": (item.result or {}).get("requiresHumanReview"),
        "error": item.error_message,
    } for item in page.items]), hide_index=True)
    previous, following = st.columns(2)
    if previous.button("Previous page", disabled=after == 0):
        st.session_state[f"after-{batch_id}"] = max(0, after - 25)
        st.rerun()
    if following.button("Next page", disabled=page.next_after is None):
        st.session_state[f"after-{batch_id}"] = page.next_after
        st.rerun()
