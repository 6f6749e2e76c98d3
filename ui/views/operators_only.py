"""What a seller sees at the Operations page's address: a plain answer, not "Page not found"."""

import streamlit as st

st.title("Operations")
st.info("This page is for operators: it shows every seller's queue and workers. "
        "Your own batches are on the Batches page.")
st.page_link("views/batches.py", label="Your batches")
