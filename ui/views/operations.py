"""Operations: queues, job states, failures, workers, recoveries, provider calls against the
shared rate limits and provider circuit breakers, refreshed live."""

import pandas as pd
import streamlit as st

from core.costs.ledger import GroupCost, costs_today
from core.operations.stats import operations_snapshot
from core.provider_gate.breaker import GateState
from core.provider_gate.rate_limits import ProviderRates
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
    today = call(lambda: costs_today(loaded.engine, loaded.settings.prices_file)) or []
    providers(snapshot.provider_rates, snapshot.provider_gates, today)
    costs_by_model(today)
    seller_limits(loaded.settings.max_running_per_seller, loaded.settings.daily_budget)


def seller_limits(cap: int, daily_budget: float) -> None:
    """What every seller runs under: the cap on running jobs (fairness) and the daily budget."""
    running = f"at most {cap:,} running jobs" if cap else "no cap on running jobs"
    budget = f"a budget of ${daily_budget:,.2f} per UTC day" if daily_budget else "no daily budget"
    st.caption(f"Every seller: {running}, {budget}.")


def _of_limit(value: int, limit: int | None) -> str:
    return f"{value:,}" if limit is None else f"{value:,} of {limit:,}"


def providers(rates: list[ProviderRates], gates: list[GateState], today: list[GroupCost]) -> None:
    """One row per provider+model: calls per minute against the shared rate limit, 429s, its
    circuit breaker (with the jobs waiting for it) and today's cost."""
    st.caption("Providers: calls per UTC minute against the shared rate limit, 429s, circuit "
               "breaker (open: claims paused, jobs wait without spending attempts), cost today")
    if not rates:
        st.text("No provider calls in the last hour, no rate limit, no provider failure recorded.")
        return
    costs = {(group.provider, group.model): group.cost.amount_text() for group in today}
    by_key = {(gate.provider, gate.model): gate for gate in gates}
    st.dataframe(pd.DataFrame([_provider_row(rate, by_key.get((rate.provider, rate.model)), costs)
                               for rate in rates]), hide_index=True)


def _provider_row(rate: ProviderRates, gate: GateState | None,
                  costs: dict[tuple[str, str], str]) -> dict[str, object]:
    return {
        "provider": rate.provider, "model": rate.model,
        "calls this minute": _of_limit(rate.calls_this_minute, rate.requests_per_minute),
        "calls last minute": _of_limit(rate.calls_last_minute, rate.requests_per_minute),
        "tokens last minute": _of_limit(rate.tokens_last_minute, rate.tokens_per_minute),
        "429s last hour": f"{rate.rate_limited_last_hour:,} of {rate.calls_last_hour:,} calls",
        "state": rate.breaker_state.replace("_", "-"),
        "reason": (gate.reason or "") if gate else "",
        "consecutive failures": gate.failures if gate else 0,
        "open since": gate.opened_at if gate else None,
        "next probe in (s)": round(gate.next_probe_in_seconds, 1) if gate else 0.0,
        "waiting jobs": gate.waiting_jobs if gate else 0,
        "cost today": costs.get((rate.provider, rate.model), "-")}


def costs_by_model(today: list[GroupCost]) -> None:
    """Today's (UTC) cost per provider+model, from the usage stored with each result."""
    st.caption("Cost today (UTC) per provider and model")
    if not today:
        st.text("No reviews completed today.")
        return
    st.dataframe(pd.DataFrame([{"provider": group.provider, "model": group.model,
                                "cost": group.cost.describe()} for group in today]), hide_index=True)


live_operations()
