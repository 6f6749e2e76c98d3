"""Property-based check of the live API against its own OpenAPI document, with schemathesis:
generated requests, valid and invalid, must never get a 5xx or a response (status, content
type, headers, body) that the document does not describe.

Runs the schemathesis command (its pytest plugin does not support this pytest version);
bounded by examples per operation so the whole run stays well under a minute.
"""

import subprocess
import sys
from pathlib import Path

from sqlalchemy import Engine

from core.accounts.service import create_key
from core.webhooks.registration import register_webhook
from tests.api_server import ApiServer

CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_headers_conformance", "response_schema_conformance")
EXAMPLES_PER_OPERATION = 50


def test_responses_conform_to_the_openapi_document(database_url: str, engine: Engine, tmp_path: Path):
    _, secret = create_key(engine, "schema-seller")
    register_webhook(engine, "schema-seller", "https://hooks.example/schema")
    server = ApiServer(database_url)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "run", f"{server.base_url}/openapi.json",
             "--header", f"Authorization: Bearer {secret}", "--checks", ",".join(CHECKS),
             "--max-examples", str(EXAMPLES_PER_OPERATION), "--request-timeout", "30"],
            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    finally:
        server.close()
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    assert "No issues found" in run.stdout
