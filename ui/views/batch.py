"""One batch (deep link ?batch=<id>). Everything that changes while the batch runs (counters,
pace, the items table, the charts, which actions are enabled) is one fragment refreshed
together, backing off the longer the page is watched and stopping at completion."""

import time
import uuid
from datetime import UTC, datetime

import streamlit as st

from core.batches.pace import pace_of
from core.batches.progress import BatchSummary, get_summary, score_distribution
from core.batches.retry import retry_failed
from core.batches.verdicts import STATE_WORDS, VERDICT_RULE, batch_state_text
from core.costs.ledger import batch_cost
from core.economy.status import economy_status
from core.identity.oversight import actions_on, batch_owner, seller_name
from core.jobs.cancel import cancel_unstarted
from core.webhooks.registration import Delivery, batch_deliveries
from ui.batch_files import downloads
from ui.batch_items import items_section
from ui.charts import score_chart, state_chart
from ui.components import plain_label, post_notice
from ui.services import call, runtime, viewer

FIRST_REFRESH = 1.0
REFRESH_STEPS = ((30.0, 5.0), (10.0, 2.0), (0.0, FIRST_REFRESH))  # (watched seconds, interval)


def refresh_interval(batch_id: uuid.UUID, status: str) -> float | None:
    """Every second at first, backing off to five the longer the page is watched; none once
    the batch is complete. The interval only changes at these steps, so the full-page reruns
    that apply a new one are rare."""
    if status == "COMPLETED":
        return None
    now = time.monotonic()
    watched = now - st.session_state.setdefault(f"opened-{batch_id}", now)
    return next(interval for after, interval in REFRESH_STEPS if watched >= after)


def show_notice() -> None:
    """A notice (retry started, items cancelled) survives the reruns the live refresh makes on
    its own, and goes away at the seller's next action."""
    if not st.session_state.pop("refresh-rerun", False) and st.session_state.pop("notice-shown", False):
        st.session_state.pop("notice", None)
    if notice := st.session_state.get("notice"):
        st.info(notice)
        st.session_state["notice-shown"] = True


def header(engine, summary: BatchSummary, owner: str, own: bool) -> None:
    st.title(plain_label(summary.display_name))
    seller = "" if own else f" · seller {plain_label(call(lambda: seller_name(engine, owner)) or owner)}"
    rejected = (f" · {summary.rejected_rows:,} invalid row(s) left out at upload"
                if summary.rejected_rows else "")
    st.caption(f"{plain_label(summary.source_name or 'no file')} · submitted "
               f"{summary.submitted_at:%Y-%m-%d %H:%M:%S %Z}{seller}{rejected}")
    economy = call(lambda: economy_status(engine, owner, summary.batch_id))
    if economy is not None and economy.mode == "economy":
        st.caption(economy.describe())
    for delivery in call(lambda: batch_deliveries(engine, owner, summary.batch_id)) or []:
        st.caption(delivery_line(delivery))
    for action in call(lambda: actions_on(engine, summary.batch_id)) or []:
        st.caption(plain_label(f"Operator {action.actor_name}: {action.action} at "
                               f"{action.at:%Y-%m-%d %H:%M:%S %Z}"))


def delivery_line(delivery: Delivery) -> str:
    """The batch's completion webhook, as the seller's receiver saw it (our own codes only)."""
    line = f"Webhook: {delivery.status} after {delivery.attempts} attempt(s)"
    if delivery.last_error:
        line += f", last error {delivery.last_error}" + (
            f" (HTTP {delivery.last_status_code})" if delivery.last_status_code else "")
    return line


def progress(summary: BatchSummary) -> None:
    state = batch_state_text(summary.status, summary.failed, summary.cancelled)
    st.progress(summary.done / summary.total,
                text=f"{state}: {summary.done:,} of {summary.total:,} done · "
                     f"{pace_of(summary, datetime.now(UTC)).describe()}")


def counters(summary: BatchSummary) -> None:
    counts = [summary.queued, summary.running, summary.succeeded, summary.failed, summary.cancelled]
    for column, label, value in zip(st.columns(len(counts)), STATE_WORDS.values(), counts, strict=True):
        column.metric(label, f"{value:,}")


def charts(engine, owner: str, summary: BatchSummary) -> None:
    left, right = st.columns(2)
    with left:
        st.caption("Listings by state")
        state_chart(summary)
    with right:
        st.caption("Quality scores of reviewed listings")
        score_chart(call(lambda: score_distribution(engine, owner, summary.batch_id)) or [])


