"""The only page an anonymous visitor can open when sign-in is configured (under every page's
address); it remembers the address asked for, to open it again once signed in."""

import streamlit as st

st.title("Listing Review")
st.write("Sign in to upload catalogs and follow your batches.")
st.html('<script>sessionStorage.setItem("listing-review-return", location.pathname + location.search)'
        "</script>", unsafe_allow_javascript=True)
st.button("Sign in", type="primary", on_click=st.login)
