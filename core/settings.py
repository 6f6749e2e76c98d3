"""The one settings class: every knob, its environment variable, default and bounds."""

import ipaddress
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

import platformdirs
from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Provider = Literal["heuristic", "openai", "ollama", "gemini"]
PROVIDERS: tuple[str, ...] = get_args(Provider)
OWNER_MAX_LENGTH = 128
HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*")


def seller_id(value: str) -> str:
    """The one owner-id rule (environment, command line, API keys): surrounding spaces are
    dropped and 1-128 characters must remain, as the owner columns' CHECK constraints require.
    """
    owner = value.strip()
    if not 1 <= len(owner) <= OWNER_MAX_LENGTH:
        raise ValueError(f"a seller id is 1-{OWNER_MAX_LENGTH} characters and not blank")
    return owner


OIDC_VARIABLES = (("oidc_metadata_url", "LISTING_REVIEW_OIDC_METADATA_URL"),
                  ("oidc_client_id", "LISTING_REVIEW_OIDC_CLIENT_ID"),
                  ("oidc_client_secret", "LISTING_REVIEW_OIDC_CLIENT_SECRET"),
                  ("public_url", "LISTING_REVIEW_PUBLIC_URL"))


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or `localhost`: reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
    owner: str = "local"
    provider: Provider = "heuristic"
    openai_api_key: SecretStr | None = Field(default=None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    openai_model: str = Field(default="gpt-4.1-mini", validation_alias="OPENAI_MODEL", min_length=1)
    ollama_base_url: str = Field(default="http://localhost:11434/v1",
                                 validation_alias="OLLAMA_BASE_URL")
    ollama_model: str = Field(default="llama3.1", validation_alias="OLLAMA_MODEL", min_length=1)
    gemini_api_key: SecretStr | None = Field(default=None, validation_alias="GEMINI_API_KEY")
    gemini_base_url: str | None = Field(default=None, validation_alias="GEMINI_BASE_URL")
    gemini_model: str = Field(default="gemini-2.5-flash", validation_alias="GEMINI_MODEL",
                              min_length=1)
    max_batch_items: int = Field(default=1000, ge=1, le=10_000)
    max_upload_bytes: int = Field(default=20 * 1024 * 1024, ge=1024, le=200 * 1024 * 1024)
    queue_name: str = Field(default="listing-reviews", pattern=r"^[a-z][a-z0-9_-]{0,62}$")
    worker_processes: int = Field(default=1, ge=1, le=16)
    worker_threads: int = Field(default=2, ge=1, le=32)
    worker_prefetch: int | None = Field(
        default=None, ge=1, le=1000,
        description="Messages a process holds at once; unset = 5 x threads (dramatiq: 2 x).")
    max_attempts: int = Field(default=3, ge=1, le=10)
    model_timeout: float = Field(default=120.0, ge=0.001, le=3600.0)
    storage_retry_delay: float = Field(default=10.0, ge=0.01, le=600.0)
    ui_port: int = Field(default=8501, ge=1, le=65535)
    api_port: int = Field(default=8000, ge=1, le=65535)
    worker_metrics_port: int = Field(default=9191, ge=1, le=65535,
                                     description="Prometheus endpoint of `listing-review worker`.")
    ui_metrics_port: int = Field(default=9192, ge=1, le=65535,
                                 description="Prometheus endpoint of the UI process.")
    api_metrics_port: int = Field(default=9193, ge=1, le=65535,
                                  description="Prometheus endpoint of the API process.")
    log_format: Literal["text", "json"] = Field(
        default="text", description="Log lines for people (text) or machines (one JSON object each).")
    max_unfinished_items_per_owner: int = Field(default=20000, ge=1, le=1_000_000)
    api_review_concurrency: int = Field(
        default=4, ge=1, le=64, description="Synchronous reviews at once per API process.")
    # Recovery of a killed worker's job takes lease - interval .. lease + interval (5-7 s): a
    # live worker's beat may be 5 s late before its jobs are taken (README: Recovery).
    recovery_interval: float = Field(default=1.0, ge=0.05, le=60.0)
    job_lease: float = Field(default=6.0, ge=0.2, le=600.0)
    retry_base_delay: float = Field(default=2.0, ge=0.01, le=600.0)
    retry_max_delay: float = Field(default=60.0, ge=0.01, le=3600.0)
    shutdown_wait: float = Field(default=30.0, ge=0.0, le=600.0)
    metrics_host: str | None = Field(
        default=None, max_length=253,
        description="Interface the Prometheus endpoints listen on; unset = `bind_address`.")
    request_body_timeout: float = Field(
        default=30.0, ge=0.1, le=3600.0,
        description="Seconds an API request body may take to arrive; a slower one gets 408.")
    breaker_failure_threshold: int = Field(
        default=5, ge=1, le=1000,
        description="Consecutive provider failures (5xx, unreachable, timeout, 429) that open "
                    "the provider+model's circuit breaker for every worker.")
    breaker_open_seconds: float = Field(
        default=2.0, ge=0.05, le=600.0,
        description="How long an open breaker pauses claims before one probe call (longer if "
                    "the provider's Retry-After says so).")
    oidc_metadata_url: str | None = Field(
        default=None, pattern=r"^https?://\S+$", max_length=2000,
        description="The provider's /.well-known/openid-configuration; set with the three below "
                    "to make visitors sign in.")
    oidc_client_id: str | None = Field(default=None, min_length=1, max_length=500)
    oidc_client_secret: SecretStr | None = Field(default=None, min_length=1)
    public_url: str | None = Field(
        default=None, pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$", max_length=2000,
        description="The address browsers use for the UI; the sign-in redirect URI is derived from it.")
    cookie_secret: SecretStr | None = Field(
        default=None, min_length=32,
        description="Signs the sign-in cookie; unset = generated once and kept under `home`.")
    operators: str = Field(default="", max_length=10_000,
                           description="Comma-separated e-mail addresses or subjects with the operator role.")
    bind_address: str = Field(
        default="127.0.0.1", max_length=253,
        description="Interface the UI, the API and (unless METRICS_HOST says otherwise) the metrics "
                    "listen on; a non-loopback address needs sign-in (OIDC) configured.")
    retention_days: int = Field(
        default=90, ge=1, le=3650,
        description="Days a finished batch (and its jobs) is kept after completion; "
                    "`listing-review purge` deletes older ones.")
    webhook_interval: float = Field(
        default=5.0, ge=0.1, le=3600.0,
        description="Seconds between a worker's passes over due webhook deliveries.")
    webhook_timeout: float = Field(
        default=5.0, ge=0.5, le=30.0, description="Seconds a webhook receiver has to answer.")
    webhook_max_attempts: int = Field(
        default=8, ge=1, le=30,
        description="Attempts before a webhook delivery is marked failed (backoff 10 s x 2^n, "
                    "at most an hour).")
    prices_file: Path | None = Field(
        default=None,
        description="A .json or .toml file of prices that win over genai-prices' table: as_of "
                    "and prices.<provider>.<model>.input_per_million/output_per_million (USD).")
    rate_limits: str = Field(
        default="", max_length=10_000,
        description="Shared limits per provider+model across every worker, e.g. "
                    "`openai:gpt-4.1-mini=500rpm,200000tpm;gemini:gemini-2.5-flash=1000rpm`; "
                    "empty = no limit.")
    max_running_per_seller: int = Field(
        default=0, ge=0, le=10_000,
        description="Most jobs of one seller running at once across every worker; a job over "
                    "it waits (no attempt spent) so other sellers' jobs run. 0 = no cap.")
    daily_budget: float = Field(
        default=0.0, ge=0.0, le=1_000_000.0,
        description="USD one seller may spend per UTC day; once reached, the remaining items "
                    "end as BUDGET_EXCEEDED. 0 = no daily budget.")
    economy_min_items: int = Field(
        default=0, ge=0, le=10_000,
        description="A batch of at least this many listings whose seller chose no mode is reviewed "
                    "in economy mode (when the provider has it). 0 = never automatic.")

    @field_validator("rate_limits")
    @classmethod
    def rate_limits_are_readable(cls, value: str) -> str:
        """A malformed limit stops start-up naming the variable, not the first call."""
        from core.provider_gate.rate_limits import parse_rate_limits

        parse_rate_limits(value, PROVIDERS)
        return value

    @field_validator("prices_file")
    @classmethod
    def prices_file_is_readable(cls, value: Path | None) -> Path | None:
        """A broken price file stops start-up (naming the variable), not the first cost read."""
        if value is not None:
            from core.costs.prices import read_price_file

            read_price_file(value)
        return value

    @field_validator("database_url")
    @classmethod
    def database_url_is_postgres(cls, value: str | None) -> str | None:
        if value and not re.match(r"^postgres(ql)?(\+\w+)?://", value):
            raise ValueError("must be a PostgreSQL URL such as postgresql://user:password@host:5432/db")
        return value or None

    @field_validator("owner")
    @classmethod
    def owner_is_a_seller_id(cls, value: str) -> str:
        return seller_id(value)

    @field_validator("metrics_host", "bind_address")
    @classmethod
    def metrics_host_is_an_address(cls, value: str | None) -> str | None:
        """An IP address or a host name, so a typo fails at start-up, not at the first scrape."""
        if value is None:
            return None
        try:
            ipaddress.ip_address(value)
        except ValueError:
            if not HOST_NAME.fullmatch(value):
                raise ValueError("must be an IP address (such as 127.0.0.1) or a host name") from None
        return value

    @property
    def max_upload_megabytes(self) -> int:
        """The upload limit in Streamlit's unit (MiB), rounded up, so the UI refuses a file
        larger than that before receiving it and our own check refuses the rest.
        """
        return math.ceil(self.max_upload_bytes / (1024 * 1024))

    @model_validator(mode="after")
    def provider_has_its_key(self) -> "Settings":
        """A missing key is a start-up error naming the variable, not a failure on every job."""
        required = {"openai": ("openai_api_key", "OPENAI_API_KEY"),
                    "gemini": ("gemini_api_key", "GEMINI_API_KEY")}.get(self.provider)
        if required and getattr(self, required[0]) is None:
            raise ValueError(f"{required[1]} must be set when LISTING_REVIEW_PROVIDER={self.provider}")
        return self

    @field_validator("public_url")
    @classmethod
    def public_url_without_slash(cls, value: str | None) -> str | None:
        return value.rstrip("/") if value else None

    @model_validator(mode="after")
    def metrics_follow_the_bind_address(self) -> "Settings":
        if self.metrics_host is None:
            self.metrics_host = self.bind_address
        return self

    @model_validator(mode="after")
    def sign_in_is_all_or_nothing(self) -> "Settings":
        """Half an OIDC configuration would either break sign-in or silently run unprotected."""
        missing = [variable for field, variable in OIDC_VARIABLES if getattr(self, field) is None]
        if 0 < len(missing) < len(OIDC_VARIABLES):
            raise ValueError(f"sign-in needs all of {', '.join(v for _, v in OIDC_VARIABLES)}; "
                             f"missing: {', '.join(missing)}")
        return self

    @model_validator(mode="after")
    def exposed_only_with_sign_in(self) -> "Settings":
        """Without sign-in every visitor acts as the local operator: only this machine may."""
        if not self.sign_in and not is_loopback(self.bind_address):
            raise ValueError(
                f"LISTING_REVIEW_BIND_ADDRESS={self.bind_address} would let anyone on the network act "
                f"as the local operator: set {', '.join(v for _, v in OIDC_VARIABLES)} so visitors "
                "sign in, or bind 127.0.0.1")
        return self

    @property
    def sign_in(self) -> bool:
        """True when visitors must sign in with OpenID Connect (otherwise: local mode)."""
        return self.oidc_metadata_url is not None

    @property
    def operator_names(self) -> frozenset[str]:
        """The e-mail addresses (compared in lower case) and subjects given the operator role."""
        return frozenset(name.strip().lower() for name in self.operators.split(",") if name.strip())

    @model_validator(mode="after")
    def lease_outlives_heartbeats(self) -> "Settings":
        """A lease shorter than a few heartbeats would recover jobs that are still running."""
        if self.job_lease < 3 * self.recovery_interval:
            raise ValueError("LISTING_REVIEW_JOB_LEASE must be at least 3 x "
                             "LISTING_REVIEW_RECOVERY_INTERVAL")
        return self


class SettingsError(Exception):
    """Configuration that cannot run; the message names each variable and what is wrong."""


def describe_validation_error(error: ValidationError) -> str:
    """Turn pydantic's report into one readable line per bad variable."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        message = problem["msg"].removeprefix("Value error, ")
        lines.append(f"{_variable(field)}: {message}" if field else message)
    return "invalid configuration:\n  " + "\n  ".join(lines)


def _variable(field: str) -> str:
    """The environment variable a field is read from."""
    if field not in Settings.model_fields:
        return field
    alias = Settings.model_fields[field].validation_alias
    if isinstance(alias, str):
        return alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return f"LISTING_REVIEW_{field.upper()}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Settings from the environment, cached for the process; raises SettingsError if invalid."""
    try:
        return Settings()
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None


def with_overrides(settings: Settings, **values: object) -> Settings:
    """`settings` with command-line overrides applied and validated like the environment."""
    chosen = {name: value for name, value in values.items() if value is not None}
    try:
        return Settings.model_validate(settings.model_dump() | chosen)
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None
