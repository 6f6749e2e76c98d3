"""The upload page's column mapping: one table proposing what each of the seller's columns
holds (a module of its own, so tests can use its key without running the page)."""

import pandas as pd
import streamlit as st

from core.catalogs.mapping import TARGETS, ColumnMap, changed_targets, suggested_targets

MAPPING_HELP = ("Which field each of your columns holds. 'attribute' keeps the column as an extra "
                "detail of the listing; 'ignore' leaves it out.")


def mapping_key(columns: list[str]) -> str:
    """The editor's key: one per header, so each file shape keeps its own edits."""
    return "mapping-" + "\x1f".join(columns)


def mapping_editor(columns: list[str], has_errors: bool) -> ColumnMap | None:
    """One table for every column (edits are kept per header for the session, so re-uploading
    a fixed file keeps the mapping); returns only what differs from the columns' meaning."""
    with st.expander("Column mapping", expanded=has_errors):
        st.caption(MAPPING_HELP)
        proposed = suggested_targets(columns)
        table = pd.DataFrame({"Your column": columns, "Holds": [proposed[name] for name in columns]})
        edited = st.data_editor(
            table, hide_index=True, disabled=["Your column"], key=mapping_key(columns),
            column_config={"Holds": st.column_config.SelectboxColumn(options=TARGETS, required=True)})
    return changed_targets(dict(zip(edited["Your column"], edited["Holds"], strict=True))) or None
