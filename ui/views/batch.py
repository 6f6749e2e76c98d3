"""One batch (deep link ?batch=<id>): live progress, items a page at a time, charts,
exports, fix-up file, retry of failed items and cancelling what has not started."""

import time
import uuid

import pandas as pd
import streamlit as st

from core.batches.export import export_csv, export_json, export_rows, fixup_file
from core.batches.pages import get_items_page
from core.batches.progress import get_summary, score_distribution
from core.batches.retry import retry_failed
from core.costs.ledger import batch_cost
from core.identity.oversight import actions_on, batch_owner, record_action, seller_name
from core.jobs.cancel import cancel_unstarted
from ui.components import current_cursor, pager, plain_label, review_card
from ui.services import call, runtime, viewer

FILTERS = {"All items": None, "Failures": "failed", "Needs human review": "human_review"}
FIRST_REFRESH = 1.0
REFRESH_STEPS = ((30.0, 5.0), (10.0, 2.0), (0.0, FIRST_REFRESH))  # (watched seconds, interval)

st.title("Batch detail")
loaded = call(runtime)
try:
    batch_id = uuid.UUID(st.query_params.get("batch", ""))
except ValueError:
    st.warning("No batch selected: open one from the Batches page, or add ?batch=<id> to the URL.")
    st.page_link("views/batches.py", label="All batches")
    st.stop()
if loaded is None:
    st.stop()
engine, settings, who = loaded.engine, loaded.settings, viewer()
# A seller reads as themself (another seller's batch is "not found"); an operator as its owner.
owner = call(lambda: batch_owner(engine, who, batch_id)) or who.seller_id
# A notice (retry started, items cancelled) survives the reruns the live refresh makes on its
# own, and goes away at the seller's next action.
if not st.session_state.pop("refresh-rerun", False) and st.session_state.pop("notice-shown", False):
    st.session_state.pop("notice", None)
if notice := st.session_state.get("notice"):
    st.info(notice)
    st.session_state["notice-shown"] = True
summary = call(lambda: get_summary(engine, owner, batch_id))
if summary is None:
    st.page_link("views/batches.py", label="Back to all batches")
    st.stop()
refresh_key = f"refresh-{batch_id}"


def refresh_interval(status: str) -> float | None:
    """Poll every second at first, backing off to five the longer the page is watched; stop
    once the batch is complete. The interval only changes at these steps, so the full-page
    reruns that apply a new interval are rare."""
    if status == "COMPLETED":
        return None
    now = time.monotonic()
    watched = now - st.session_state.setdefault(f"opened-{batch_id}", now)
    return next(interval for after, interval in REFRESH_STEPS if watched >= after)


def live_progress() -> None:
    latest = call(lambda: get_summary(engine, owner, batch_id))
    if latest is None:
        return
    st.progress(latest.done / latest.total,
                text=f"{latest.status}: {latest.done} of {latest.total} done")
    counts = [("Queued", latest.queued), ("Running", latest.running), ("Succeeded", latest.succeeded),
              ("Failed", latest.failed), ("Cancelled", latest.cancelled)]
    for column, (label, value) in zip(st.columns(len(counts)), counts, strict=True):
        column.metric(label, value)
    wanted = refresh_interval(latest.status)
    if wanted != st.session_state.get(refresh_key, FIRST_REFRESH):
        st.session_state[refresh_key] = wanted
        st.session_state["refresh-rerun"] = True
        st.rerun(scope="app")


submitted = f"{summary.submitted_at:%Y-%m-%d %H:%M:%S %Z}"
seller = "" if owner == who.seller_id else \
    f" · seller {plain_label(call(lambda: seller_name(engine, owner)) or owner)}"
st.caption(f"{plain_label(summary.source_name or 'Batch')} · submitted {submitted}{seller}")
for action in call(lambda: actions_on(engine, batch_id)) or []:
    at = f"{action.at:%Y-%m-%d %H:%M:%S %Z}"
    st.caption(plain_label(f"Operator {action.actor_name}: {action.action} at {at}"))
st.fragment(live_progress, run_every=st.session_state.get(refresh_key, FIRST_REFRESH))()
cost = call(lambda: batch_cost(engine, owner, batch_id, settings.prices_file))
if cost is not None:
    st.caption(f"Cost: {cost.describe()}")

chosen = st.segmented_control("Show", list(FILTERS), default="All items") or "All items"
pages_key = f"items-{batch_id}-{chosen}"
page = call(lambda: get_items_page(engine, owner, batch_id, after=current_cursor(pages_key, 0),
                                   limit=25, max_after=settings.max_batch_items,
                                   only=FILTERS[chosen]))
if page is not None:
    for item in page.items:
        score = (item.result or {}).get("qualityScore")
        label = f"#{item.position} · {plain_label(item.item_id)} · {item.status}" + (
            f" · {score}/100" if score is not None else "")
        with st.expander(label):
            body = item.to_json_dict()
            review_card(body["result"], body["error"], item.status)
    if not page.items:
        st.caption("Nothing to show here.")
    pager(pages_key, page.next_after)

scores = call(lambda: score_distribution(engine, owner, batch_id))
left, right = st.columns(2)
if scores:
    left.caption("Quality scores")
    left.bar_chart(pd.DataFrame(scores, columns=["score from", "items"]).set_index("score from"))
right.caption("Status")
right.bar_chart(pd.DataFrame({"items": [summary.queued, summary.running, summary.succeeded,
                                        summary.failed, summary.cancelled]},
                             index=["queued", "running", "succeeded", "failed", "cancelled"]))

st.subheader("Results")
# Files are built only when a button is clicked: a render never loads every item.
csv_column, json_column, fixup_column = st.columns(3)
csv_column.download_button("Download CSV", lambda: export_csv(export_rows(engine, owner, batch_id)),
                           f"{batch_id}.csv", "text/csv")
json_column.download_button("Download JSON", lambda: export_json(export_rows(engine, owner, batch_id)),
                            f"{batch_id}.json", "application/json")
fixup_column.download_button("Fix-up file (failed and low scores)",
                             lambda: fixup_file(engine, owner, batch_id)[1],
                             f"{batch_id}-fixup.csv", "text/csv")

retry_column, cancel_column = st.columns(2)
if retry_column.button("Retry failed and cancelled items", disabled=not summary.retryable,
                       help="Available once the batch is complete; successes are never resent."):
    retried = call(lambda: retry_failed(engine, loaded.queue, owner, batch_id, settings.max_batch_items))
    if retried is not None:
        call(lambda: record_action(engine, who, "retry", batch_id, owner))
        st.session_state["notice"] = (
            f"Retrying {retried.summary.total} item(s) in this new batch." if retried.created
            else "These items were already retried: this is that batch.")
        st.switch_page("views/batch.py", query_params={"batch": str(retried.batch_id)})
if cancel_column.button("Cancel items not yet started", disabled=summary.queued == 0):
    cancelled = call(lambda: cancel_unstarted(engine, owner, batch_id))
    if cancelled is not None:
        call(lambda: record_action(engine, who, "cancel", batch_id, owner))
        st.session_state["notice"] = f"Cancelled {cancelled} item(s) that had not started."
        st.rerun()
