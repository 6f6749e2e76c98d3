"""The one settings class: every knob, its environment variable, default and bounds."""

from functools import lru_cache
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import AliasChoices, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_home() -> Path:
    """Per-user data directory: the embedded database lives here unless told otherwise."""
    return Path(platformdirs.user_data_dir("listing-review"))


class Settings(BaseSettings):
    """Read from `LISTING_REVIEW_*` variables (and `DATABASE_URL`); validated once at start-up."""

    model_config = SettingsConfigDict(env_prefix="LISTING_REVIEW_", extra="ignore")

    database_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("DATABASE_URL", "LISTING_REVIEW_DATABASE_URL"),
        description="Any PostgreSQL; unset means the embedded server under `home`.",
    )
    home: Path = Field(default_factory=default_home, description="Embedded database data dir.")
    owner: str = Field(default="local", min_length=1, max_length=128)
    provider: Literal["heuristic"] = "heuristic"
    max_batch_items: int = Field(default=1000, ge=1, le=10_000)
    max_upload_bytes: int = Field(default=20 * 1024 * 1024, ge=1024, le=200 * 1024 * 1024)
    queue_name: str = Field(default="listing-reviews", pattern=r"^[a-z][a-z0-9_-]{0,62}$")
    worker_processes: int = Field(default=1, ge=1, le=16)
    worker_threads: int = Field(default=2, ge=1, le=32)
    max_attempts: int = Field(default=3, ge=1, le=10)
    model_timeout: float = Field(default=120.0, ge=0.001, le=3600.0)
    storage_retry_delay: float = Field(default=10.0, ge=0.01, le=600.0)
    ui_port: int = Field(default=8501, ge=1, le=65535)


class SettingsError(Exception):
    """Configuration that cannot run; the message names each variable and what is wrong."""


def describe_validation_error(error: ValidationError) -> str:
    """Turn pydantic's report into one readable line per bad variable."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else "settings"
        variable = "DATABASE_URL" if field == "database_url" else f"LISTING_REVIEW_{field.upper()}"
        lines.append(f"{variable}: {problem['msg']}")
    return "invalid configuration:\n  " + "\n  ".join(lines)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Settings from the environment, cached for the process; raises SettingsError if invalid."""
    try:
        return Settings()
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None
