"""compose.yaml runs real commands with real settings: every app service's command parses as a
`listing-review` subcommand, and every variable it sets is a setting with a valid value.
"""

from pathlib import Path

import pytest
import yaml
from pydantic import AliasChoices

from cli.main import build_parser
from core.settings import Settings

COMPOSE = yaml.safe_load((Path(__file__).parent.parent / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = [name for name, service in SERVICES.items() if "build" in service]
# Variables the third-party images document for themselves.
IMAGE_VARIABLES = {
    "postgres": {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"},
    "grafana/grafana": {"GF_AUTH_ANONYMOUS_ENABLED", "GF_AUTH_ANONYMOUS_ORG_ROLE",
                        "GF_SECURITY_ADMIN_USER", "GF_SECURITY_ADMIN_PASSWORD"},
    "prom/prometheus": set(),
}

# Values compose takes from the host's environment (`${NAME:?...}`), as an operator would set them.
HOST_EXAMPLES = {"LISTING_REVIEW_OIDC_METADATA_URL": "https://id.example/.well-known/openid-configuration",
                 "LISTING_REVIEW_OIDC_CLIENT_ID": "listing-review", "LISTING_REVIEW_OIDC_CLIENT_SECRET": "s",
                 "LISTING_REVIEW_PUBLIC_URL": "https://reviews.example",
                 "LISTING_REVIEW_COOKIE_SECRET": "c" * 32,
                 "LISTING_REVIEW_OPERATORS": "ops@example.com"}


def setting_variables() -> set[str]:
    """Every environment variable Settings reads."""
    names = set()
    for field_name, info in Settings.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, str):
            names.add(alias)
        elif isinstance(alias, AliasChoices):
            names.update(str(choice) for choice in alias.choices)
        else:
            names.add(f"LISTING_REVIEW_{field_name.upper()}")
    return names


def test_the_stack_has_the_app_and_its_observability():
    assert {"postgres", "migrate", "worker", "ui", "prometheus", "grafana"} <= set(SERVICES)
    assert {"migrate", "worker", "ui"} <= set(APP_SERVICES)


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_service_command_is_a_real_listing_review_subcommand(name: str):
    command = SERVICES[name]["command"]
    assert command[0] == "listing-review"
    args = build_parser().parse_args(command[1:])
    assert callable(args.handler)


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_service_variables_are_settings_with_valid_values(name: str, monkeypatch):
    environment = SERVICES[name].get("environment", {})
    assert set(environment) <= setting_variables()
    for variable, value in environment.items():
        monkeypatch.setenv(variable, HOST_EXAMPLES.get(variable, str(value)) if "${" in str(value)
                           else str(value))
    Settings()


@pytest.mark.parametrize("name", [name for name in SERVICES if name not in APP_SERVICES])
def test_image_service_variables_are_ones_its_image_reads(name: str):
    image = SERVICES[name]["image"].split(":")[0]
    assert set(SERVICES[name].get("environment", {})) <= IMAGE_VARIABLES[image]


def test_prometheus_and_grafana_get_the_observability_directory():
    mounts = SERVICES["prometheus"]["volumes"] + SERVICES["grafana"]["volumes"]
    assert all(mount.startswith("./observability") for mount in mounts)
    for mount in mounts:
        assert (Path(__file__).parent.parent / mount.split(":")[0]).exists(), mount


def scraped_services() -> set[str]:
    """Compose services Prometheus scrapes (static targets and DNS service discovery)."""
    config = yaml.safe_load((Path(__file__).parent.parent / "observability/prometheus.yml").read_text())
    names = set()
    for job in config["scrape_configs"]:
        names.update(target.split(":")[0] for static in job.get("static_configs", [])
                     for target in static["targets"])
        names.update(name for dns in job.get("dns_sd_configs", []) for name in dns["names"])
    return names


def test_metrics_listen_on_loopback_unless_compose_exposes_them_to_prometheus(monkeypatch):
    monkeypatch.delenv("LISTING_REVIEW_METRICS_HOST", raising=False)
    assert Settings().metrics_host == "127.0.0.1"
    assert scraped_services() == {"worker", "ui", "api"}
    for name in scraped_services():
        assert SERVICES[name]["environment"]["LISTING_REVIEW_METRICS_HOST"] == "0.0.0.0", name
        assert not any(str(port).endswith(("9191", "9192", "9193")) for port in SERVICES[name].get(
            "ports", [])), name


def test_grafana_has_no_anonymous_access_and_its_password_comes_from_the_environment():
    environment = SERVICES["grafana"]["environment"]
    assert environment["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert "GF_AUTH_ANONYMOUS_ORG_ROLE" not in environment
    assert environment["GF_SECURITY_ADMIN_PASSWORD"].startswith("${GRAFANA_ADMIN_PASSWORD:?")


@pytest.mark.parametrize("name", ["prometheus", "grafana"])
def test_unauthenticated_observability_ports_are_published_on_loopback_only(name: str):
    assert all(str(port).startswith("127.0.0.1:") for port in SERVICES[name]["ports"])