def actions(summary: BatchSummary, owner: str) -> None:
    retry_column, cancel_column = st.columns(2)
    budget = retry_budget(retry_column, summary)
    if retry_column.button("Retry failed and cancelled listings", disabled=not summary.retryable,
                           key=f"retry-{summary.batch_id}",
                           help="Available once the batch is complete; good reviews are never sent again."):
        retry(summary, owner, budget)
    confirming = f"confirm-cancel-{summary.batch_id}"
    if cancel_column.button(f"Cancel the {summary.queued:,} listing(s) not yet started",
                            disabled=summary.queued == 0, key=f"cancel-{summary.batch_id}"):
        st.session_state[confirming] = True
    if st.session_state.get(confirming) and summary.queued:
        confirm_cancel(summary, owner, confirming)


def retry_budget(column, summary: BatchSummary) -> float | None:
    """A new budget for the retry, offered once there is something to retry: listings stopped
    as Budget exceeded only finish under a raised one. Blank keeps this batch's budget."""
    if not summary.retryable:
        return None
    return column.number_input(
        "Budget for the retry in USD (optional)", value=None, min_value=0.01, max_value=1_000_000.0,
        step=1.0, format="%.2f", key=f"retry-budget-{summary.batch_id}",
        help="Blank keeps this batch's budget (if it has one).")


def retry(summary: BatchSummary, owner: str, budget: float | None) -> None:
    loaded, acting = runtime(), viewer()
    retried = call(lambda: retry_failed(loaded.engine, loaded.queue, owner, summary.batch_id,
                                        loaded.settings.max_batch_items, budget=budget, acting=acting))
    if retried is None:
        return
    post_notice(retried.message)
    st.switch_page("views/batch.py", query_params={"batch": str(retried.batch_id)})


def confirm_cancel(summary: BatchSummary, owner: str, confirming: str) -> None:
    """Cancelling is asked twice, with the count as it is now (it shrinks while workers run)."""
    with st.container(border=True):
        st.warning(f"Cancel {summary.queued:,} listing(s) that have not started? They will not be "
                   "reviewed; listings running or done are kept. Cancelled listings can be retried "
                   "once the batch is complete.")
        confirm, keep = st.columns(2)
        if confirm.button(f"Cancel {summary.queued:,} listing(s)", type="primary",
                          key=f"{confirming}-yes"):
            st.session_state.pop(confirming)
            loaded, acting = runtime(), viewer()
            cancelled = call(lambda: cancel_unstarted(loaded.engine, owner, summary.batch_id, acting))
            if cancelled is not None:
                post_notice(f"Cancelled {cancelled:,} listing(s) that had not started.")
            st.rerun()
        if keep.button("Keep them", key=f"{confirming}-no"):
            st.session_state.pop(confirming)
            st.rerun()


def live_batch(batch_id: uuid.UUID, owner: str) -> None:
    """The part of the page that follows the batch: re-read and redrawn as one."""
    engine = runtime().engine
    summary = call(lambda: get_summary(engine, owner, batch_id))
    if summary is None:
        return
    progress(summary)
    counters(summary)
    items_section(engine, owner, summary)
    charts(engine, owner, summary)
    actions(summary, owner)
    wanted = refresh_interval(batch_id, summary.status)
    if wanted != st.session_state.get(f"refresh-{batch_id}", FIRST_REFRESH):
        st.session_state[f"refresh-{batch_id}"] = wanted
        st.session_state["refresh-rerun"] = True
        st.rerun(scope="app")


def selected_batch() -> uuid.UUID | None:
    try:
        return uuid.UUID(st.query_params.get("batch", ""))
    except ValueError:
        st.title("Batch detail")
        st.warning("No batch selected: open one from the Batches page, or add ?batch=<id> to the URL.")
        st.page_link("views/batches.py", label="All batches")
        return None


def batch_page() -> None:
    loaded = call(runtime)
    batch_id = selected_batch()
    if loaded is None or batch_id is None:
        return
    engine, who = loaded.engine, viewer()
    # A seller reads as themself (another seller's batch is "not found"); an operator as its owner.
    owner = call(lambda: batch_owner(engine, who, batch_id)) or who.seller_id
    show_notice()
    summary = call(lambda: get_summary(engine, owner, batch_id))
    if summary is None:
        st.page_link("views/batches.py", label="Back to all batches")
        return
    header(engine, summary, owner, owner == who.seller_id)
    cost = call(lambda: batch_cost(engine, owner, batch_id, loaded.settings.prices_file))
    if cost is not None:
        st.caption(f"Cost: {cost.describe()}")
    st.caption(VERDICT_RULE)
    st.fragment(live_batch, run_every=st.session_state.get(f"refresh-{batch_id}", FIRST_REFRESH))(
        batch_id, owner)
    downloads(engine, owner, summary)


batch_page()
