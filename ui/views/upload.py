"""Upload a catalog, see every problem first, map columns in one compact table, submit all
rows (or, by choice, only the valid ones)."""

from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from core.batches.submission import submit_catalog
from core.catalogs.check import CatalogCheck, check_catalog
from core.catalogs.mapping import ColumnMap
from core.catalogs.report import error_report_csv
from core.economy.mode import ECONOMY_PROVIDERS, automatic_rule, mode_for
from core.settings import Settings
from ui.column_mapping import mapping_editor
from ui.components import download, post_notice
from ui.services import call, runtime, viewer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_catalogs" / "electronics_and_more.csv"
MODE_LABELS = {"standard": "Standard (minutes)", "economy": "Economy (within 24 h, about half the price)"}
AUTOMATIC = "automatic"  # the seller chose no mode: core decides (mode_for)
def read_upload(settings: Settings) -> tuple[str, bytes] | None:
    st.caption(f"CSV, JSON or JSONL; up to {settings.max_batch_items:,} listings and "
               f"{settings.max_upload_megabytes} MB per file.")
    if SAMPLE.is_file():
        download(st, "New here? Download a sample catalog", SAMPLE.read_bytes(), SAMPLE.name, "text/csv")
    upload = st.file_uploader("Catalog file", type=["csv", "tsv", "json", "jsonl", "ndjson"])
    return None if upload is None else (upload.name, upload.getvalue())


def checked(settings: Settings, name: str, data: bytes, column_map: ColumnMap | None) -> CatalogCheck | None:
    return call(lambda: check_catalog(data, name, settings.max_batch_items, settings.max_upload_bytes,
                                      column_map))


def show_problems(check: CatalogCheck, file_name: str) -> None:
    valid = len(check.items) if check.valid_rows_acceptable else 0
    st.error(f"{check.error_total:,} problem(s) found. Fix them and upload again"
             + (f", or submit the {valid:,} valid listing(s) only and leave the {check.rejected_rows:,} "
                f"invalid row(s) out (below)." if valid else ".")
             + f" {check.shown_note}")
    st.dataframe(pd.DataFrame([error.to_json_dict() for error in check.errors]), hide_index=True)
    download(st, "Download the error report (CSV)", error_report_csv(check.errors),
             f"{Path(file_name).stem}-errors.csv", "text/csv")


def show_ready(check: CatalogCheck) -> None:
    st.success(f"{len(check.items):,} listings are ready.")
    st.dataframe(pd.DataFrame([
        {"row": item.row, "item_id": item.item_id, "title": item.draft.title,
         "category": item.draft.category, "price": str(item.draft.price)}
        for item in check.items
    ]), hide_index=True)


def submit(file_name: str, data: bytes, column_map: ColumnMap | None, options: dict[str, Any],
           valid_only: bool) -> None:
    loaded = call(runtime)
    if loaded is None:
        return
    accepted = call(lambda: submit_catalog(
        loaded.engine, loaded.queue, loaded.settings, owner=viewer().seller_id, filename=file_name,
        data=data, column_map=column_map, accept_valid_rows=valid_only, **options))
    if accepted is not None:
        if not accepted.created:
            post_notice("This file was already submitted; here is that batch.")
        st.switch_page("views/batch.py", query_params={"batch": str(accepted.batch_id)})


def mode_labels(settings: Settings, count: int) -> dict[str, str]:
    """The Mode choices; "Automatic" first (the default) when LISTING_REVIEW_ECONOMY_MIN_ITEMS is
    set, saying which mode it means for these `count` listings."""
    rule = automatic_rule(settings.provider, settings.economy_min_items)
    if rule is None:
        return MODE_LABELS
    decided = mode_for(None, settings.provider, count, settings.economy_min_items)
    return {AUTOMATIC: f"{rule} (these {count:,}: {decided})"} | MODE_LABELS


def batch_options(settings: Settings, count: int) -> dict[str, Any]:
    """The batch's name, budget and mode as the seller set them (submit_catalog's keywords) for
    `count` listings."""
    name = st.text_input("Batch name (optional)", max_chars=120,
                         help="Shown on the Batches list and the batch page.")
    budget = st.number_input("Budget in USD (optional)", value=None, min_value=0.01, max_value=1_000_000.0,
                             step=1.0, format="%.2f", help="Once the batch's cost reaches it, the remaining "
                             "listings stop as Budget exceeded; retry the batch to finish them.")
    mode = None
    if settings.provider in ECONOMY_PROVIDERS:
        labels = mode_labels(settings, count)
        mode = st.radio("Mode", list(labels), format_func=labels.get, horizontal=True,
                        help="Economy sends the batch through the provider's Batch API: results "
                             "within 24 hours at about half the price.")
    return {"name": name or None, "budget": budget, "mode": None if mode == AUTOMATIC else mode}


def upload_page() -> None:
    st.title("Upload catalog")
    loaded = call(runtime)
    if loaded is None:
        return
    settings = loaded.settings
    uploaded = read_upload(settings)
    if uploaded is None:
        return
    file_name, data = uploaded
    first_look = checked(settings, file_name, data, None)
    if first_look is None:
        return
    problems = st.container()  # errors go first, above the mapping that may fix them
    column_map = mapping_editor(first_look.columns, not first_look.ok) if first_look.columns else None
    check = first_look if column_map is None else checked(settings, file_name, data, column_map)
    if check is None:
        return
    options = batch_options(settings, len(check.items))
    if not check.ok:
        with problems:
            show_problems(check, file_name)
        valid_only = f"Submit the {len(check.items):,} valid listing(s) only"
        if check.valid_rows_acceptable and st.button(valid_only):
            submit(file_name, data, column_map, options, valid_only=True)
        return
    show_ready(check)
    if st.button("Submit for review", type="primary"):
        submit(file_name, data, column_map, options, valid_only=False)


upload_page()
