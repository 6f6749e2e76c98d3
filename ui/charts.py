"""The batch page's two charts, made to read at a glance: job states in lifecycle order with
their own colours, scores in fixed bins of ten, a value on every bar, a height that follows the
number of bars, and a sentence instead of an empty frame."""

import altair as alt
import pandas as pd
import streamlit as st

from core.batches.progress import BatchSummary
from core.batches.verdicts import STATE_WORDS

# In lifecycle order (STATE_WORDS'): queued pale, running blue, done green, failed red,
# cancelled grey.
STATE_COLOURS = dict(zip(STATE_WORDS.values(), ("#9ecae1", "#3182bd", "#31a354", "#de2d26", "#969696"),
                         strict=True))
SCORE_BINS = [f"{start}-{start + 9}" if start < 90 else "90-100" for start in range(0, 100, 10)]
BAR_HEIGHT = 26


def state_chart(summary: BatchSummary) -> None:
    counts = [summary.queued, summary.running, summary.succeeded, summary.failed, summary.cancelled]
    data = pd.DataFrame({"state": list(STATE_COLOURS), "listings": counts})
    colour = alt.Color("state:N", legend=None, scale=alt.Scale(domain=list(STATE_COLOURS),
                                                                range=list(STATE_COLOURS.values())))
    st.altair_chart(_labelled_bars(data, "state", colour), width="stretch")


def score_chart(buckets: list[tuple[int, int]]) -> None:
    """`buckets`: (bin start, listings) of reviewed listings; bins with none still show."""
    if not buckets:
        st.caption("No scores yet: they appear as reviews finish (failed and cancelled listings "
                   "have none).")
        return
    counted = dict(buckets)
    data = pd.DataFrame({"score": SCORE_BINS,
                         "listings": [counted.get(start, 0) for start in range(0, 100, 10)]})
    st.altair_chart(_labelled_bars(data, "score", alt.value("#3182bd")), width="stretch")


def _labelled_bars(data: pd.DataFrame, category: str, colour: alt.Color | alt.ValueChannelMixin
                   ) -> alt.LayerChart:
    """Horizontal bars in the data's order with the value written at each bar's end; the
    axis leaves room for the longest bar's label so nothing is cut off."""
    order = list(data[category])
    top = max(int(data["listings"].max()), 1)
    y = alt.Y(f"{category}:N", sort=order, title=None)
    x = alt.X("listings:Q", title="listings", scale=alt.Scale(domain=[0, top * 1.15]))
    bars = alt.Chart(data).mark_bar().encode(y=y, x=x, color=colour)
    labels = alt.Chart(data).mark_text(align="left", dx=3).encode(y=y, x=x, text="listings:Q")
    return (bars + labels).properties(height=BAR_HEIGHT * len(order))
