"""Recent batches with their progress, keyset paging: a seller's own, filtered by status; an
operator's of every seller, with the seller and a seller filter. The list refreshes on its own
while any batch on it is unfinished."""

import uuid
from collections.abc import Callable

import streamlit as st

from core.batches.progress import BatchSummary
from core.batches.recent import list_batches
from core.batches.verdicts import batch_state_text
from core.costs.ledger import Cost, batches_costs
from core.identity.oversight import every_batch, known_sellers
from ui.components import current_cursor, pager, plain_label
from ui.services import call, runtime, viewer

STATUSES = {"All": None, "Queued": "QUEUED", "Running": "RUNNING", "Completed": "COMPLETED"}
REFRESH_SECONDS = 3.0


def show(batch: BatchSummary, cost: Cost | None, seller: str | None = None) -> None:
    with st.container(border=True):
        name, state, spent = st.columns([4, 2, 1])
        name.page_link("views/batch.py", label=plain_label(batch.display_name),
                       query_params={"batch": str(batch.batch_id)})
        name.caption(" · ".join(part for part in (
            plain_label(batch.source_name) if batch.source_name and batch.name else "",
            f"submitted {batch.submitted_at:%Y-%m-%d %H:%M:%S %Z}",
            f"seller {plain_label(seller)}" if seller else "") if part))
        state.text(batch_state_text(batch.status, batch.failed, batch.cancelled))
        spent.text("cost " + (cost.amount_text() if cost else "unknown"))
        st.progress(batch.done / batch.total,
                    text=f"{batch.done:,} of {batch.total:,} done: {batch.failed:,} failed, "
                         f"{batch.cancelled:,} cancelled")


def page_costs(batches: list[BatchSummary], owner: str | None) -> dict[uuid.UUID, Cost]:
    """The shown page's costs in one query (None each when the database is unreachable)."""
    loaded = runtime()
    ids = [batch.batch_id for batch in batches]
    return call(lambda: batches_costs(loaded.engine, ids, loaded.settings.prices_file, owner=owner)) or {}


def live(render: Callable[[], bool]) -> None:
    """Run `render` (which says whether anything shown is unfinished) in a fragment that
    refreshes every few seconds only while something is; the page reruns to switch."""
    key = "batches-refresh"

    def fragment() -> None:
        wanted = REFRESH_SECONDS if render() else None
        if wanted != st.session_state.get(key):
            st.session_state[key] = wanted
            st.rerun(scope="app")

    st.fragment(fragment, run_every=st.session_state.get(key))()


def own_batches() -> bool:
    who, engine = viewer(), runtime().engine
    label = st.segmented_control("Status", list(STATUSES), default="All", key="own-status") or "All"
    pages_key = f"batches-{label}"
    recent = call(lambda: list_batches(engine, who.seller_id, status=STATUSES[label],
                                       before=current_cursor(pages_key, None), limit=20))
    if recent is None:
        return False
    if not recent.items:
        st.info("No batches yet: upload a catalog to start.")
    costs = page_costs(recent.items, who.seller_id)
    for batch in recent.items:
        show(batch, costs.get(batch.batch_id))
    pager(pages_key, recent.next_before)
    return any(batch.status != "COMPLETED" for batch in recent.items)


def every_sellers_batches() -> bool:
    """Every seller's batches; a status filter narrows each page as shown (pages may be short)."""
    engine = runtime().engine
    sellers = call(lambda: known_sellers(engine)) or {}
    chosen = st.selectbox("Seller", list(sellers), index=None, placeholder="Every seller",
                          format_func=lambda seller: sellers[seller], key="seller-filter")
    label = st.segmented_control("Status", list(STATUSES), default="All", key="every-status") or "All"
    pages_key = f"every-batch-{chosen}"
    page = call(lambda: every_batch(engine, owner=chosen, before=current_cursor(pages_key, None)))
    if page is None:
        return False
    shown = [item for item in page.items if STATUSES[label] in (None, item.summary.status)]
    if not shown:
        st.info("No batches yet" + ("." if label == "All" else f" that are {label.lower()} on this page."))
    costs = page_costs([item.summary for item in shown], None)
    for item in shown:
        show(item.summary, costs.get(item.summary.batch_id), item.seller_name)
    pager(pages_key, page.next_before)
    return any(item.summary.status != "COMPLETED" for item in shown)


def batches_page() -> None:
    st.title("Batches")
    if call(runtime) is None:
        return
    live(every_sellers_batches if viewer().operator else own_batches)


batches_page()
