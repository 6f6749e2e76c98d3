"""Upload a catalog, see every problem, submit."""

import pandas as pd
import streamlit as st

from core.batches.submission import submit_catalog
from core.catalogs.check import check_catalog
from ui.services import call, runtime

st.title("Upload catalog")
loaded = call(runtime)
if loaded is None:
    st.stop()
settings = loaded.settings
st.caption(f"CSV, JSON or JSONL; up to {settings.max_batch_items:,} listings and "
           f"{settings.max_upload_bytes // (1024 * 1024)} MB per file.")
upload = st.file_uploader("Catalog file", type=["csv", "tsv", "json", "jsonl", "ndjson"])
if upload is None:
    st.stop()
data = upload.getvalue()
check = call(lambda: check_catalog(data, upload.name, settings.max_batch_items,
                                   settings.max_upload_bytes))
if check is None:
    st.stop()
if not check.ok:
    st.error(f"{len(check.errors)} problem(s) found; nothing can be submitted until they are fixed.")
    st.dataframe(pd.DataFrame([error.to_json_dict() for error in check.errors]), hide_index=True)
    st.stop()
st.success(f"{len(check.items)} listings are ready.")
st.dataframe(pd.DataFrame([
    {"row": item.row, "item_id": item.item_id, "title": item.draft.title,
     "category": item.draft.category, "price": str(item.draft.price)}
    for item in check.items
]), hide_index=True)
if st.button("Submit for review", type="primary"):
    accepted = call(lambda: submit_catalog(loaded.engine, loaded.queue, settings,
                                           owner=settings.owner, filename=upload.name, data=data))
    if accepted is not None:
        if not accepted.created:
            st.session_state["notice"] = "This file was already submitted; here is that batch."
        st.query_params["batch"] = str(accepted.batch_id)
        st.switch_page("pages/batch.py", query_params={"batch": str(accepted.batch_id)})
