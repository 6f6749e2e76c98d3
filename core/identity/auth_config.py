"""The `[auth]` section Streamlit's st.login reads, written by the product from the settings
(a user never edits a secrets file), into a directory only this user can read.
"""

import json
import os
import secrets
from pathlib import Path

from core.settings import Settings

CALLBACK_PATH = "/oauth2callback"  # Streamlit's fixed sign-in callback route


def auth_directory(settings: Settings) -> Path:
    """Private (0700) directory under LISTING_REVIEW_HOME for the generated auth files."""
    directory = settings.home / "auth"
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    return directory


def cookie_secret(settings: Settings) -> str:
    """LISTING_REVIEW_COOKIE_SECRET, or one generated on first use and kept (0600), so sign-in
    cookies survive restarts and every UI process of this home signs them alike.
    """
    if settings.cookie_secret is not None:
        return settings.cookie_secret.get_secret_value()
    path = auth_directory(settings) / "cookie_secret"
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def write_auth_secrets(settings: Settings) -> Path:
    """secrets.toml with Streamlit's [auth] section (0600); its path goes to --secrets.files."""
    assert settings.oidc_client_secret is not None and settings.public_url is not None
    values = {"redirect_uri": settings.public_url + CALLBACK_PATH, "cookie_secret": cookie_secret(settings),
              "client_id": settings.oidc_client_id,
              "client_secret": settings.oidc_client_secret.get_secret_value(),
              "server_metadata_url": settings.oidc_metadata_url}
    # A JSON string is a valid TOML basic string (same quotes and escapes).
    body = "[auth]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items())
    path = auth_directory(settings) / "secrets.toml"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(body)
    path.chmod(0o600)
    return path
