"""Operations: queues, job states, failures, workers, recoveries and provider circuit
breakers, refreshed live."""

import pandas as pd
import streamlit as st

from core.costs.ledger import costs_today
from core.operations.stats import operations_snapshot
from core.provider_gate.breaker import GateState
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
    provider_breakers(snapshot.provider_gates)
    costs_by_model()


def costs_by_model() -> None:
    """Today's (UTC) cost per provider+model, from the usage stored with each result."""
    st.caption("Cost today (UTC) per provider and model")
    today = call(lambda: costs_today(loaded.engine, loaded.settings.prices_file))
    if not today:
        st.text("No reviews completed today.")
        return
    st.dataframe(pd.DataFrame([{"provider": group.provider, "model": group.model,
                                "cost": group.cost.describe()} for group in today]), hide_index=True)


def provider_breakers(gates: list[GateState]) -> None:
    """One row per provider+model that has seen a failure; none means every call went through."""
    st.caption("Provider circuit breakers (open: claims paused, jobs wait without spending attempts)")
    if not gates:
        st.text("No provider failures recorded: every breaker is closed.")
        return
    st.dataframe(pd.DataFrame([{
        "provider": gate.provider, "model": gate.model, "state": gate.state.replace("_", "-"),
        "reason": gate.reason or "", "consecutive failures": gate.failures,
        "open since": gate.opened_at, "next probe in (s)": round(gate.next_probe_in_seconds, 1),
        "waiting jobs": gate.waiting_jobs} for gate in gates]), hide_index=True)


live_operations()
