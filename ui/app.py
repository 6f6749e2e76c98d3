"""Streamlit entry point: who is here, and the pages they may open (each its own module).

With sign-in configured an anonymous visitor gets the sign-in page only, under every page's
address: no link or URL reaches data, and a deep link keeps its address (no "page not found"),
so the visitor returns to it once signed in. Operators also get the Operations page.
"""

import streamlit as st

from core.settings import get_settings
from ui.services import call, identity

# (script, title, url path); the first is the default page.
PAGES = [("views/upload.py", "Upload catalog", None), ("views/batches.py", "Batches", "batches"),
         ("views/batch.py", "Batch detail", "batch"), ("views/review.py", "Review one listing", "review"),
         ("views/keys.py", "API keys", "keys"), ("views/webhooks.py", "Webhook", "webhook")]
OPERATIONS = ("views/operations.py", "Operations", "operations")
# Streamlit's sign-in callback always lands on "/": the link asked for before signing in is
# kept in the tab's sessionStorage (same origin only) and opened again once signed in.
RETURN_AFTER_SIGN_IN = """<script>
const wanted = sessionStorage.getItem("listing-review-return");
sessionStorage.removeItem("listing-review-return");
if (wanted && wanted !== location.pathname + location.search) location.replace(wanted);
</script>"""

st.set_page_config(page_title="Listing Review Batches", layout="wide")
who = call(identity)
if who is None:
    navigation = st.navigation([st.Page("views/sign_in.py", title="Sign in", url_path=path,
                                        default=path is None) for _, _, path in [*PAGES, OPERATIONS]],
                               position="hidden")
else:
    shown = [*PAGES, OPERATIONS] if who.operator else PAGES
    pages = [st.Page(script, title=title, url_path=path, default=path is None)
             for script, title, path in shown]
    if not who.operator:  # a seller following an operator's link gets an answer, not a 404
        pages.append(st.Page("views/operators_only.py", title="Operations", url_path="operations",
                             visibility="hidden"))
    navigation = st.navigation(pages)
    role = "operator" if who.operator else "seller"
    if get_settings().sign_in:
        st.sidebar.text(f"Signed in as {who.name} ({role})")
        st.sidebar.button("Sign out", on_click=st.logout)
        # Only on the default page, where the callback lands: a deep link opened right after signing in
        # must not be sent back by an address the sign-in page stored before.
        if navigation.url_path == "" and not st.session_state.get("returned"):
            st.session_state["returned"] = True
            st.sidebar.html(RETURN_AFTER_SIGN_IN, unsafe_allow_javascript=True)
    else:
        st.caption("Local mode - no sign-in")
navigation.run()
