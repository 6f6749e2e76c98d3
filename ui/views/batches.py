"""Recent batches with their progress, keyset paging: a seller's own, filtered by status; an
operator's of every seller, with the seller and a seller filter."""

import uuid

import streamlit as st

from core.batches.progress import BatchSummary
from core.batches.recent import list_batches
from core.costs.ledger import Cost, batches_costs
from core.identity.oversight import every_batch, known_sellers
from ui.components import current_cursor, pager, plain_label
from ui.services import call, runtime, viewer

STATUSES = {"All": None, "Queued": "QUEUED", "Running": "RUNNING", "Completed": "COMPLETED"}

st.title("Batches")
loaded = call(runtime)
if loaded is None:
    st.stop()
who, engine = viewer(), loaded.engine


def show(batch: BatchSummary, cost: Cost | None, seller: str | None = None) -> None:
    with st.container(border=True):
        name, status, outcome, spent = st.columns([3, 1, 1, 1])
        name.page_link("views/batch.py", label=plain_label(batch.source_name or str(batch.batch_id)),
                       query_params={"batch": str(batch.batch_id)})
        name.caption(f"Submitted {batch.submitted_at:%Y-%m-%d %H:%M:%S %Z}" +
                     (f" · seller {plain_label(seller)}" if seller else ""))
        status.text(batch.status)
        outcome.text(batch.outcome or "in progress")
        spent.text("cost " + (cost.amount_text() if cost else "unknown"))
        st.progress(batch.done / batch.total, text=f"{batch.done} of {batch.total} done: {batch.succeeded} "
                    f"succeeded, {batch.failed} failed, {batch.cancelled} cancelled")


def page_costs(batches: list[BatchSummary], owner: str | None) -> dict[uuid.UUID, Cost]:
    """The shown page's costs in one query (None each when the database is unreachable)."""
    ids = [batch.batch_id for batch in batches]
    return call(lambda: batches_costs(engine, ids, loaded.settings.prices_file, owner=owner)) or {}


def own_batches() -> None:
    label = st.segmented_control("Status", list(STATUSES), default="All") or "All"
    pages_key = f"batches-{label}"
    recent = call(lambda: list_batches(engine, who.seller_id, status=STATUSES[label],
                                       before=current_cursor(pages_key, None), limit=20))
    if recent is None:
        st.stop()
    if not recent.items:
        st.info("No batches yet: upload a catalog to start.")
    costs = page_costs(recent.items, who.seller_id)
    for batch in recent.items:
        show(batch, costs.get(batch.batch_id))
    pager(pages_key, recent.next_before)


def every_sellers_batches() -> None:
    """Every seller's batches; a status filter narrows each page as shown (pages may be short)."""
    sellers = call(lambda: known_sellers(engine)) or {}
    chosen = st.selectbox("Seller", list(sellers), index=None, placeholder="Every seller",
                          format_func=lambda seller: sellers[seller])
    label = st.segmented_control("Status", list(STATUSES), default="All") or "All"
    pages_key = f"every-batch-{chosen}"
    page = call(lambda: every_batch(engine, owner=chosen, before=current_cursor(pages_key, None)))
    if page is None:
        st.stop()
    shown = [item for item in page.items if STATUSES[label] in (None, item.summary.status)]
    if not shown:
        st.info("No batches yet" + ("." if label == "All" else f" that are {label.lower()} on this page."))
    costs = page_costs([item.summary for item in shown], None)
    for item in shown:
        show(item.summary, costs.get(item.summary.batch_id), item.seller_name)
    pager(pages_key, page.next_before)


if who.operator:
    every_sellers_batches()
else:
    own_batches()
