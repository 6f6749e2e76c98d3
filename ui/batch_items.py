"""A batch's listings as a table: views with counts, search by item id or title prefix, sort
by position or score, keyset pages; selecting a row opens its review beside the listing as
submitted. Seller and model text only ever appears in table cells or st.text."""

from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy import Engine

from core.batches.pages import VIEWS, BatchItem, get_items_page, item_counts, outcome_line
from core.batches.progress import BatchSummary
from core.batches.verdicts import VERDICT_WORDS, state_word
from ui.components import current_cursor, pager, review_card
from ui.services import call, runtime

VIEW_LABELS = {"all": "All", "needs_attention": "Needs attention", "needs_human_review": "Needs human review",
               "failed": "Failed", "cancelled": "Cancelled", "pending": "Pending"}
SORTS = {"position": "File order", "score": "Lowest score first"}
PAGE_SIZE = 25
TABLE_COLUMNS = {"#": st.column_config.NumberColumn(width="small"),
                 "Title": st.column_config.TextColumn(width="medium"),
                 "Verdict": st.column_config.TextColumn(width="medium"),
                 "Score": st.column_config.TextColumn(width="small"),  # blank until reviewed
                 "Issues": st.column_config.NumberColumn(width="small")}


def items_section(engine: Engine, owner: str, summary: BatchSummary) -> None:
    batch_id = summary.batch_id
    counts = call(lambda: item_counts(engine, owner, batch_id))
    if counts is None:
        return
    st.markdown(f"**{outcome_line(counts)}**")
    view = st.segmented_control(
        "Show", VIEWS, default="all", key=f"view-{batch_id}",
        format_func=lambda name: f"{VIEW_LABELS[name]} ({counts.of(name):,})") or "all"
    search_column, sort_column = st.columns([3, 1])
    search = search_column.text_input("Search by item id or title (start of it)", max_chars=100,
                                      key=f"search-{batch_id}").strip()
    sort = sort_column.selectbox("Sort", list(SORTS), format_func=SORTS.get, key=f"sort-{batch_id}")
    pages_key = f"items-{batch_id}-{view}-{sort}-{search}"
    page = call(lambda: get_items_page(
        engine, owner, batch_id, view=view, search=search or None, sort=sort,
        cursor=current_cursor(pages_key, None), limit=PAGE_SIZE,
        max_after=runtime().settings.max_batch_items))
    if page is None:
        return
    if not page.items:
        st.caption("No listing matches this view and search." if search or view != "all"
                   else "No listings.")
        return
    chosen = items_table(page.items, f"table-{pages_key}")
    pager(pages_key, page.next_cursor)
    if chosen is not None:
        item_detail(chosen)


def items_table(items: list[BatchItem], key: str) -> BatchItem | None:
    """The page as a table; the selected row's item (None when nothing is selected)."""
    table = pd.DataFrame([_row(item) for item in items])
    selection = st.dataframe(table, hide_index=True, on_select="rerun", selection_mode="single-row", key=key,
                             column_config=TABLE_COLUMNS)
    rows = selection.selection.rows if selection else []
    return items[rows[0]] if rows else None


def _row(item: BatchItem) -> dict[str, Any]:
    return {"#": item.position, "Item id": item.item_id, "Title": item.title,
            "State": state_word(item.status),
            "Verdict": VERDICT_WORDS[item.verdict] if item.verdict else "",
            "Score": "" if item.score is None else str(item.score),
            "Human review": "yes" if item.human_review else "",
            "Issues": item.issue_count}


def item_detail(item: BatchItem) -> None:
    listing, review = st.columns(2)
    with listing:
        st.caption(f"Listing #{item.position} as submitted")
        draft = item.listing
        st.text(f"Item id: {item.item_id}\nTitle: {draft.title}\nCategory: {draft.category}\n"
                f"Price: {draft.price}")
        st.text(draft.description)
        if draft.attributes:
            st.dataframe(pd.DataFrame({"attribute": list(draft.attributes),
                                       "value": list(draft.attributes.values())}), hide_index=True)
    with review:
        st.caption(f"{state_word(item.status)} · review")
        body = item.to_json_dict()
        review_card(body["result"], body["error"], item.status)
