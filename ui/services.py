"""Cached access to core services for pages, and the storage-down banner.

Pages rerun on every interaction; what is expensive to make (the engine, the review
provider and its SDK client) is made once per UI process here.
"""

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from composition.runtime import Runtime, open_runtime
from core.errors import AppError, StorageUnavailable
from core.identity.sellers import Identity, local_identity, sign_in
from core.listings.providers.base import ReviewProvider
from core.listings.providers.registry import make_provider
from core.settings import get_settings
from core.telemetry import serve_metrics

T = TypeVar("T")


@st.cache_resource(show_spinner=False)
def metrics_endpoint() -> object | None:
    """This UI process's Prometheus endpoint, started once (pages rerun on every interaction)."""
    settings = get_settings()
    return serve_metrics(settings.ui_metrics_port, settings.metrics_host)


@st.cache_resource(show_spinner=False)
def runtime() -> Runtime:
    """One engine and queue per UI process (the database is resolved and migrated once)."""
    metrics_endpoint()
    return open_runtime()


@st.cache_resource(show_spinner=False)
def provider() -> ReviewProvider:
    """One provider (and SDK client with its connection pool) per UI process, not per click."""
    return make_provider(get_settings())


def identity() -> Identity | None:
    """Who is using this session: the local seller (no OIDC), the signed-in seller (recorded
    once per session and person), or None for an anonymous visitor.
    """
    settings = get_settings()
    if not settings.sign_in:
        return local_identity(settings)
    if not st.user.is_logged_in:
        return None
    claims = st.user.to_dict()
    person = (claims.get("iss"), claims.get("sub"))
    known = st.session_state.get("identity")
    if known is None or known[0] != person:
        known = (person, sign_in(runtime().engine, settings, claims))
        st.session_state["identity"] = known
    return known[1]


def viewer() -> Identity:
    """The identity app.py resolved for this run (pages are only reachable with one)."""
    who = call(identity)
    if who is None:
        st.stop()
    return who


def call(service: Callable[[], T]) -> T | None:
    """Run a core service; show its error (never a traceback) and return None if it fails."""
    try:
        return service()
    except StorageUnavailable as error:
        st.error(error.message)
    except AppError as error:
        st.error(f"{error.message} (code {error.code})")
    except Exception as error:  # a bug: never show a traceback or SQL to a seller
        st.error(f"Something went wrong ({type(error).__name__}); nothing was changed. "
                 "Please try again or report it.")
    return None
