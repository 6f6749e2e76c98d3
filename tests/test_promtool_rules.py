"""The Prometheus configuration, rules and alert tests are valid for a real promtool.

Debian's `prometheus` package provides promtool (.ci/run installs it).
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

OBSERVABILITY = Path(__file__).parent.parent / "observability"
RULES = OBSERVABILITY / "rules"

pytestmark = pytest.mark.skipif(shutil.which("promtool") is None,
                                reason="promtool is not installed (apt-get install prometheus)")


def promtool(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["promtool", *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def test_recording_and_alert_rules_are_valid():
    result = promtool("check", "rules", "listing-review.rules.yml", cwd=RULES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_alerts_fire_on_their_conditions_and_background_traffic_never_fires_the_sync_alert():
    result = promtool("test", "rules", "listing-review.test.yml", cwd=RULES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_prometheus_configuration_is_valid():
    result = promtool("check", "config", "prometheus.yml", cwd=OBSERVABILITY)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_dashboard_query_is_valid_promql(tmp_path: Path):
    dashboard = json.loads((OBSERVABILITY / "grafana" / "dashboard.json").read_text())
    queries = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query_{number}", "expr": query} for number, query in enumerate(queries)]}]}
    (tmp_path / "dashboard.rules.yml").write_text(json.dumps(rules))
    result = promtool("check", "rules", "dashboard.rules.yml", cwd=tmp_path)
    assert queries and result.returncode == 0, result.stdout + result.stderr
