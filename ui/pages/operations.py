"""Operations: queues, job states, failures, workers and recoveries, refreshed live."""

import pandas as pd
import streamlit as st

from core.operations.stats import operations_snapshot
from ui.services import call, runtime

st.title("Operations")
loaded = call(runtime)
if loaded is None:
    st.stop()


@st.fragment(run_every=5)
def live_operations() -> None:
    snapshot = call(lambda: operations_snapshot(loaded.engine))
    if snapshot is None:
        return
    oldest = snapshot.oldest_queued_age_seconds
    workers, age, recoveries = st.columns(3)
    workers.metric("Active workers (last minute)", snapshot.active_workers)
    age.metric("Oldest queued job", "none" if oldest is None else f"{oldest:.0f} s")
    recoveries.metric("Recoveries (last hour)", sum(snapshot.recoveries_last_hour.values()))
    queue, jobs, failures = st.columns(3)
    queue.caption("Queue messages by state")
    queue.bar_chart(pd.Series(snapshot.queue_depth, name="messages"))
    jobs.caption("Jobs by status")
    jobs.bar_chart(pd.Series(snapshot.jobs_by_status, name="jobs"))
    failures.caption("Failures by code, last hour")
    failures.bar_chart(pd.Series(snapshot.failures_last_hour, name="failures"))
    st.caption("Completions per minute, last hour")
    per_minute = pd.DataFrame(snapshot.completions_per_minute, columns=["minute", "completed"])
    st.line_chart(per_minute.set_index("minute"))


live_operations()
