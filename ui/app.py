"""Streamlit entry point: navigation only; each page is its own module."""

import streamlit as st

st.set_page_config(page_title="Listing Review Batches", layout="wide")
navigation = st.navigation([
    st.Page("pages/upload.py", title="Upload catalog", default=True),
    st.Page("pages/batches.py", title="Batches", url_path="batches"),
    st.Page("pages/batch.py", title="Batch detail", url_path="batch"),
    st.Page("pages/review.py", title="Review one listing", url_path="review"),
    st.Page("pages/operations.py", title="Operations", url_path="operations"),
])
navigation.run()
