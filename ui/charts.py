"""The batch page's two charts, made to read at a glance: job states in lifecycle order with
their own colours, scores in fixed bins of ten, a value on every bar, a height that follows the
number of bars, and a sentence instead of an empty frame.

The charts are Vega-Lite specs written as plain dicts: they are redrawn on every live refresh,
and building them through Altair (its objects and schema validation) cost about 20 ms a chart,
most of a refresh (benchmarks/ui_render.py)."""

from typing import Any

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
    colour = {"field": "state", "type": "nominal", "legend": None,
              "scale": {"domain": list(STATE_COLOURS), "range": list(STATE_COLOURS.values())}}
    _draw(_labelled_bars("state", dict(zip(STATE_COLOURS, counts, strict=True)), colour))


def score_chart(buckets: list[tuple[int, int]]) -> None:
    """`buckets`: (bin start, listings) of reviewed listings; bins with none still show."""
    if not buckets:
        st.caption("No scores yet: they appear as reviews finish (failed and cancelled listings "
                   "have none).")
        return
    counted = dict(buckets)
    starts = range(0, 100, 10)
    listings = {name: counted.get(start, 0) for name, start in zip(SCORE_BINS, starts, strict=True)}
    _draw(_labelled_bars("score", listings, {"value": "#3182bd"}))


def _draw(spec: dict[str, Any]) -> None:
    """The chart at its bars' own height plus its axis: the spec's autosize is fit-x. Streamlit's
    default (fit) makes the height the whole chart's, squeezing the bars until axis labels are
    dropped; a `height` here would stretch the bars instead and push the axis out of the frame."""
    st.vega_lite_chart(spec, width="stretch")


def _labelled_bars(category: str, listings: dict[str, int], colour: dict[str, Any]) -> dict[str, Any]:
    """Horizontal bars in the dict's order with the value written at each bar's end; the
    axis leaves room for the longest bar's label so nothing is cut off."""
    order = list(listings)
    top = max(max(listings.values()), 1)
    y = {"field": category, "type": "nominal", "sort": order, "title": None}
    x = {"field": "listings", "type": "quantitative", "title": "listings",
         "scale": {"domain": [0, top * 1.15]}}
    return {
        "data": {"values": [{category: name, "listings": count} for name, count in listings.items()]},
        "height": BAR_HEIGHT * len(order),
        "autosize": {"type": "fit-x", "contains": "padding"},
        "layer": [{"mark": {"type": "bar"}, "encoding": {"y": y, "x": x, "color": colour}},
                  {"mark": {"type": "text", "align": "left", "dx": 3},
                   "encoding": {"y": y, "x": x, "text": {"field": "listings", "type": "quantitative"}}}],
    }
