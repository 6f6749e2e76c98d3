"""Upload a catalog, see every problem, submit."""

from pathlib import Path

import pandas as pd
import streamlit as st

from core.batches.submission import submit_catalog
from core.catalogs.check import check_catalog
from core.catalogs.mapping import TARGETS, changed_targets, suggested_target
from core.catalogs.report import error_report_csv
from ui.components import plain_label
from ui.services import call, runtime, viewer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_catalogs" / "electronics_and_more.csv"

st.title("Upload catalog")
loaded = call(runtime)
if loaded is None:
    st.stop()
settings = loaded.settings
st.caption(f"CSV, JSON or JSONL; up to {settings.max_batch_items:,} listings and "
           f"{settings.max_upload_megabytes} MB per file.")
if SAMPLE.is_file():
    st.download_button("New here? Download a sample catalog", SAMPLE.read_bytes(), SAMPLE.name,
                       "text/csv")
upload = st.file_uploader("Catalog file", type=["csv", "tsv", "json", "jsonl", "ndjson"])
if upload is None:
    st.stop()
data = upload.getvalue()
first_look = call(lambda: check_catalog(data, upload.name, settings.max_batch_items,
                                        settings.max_upload_bytes))
if first_look is None:
    st.stop()
column_map = None
if first_look.columns:
    # Remembered per header for the session, so re-uploading a fixed file keeps the mapping.
    choices = st.session_state.setdefault("mappings", {}).setdefault("|".join(first_look.columns), {})
    with st.expander("Column mapping", expanded=not first_look.ok):
        st.caption("Which of your columns holds each field; other columns become attributes.")
        for name in first_look.columns:
            chosen = choices.get(name, suggested_target(name))
            choices[name] = st.selectbox(plain_label(name), TARGETS, index=TARGETS.index(chosen),
                                         key=f"map-{name}")
    column_map = changed_targets(choices) or None
check = first_look if column_map is None else call(lambda: check_catalog(
    data, upload.name, settings.max_batch_items, settings.max_upload_bytes, column_map))
if check is None:
    st.stop()
if not check.ok:
    st.error(f"{check.error_total:,} problem(s) found; nothing can be submitted until they are fixed. "
             f"{check.shown_note}")
    st.dataframe(pd.DataFrame([error.to_json_dict() for error in check.errors]), hide_index=True)
    st.download_button("Download the error report (CSV)", error_report_csv(check.errors),
                       f"{Path(upload.name).stem}-errors.csv", "text/csv")
    st.stop()
st.success(f"{len(check.items)} listings are ready.")
st.dataframe(pd.DataFrame([
    {"row": item.row, "item_id": item.item_id, "title": item.draft.title,
     "category": item.draft.category, "price": str(item.draft.price)}
    for item in check.items
]), hide_index=True)
if st.button("Submit for review", type="primary"):
    accepted = call(lambda: submit_catalog(loaded.engine, loaded.queue, settings,
                                           owner=viewer().seller_id, filename=upload.name, data=data,
                                           column_map=column_map))
    if accepted is not None:
        if not accepted.created:
            st.session_state["notice"] = "This file was already submitted; here is that batch."
        st.query_params["batch"] = str(accepted.batch_id)
        st.switch_page("views/batch.py", query_params={"batch": str(accepted.batch_id)})
