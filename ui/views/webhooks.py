"""The seller's completion webhook: register (the signing secret is shown once), see, remove."""

import streamlit as st
from sqlalchemy import Engine

from core.webhooks.registration import (
    URL_RULE,
    Webhook,
    WebhookNotFound,
    read_webhook,
    register_webhook,
    remove_webhook,
)
from ui.services import call, runtime, viewer

SIGNING = ("Each completed batch is POSTed to it as JSON (the batch summary), signed: header "
           "X-Listing-Review-Signature is sha256=HMAC-SHA256(secret, timestamp + '.' + body) with "
           "X-Listing-Review-Timestamp; X-Listing-Review-Delivery is an id to de-duplicate by. "
           "Failed deliveries are retried with backoff.")


def current(engine: Engine, owner: str) -> Webhook | None:
    try:
        return read_webhook(engine, owner)
    except WebhookNotFound:
        return None


def register(engine: Engine, owner: str, url: str) -> None:
    registered = call(lambda: register_webhook(engine, owner, url.strip()))
    if registered is not None:
        st.success("Copy the signing secret now: it will not be shown again.")
        st.code(registered[1], language=None)


def webhooks_page() -> None:
    st.title("Webhook")
    loaded = call(runtime)
    if loaded is None:
        return
    engine, owner = loaded.engine, viewer().seller_id
    st.caption(SIGNING)
    with st.form("webhook"):
        url = st.text_input("URL to announce completed batches to", max_chars=2000, help=URL_RULE)
        submitted = st.form_submit_button("Register (replaces the current one)", type="primary")
    if submitted:
        register(engine, owner, url)
    webhook = call(lambda: current(engine, owner))
    if webhook is None:
        st.info("No webhook is registered: completed batches are not announced.")
        return
    st.text(f"Current: {webhook.url}\nRegistered {webhook.created_at:%Y-%m-%d %H:%M:%S %Z}")
    if st.button("Remove the webhook") and call(lambda: remove_webhook(engine, owner) or True):
        st.rerun()


webhooks_page()
