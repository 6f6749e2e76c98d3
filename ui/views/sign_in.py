"""The only page an anonymous visitor can open when sign-in is configured."""

import streamlit as st

st.title("Listing Review")
st.write("Sign in to upload catalogs and follow your batches.")
st.button("Sign in", type="primary", on_click=st.login)
