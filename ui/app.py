"""Streamlit entry point: who is here, and the pages they may open (each its own module).

With sign-in configured an anonymous visitor gets the sign-in page only: no other page is
registered, so no link or URL reaches data. Operators also get the Operations page.
"""

import streamlit as st

from core.settings import get_settings
from ui.services import call, identity

st.set_page_config(page_title="Listing Review Batches", layout="wide")
who = call(identity)
if who is None:
    navigation = st.navigation([st.Page("views/sign_in.py", title="Sign in", default=True)],
                               position="hidden")
else:
    pages = [
        st.Page("views/upload.py", title="Upload catalog", default=True),
        st.Page("views/batches.py", title="Batches", url_path="batches"),
        st.Page("views/batch.py", title="Batch detail", url_path="batch"),
        st.Page("views/review.py", title="Review one listing", url_path="review"),
        st.Page("views/keys.py", title="API keys", url_path="keys"),
    ]
    if who.operator:
        pages.append(st.Page("views/operations.py", title="Operations", url_path="operations"))
    navigation = st.navigation(pages)
    role = "operator" if who.operator else "seller"
    if get_settings().sign_in:
        st.sidebar.text(f"Signed in as {who.name} ({role})")
        st.sidebar.button("Sign out", on_click=st.logout)
    else:
        st.caption("Local mode - no sign-in")
navigation.run()
