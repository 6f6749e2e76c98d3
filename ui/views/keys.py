"""The signed-in seller's API keys: create (the secret is shown once), list, revoke."""

import pandas as pd
import streamlit as st

from core.accounts.service import create_key, list_keys, revoke_key
from ui.services import call, runtime, viewer

st.title("API keys")
loaded = call(runtime)
if loaded is None:
    st.stop()
who, engine = viewer(), loaded.engine
st.caption("A key acts as you on the HTTP API (header `Authorization: Bearer <key>`) and sees only "
           "your batches.")
if st.button("Create a key", type="primary"):
    created = call(lambda: create_key(engine, who.seller_id))
    if created is not None:
        st.success("Copy this key now: it is not stored and will not be shown again.")
        st.code(created[1], language=None)
keys = call(lambda: list_keys(engine, who.seller_id)) or []
if not keys:
    st.info("You have no API keys yet.")
    st.stop()
st.dataframe(pd.DataFrame([{"key id": str(key.key_id), "created": key.created_at,
                            "revoked": key.revoked_at} for key in keys]), hide_index=True)
active = {str(key.key_id): key.key_id for key in keys if key.active}
chosen = st.selectbox("Key to revoke", list(active), index=None, placeholder="Choose a key")
revoke = st.button("Revoke", disabled=chosen is None)
if revoke and chosen and call(lambda: revoke_key(engine, active[chosen], owner=who.seller_id)):
    st.rerun()
