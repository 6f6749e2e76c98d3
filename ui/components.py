"""Pieces several pages render the same way. Seller and model text is shown with st.text or
in dataframe cells (never markdown or HTML); where Streamlit only takes markdown (labels,
captions, alerts) it goes through plain_label, so nothing in a listing can inject formatting,
links or emoji.
"""

import re
from typing import Any

import streamlit as st

from core.listings.errors import next_step

MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-=!|~<>$&:.@])")
# Escaping is not enough for these: Streamlit links bare URLs, `www.` hosts and e-mail
# addresses and turns `:smile:` into an emoji after unescaping, so an invisible WORD JOINER
# before each `:` `.` `@` breaks every such pattern while the text still reads the same.
PATTERN_BREAKERS = ":.@"
WORD_JOINER = "\u2060"


def plain_label(text: str) -> str:
    """Seller or model text for any place Streamlit renders markdown (widget and expander
    labels, captions, st.error): shown literally, never as formatting, a link or an emoji.
    """
    return MARKDOWN_SPECIALS.sub(_escaped, text)


def _escaped(match: re.Match) -> str:
    character = match.group(1)
    return (WORD_JOINER if character in PATTERN_BREAKERS else "") + "\\" + character


def review_card(result: dict[str, Any] | None, error: dict[str, Any] | None,
                status: str | None = None) -> None:
    """A stored review (score, flag, lists) or the safe error that replaced it."""
    if status == "CANCELLED":  # by the seller, or by a reached budget (BUDGET_EXCEEDED)
        st.caption(next_step(error["code"]) if error else "Cancelled before review.")
        return
    if error:
        # Our own bounded code and seller-safe message (never provider or seller text).
        st.error(f"{error['code']}: {error['message']}")
        st.caption(next_step(error["code"]))
        return
    if not result:
        st.caption("Not reviewed yet.")
        return
    score, flag = st.columns(2)
    score.metric("Quality score", f"{result['qualityScore']} / 100")
    flag.metric("Human review", "needed" if result["requiresHumanReview"] else "not needed")
    for title, key in (("Missing fields", "missingFields"), ("Issues", "issues"),
                       ("Suggestions", "suggestions")):
        if result.get(key):
            st.caption(title)
            st.text("\n".join(f"- {entry}" for entry in result[key]))


def download(container: Any, label: str, data: Any, file_name: str, mime: str, **options: Any) -> None:
    """A download button whose click does not rerun the page. A rerun would redo the page's work for
    nothing, and for a file built on click (data a callable) it would revoke the file the click asked
    for: Streamlit drops a deferred download when the next run that draws its button ends."""
    container.download_button(label, data, file_name, mime, on_click="ignore", **options)


def post_notice(text: str) -> None:
    """Leave a notice for the batch page's next full run (views/batch.py show_notice). A notice
    still on screen is marked as shown: a new one must clear that mark, or the next run would
    take the new notice for the old one and drop it unseen."""
    st.session_state["notice"] = text
    st.session_state.pop("notice-shown", None)


def cursor_stack(name: str) -> list:
    """Keyset cursors of the pages already visited, so 'Previous' goes back exactly."""
    return st.session_state.setdefault(name, [])


def pager(name: str, next_cursor: Any) -> None:
    """Previous / Next buttons over a cursor stack."""
    stack = cursor_stack(name)
    previous, following = st.columns(2)
    if previous.button("Previous page", key=f"{name}-previous", disabled=not stack):
        stack.pop()
        st.rerun()
    if following.button("Next page", key=f"{name}-next", disabled=next_cursor is None):
        stack.append(next_cursor)
        st.rerun()


def current_cursor(name: str, first: Any) -> Any:
    stack = cursor_stack(name)
    return stack[-1] if stack else first
