"""Review one listing now, with the same service and result card as background jobs."""

import streamlit as st

from core.listings import service
from core.listings.draft import parse_attribute_lines, validate_draft
from ui.components import plain_label, review_card
from ui.services import call, provider, runtime

st.title("Review one listing")
loaded = call(runtime)
if loaded is None:
    st.stop()
with st.form("listing"):
    title = st.text_input("Title", max_chars=200)
    description = st.text_area("Description", max_chars=5000)
    category = st.text_input("Category", max_chars=100)
    price = st.text_input("Price", placeholder="45.00")
    attributes = st.text_area("Attributes, one per line as name: value", placeholder="brand: KeyPro")
    submitted = st.form_submit_button("Review", type="primary")
if submitted:
    parsed, line_problems = parse_attribute_lines(attributes)
    draft, problems = validate_draft({"title": title, "description": description,
                                      "category": category, "price": price, "attributes": parsed})
    if line_problems:
        draft = None
    for problem in line_problems + problems:
        st.error(plain_label(f"{problem.field}: {problem.message}"))
    if draft is not None:
        settings = loaded.settings
        outcome = call(lambda: service.review(draft, "sync", provider(),
                                              settings.model_timeout))
        if outcome is not None:
            review_card(outcome.to_stored_result(), None)
            st.caption(plain_label(f"{outcome.provider} / {outcome.model}") +
                       f", {outcome.duration_seconds:.2f} s")
