"""Metrics and logs: what real worker processes export after a real batch, sums across
processes, safe log lines; and the counters the submitting process keeps.
"""

import json
import os
import signal
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError
from sqlalchemy import Engine

from core import telemetry
from core.batches.acceptance import accept_batch
from core.batches.progress import get_summary
from core.batches.submission import submit_catalog
from core.catalogs.check import CatalogItem
from core.errors import IdempotencyConflict, InvalidBatchRequest
from core.listings import service
from core.listings.providers.base import ProviderAnswer
from core.listings.review import ListingReview
from core.settings import Settings, describe_validation_error
from tasks.queue import DramatiqPgQueue
from tests.builders import draft, items
from tests.processes import free_port, wait_for

QUEUE = DramatiqPgQueue("listing-reviews")
LOW_CARDINALITY_LABELS = {"entrypoint", "provider", "model", "outcome", "reason", "kind", "queue",
                          "direction", "le", "queue_name", "actor_name"}
WORKER_METRICS = {
    "listing_review_feature_duration_seconds": {"entrypoint", "provider", "outcome"},
    "listing_review_job_attempt_duration_seconds": {"outcome"},
    "listing_review_job_age_at_attempt_start_seconds": set(),
    "listing_review_job_turnaround_seconds": {"outcome"},
    "listing_review_queue_depth": {"queue"},
    "listing_review_jobs_running": {"queue"},
    "listing_review_oldest_queued_job_age_seconds": {"queue"},
    "dramatiq_messages": {"queue_name", "actor_name"},
}



@dataclass
class RunningWorker:
    process: subprocess.Popen
    port: int
    stdout: Path
    stderr: Path

    def scrape(self) -> dict:
        """Metric families by name, from the supervisor's endpoint."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as response:
            body = response.read().decode()
        return {family.name: family for family in text_string_to_metric_families(body)}

    def output(self) -> str:
        return self.stdout.read_text() + self.stderr.read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(60)


@pytest.fixture
def start_worker(database_url: str, tmp_path: Path) -> Iterator:
    started: list[RunningWorker] = []

    def start(*options: str, processes: int = 1) -> RunningWorker:
        port = free_port()
        env = os.environ | {"DATABASE_URL": database_url, "LISTING_REVIEW_WORKER_METRICS_PORT": str(port),
                            "LISTING_REVIEW_WORKER_PROCESSES": str(processes),
                            "LISTING_REVIEW_WORKER_THREADS": "1", "LISTING_REVIEW_WORKER_PREFETCH": "1"}
        stdout, stderr = tmp_path / f"out-{port}.log", tmp_path / f"err-{port}.log"
        with open(stdout, "w") as out, open(stderr, "w") as err:
            process = subprocess.Popen([sys.executable, "-m", "cli.main", *options, "worker"],
                                       env=env, stdout=out, stderr=err)
        worker = RunningWorker(process, port, stdout, stderr)
        started.append(worker)
        wait_for(lambda: worker.output().count("worker process ready") == processes,
                 f"{processes} worker process(es) ready")
        return worker

    yield start
    for worker in started:
        worker.stop()


def attempts_counted(worker: RunningWorker) -> float:
    family = worker.scrape().get("listing_review_job_attempt_duration_seconds")
    return sum(s.value for s in family.samples if s.name.endswith("_count")) if family else 0


def run_batch(engine: Engine, worker: RunningWorker, batch: list[CatalogItem]) -> uuid.UUID:
    accepted = accept_batch(engine, QUEUE, owner="local", key=str(uuid.uuid4()), items=batch,
                            max_items=1000)
    wait_for(lambda: get_summary(engine, "local", accepted.batch_id).status == "COMPLETED",
             "the batch to complete")
    wait_for(lambda: attempts_counted(worker) == len(batch), "every attempt to be counted")
    return accepted.batch_id


def test_worker_metrics_have_every_name_and_only_low_cardinality_labels(engine: Engine, start_worker):
    worker = start_worker()
    batch_id = run_batch(engine, worker, items(5))
    families = worker.scrape()
    for name, labels in WORKER_METRICS.items():
        assert name in families, name
        assert labels <= {label for sample in families[name].samples for label in sample.labels}
    samples = [s for name, f in families.items() if name.startswith(("listing_review", "dramatiq"))
               for s in f.samples]
    assert {label for sample in samples for label in sample.labels} <= LOW_CARDINALITY_LABELS
    values = {value for sample in samples for value in sample.labels.values()}
    assert str(batch_id) not in values and "local" not in values and "item-1" not in values
    feature = families["listing_review_feature_duration_seconds"].samples
    assert {(s.labels["entrypoint"], s.labels["provider"], s.labels["outcome"])
            for s in feature if s.name.endswith("_count")} == {("job", "heuristic", "succeeded")}


def test_two_worker_processes_add_up_to_the_batch_size(engine: Engine, start_worker):
    worker = start_worker(processes=2)
    run_batch(engine, worker, items(40))
    families = worker.scrape()
    turnaround = families["listing_review_job_turnaround_seconds"].samples
    assert sum(s.value for s in turnaround if s.name.endswith("_count")) == 40
    depth = families["listing_review_queue_depth"].samples
    assert [(s.labels, s.value) for s in depth] == [({"queue": "listing-reviews"}, 0.0)]
    attempt_pids = {line.split()[2] for line in worker.output().splitlines() if "job attempt" in line}
    assert len(attempt_pids) == 2


def test_worker_logs_carry_no_seller_text_and_json_lines_parse(engine: Engine, start_worker):
    marker = f"MARKER-{uuid.uuid4().hex}"
    worker = start_worker("--log-format", "json")
    listing = CatalogItem(1, 2, "marked-1", draft(title=f"Wireless keyboard {marker}"))
    run_batch(engine, worker, [listing, *items(2)])
    worker.stop()
    assert marker not in worker.output()
    lines = [json.loads(line) for line in worker.stderr.read_text().splitlines() if line.strip()]
    attempts = [line for line in lines if line["message"].startswith("job attempt")]
    assert len(attempts) == 3
    assert all({"job_id", "outcome", "attempt", "duration_seconds"} <= line.keys() for line in attempts)
    assert {line["outcome"] for line in attempts} == {"succeeded"}


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_acceptance_counts_new_batches_items_replays_conflicts_and_invalid_requests(engine: Engine):
    names = ("listing_review_batches_accepted_total", "listing_review_batch_items_accepted_total",
             "listing_review_idempotent_replays_total", "listing_review_idempotency_conflicts_total")
    before = [sample(name) for name in names]
    invalid_before = sample("listing_review_uploads_rejected_total", reason="invalid_request")
    accept_batch(engine, QUEUE, owner="local", key="k", items=items(3), max_items=10)
    accept_batch(engine, QUEUE, owner="local", key="k", items=items(3), max_items=10)
    with pytest.raises(IdempotencyConflict):
        accept_batch(engine, QUEUE, owner="local", key="k", items=items(2), max_items=10)
    with pytest.raises(InvalidBatchRequest):
        accept_batch(engine, QUEUE, owner="local", key="k2", items=items(11), max_items=10)
    assert [sample(name) - b for name, b in zip(names, before, strict=True)] == [1, 3, 1, 1]
    assert sample("listing_review_uploads_rejected_total", reason="invalid_request") == invalid_before + 1


def test_rejected_catalogs_are_counted_by_a_bounded_reason(engine: Engine, settings: Settings):
    reasons = ("too_large", "unreadable", "invalid_rows")
    assert set(reasons) < set(telemetry.REJECTION_REASONS)
    before = [sample("listing_review_uploads_rejected_total", reason=reason) for reason in reasons]
    for data in (b"x" * (settings.max_upload_bytes + 1), b"\xff\xfe\x00binary", b"item_id,title\n1,\n"):
        with pytest.raises(InvalidBatchRequest):
            submit_catalog(engine, QUEUE, settings, owner="local", filename="c.csv", data=data)
    after = [sample("listing_review_uploads_rejected_total", reason=reason) for reason in reasons]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1]


class TokenReportingProvider:
    name, model, prompt_version = "scripted", "test-model", "test-v1"

    def review(self, draft, timeout: float) -> ProviderAnswer:
        return ProviderAnswer(ListingReview(quality_score=90, missing_fields=[], issues=[],
                                            suggestions=[], requires_human_review=False), 12, 7)


def test_a_synchronous_review_records_its_feature_time_and_model_tokens():
    labels = {"entrypoint": "sync", "provider": "scripted", "outcome": "succeeded"}
    count = sample("listing_review_feature_duration_seconds_count", **labels)
    tokens = sample("listing_review_model_tokens_total", provider="scripted", model="test-model",
                    direction="input")
    service.review(draft(), "sync", TokenReportingProvider(), 5)
    assert sample("listing_review_feature_duration_seconds_count", **labels) == count + 1
    assert sample("listing_review_model_tokens_total", provider="scripted", model="test-model",
                  direction="input") == tokens + 12


@pytest.mark.parametrize(("runner_outcome", "code", "expected"), [
    ("succeeded", None, "succeeded"),
    ("failed", "AI_RESPONSE_INVALID", "failed"),
    ("failed", "MODEL_TIMEOUT", "model_timeout"),
    ("retry_scheduled", "MODEL_TIMEOUT", "model_timeout"),
    ("retry_scheduled", "AI_RATE_LIMITED", "rate_limited"),
    ("retry_scheduled", "AI_PROVIDER_UNAVAILABLE", "recoverable_failure"),
    ("deferred", None, "capacity_unavailable"),
    ("stale", "MODEL_TIMEOUT", "stale"),
    ("skipped", None, "skipped"),
    ("exhausted", None, "failed"),
])
def test_attempt_outcomes_map_onto_the_bounded_metric_outcomes(runner_outcome, code, expected):
    assert telemetry.attempt_outcome(runner_outcome, code) == expected
    assert expected in telemetry.ATTEMPT_OUTCOMES


# Switching threads as often as possible makes a race on first use show up in most runs.
CONCURRENT_FIRST_USE = """
import sys, threading
sys.setswitchinterval(1e-6)
from prometheus_client import REGISTRY
from core import telemetry
start = threading.Barrier(32)
def record():
    start.wait()
    telemetry.count_recoveries("stale_job", 1)
threads = [threading.Thread(target=record) for _ in range(32)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(REGISTRY.get_sample_value("listing_review_recoveries_total", {"kind": "stale_job"}))
"""


def test_threads_recording_first_at_the_same_moment_create_the_metrics_once():
    result = subprocess.run([sys.executable, "-c", CONCURRENT_FIRST_USE], capture_output=True,
                            text=True, timeout=60)
    assert (result.stdout.strip(), result.stderr) == ("32.0", "")


def listening_addresses(port: int) -> set[str]:
    """Local addresses (as /proc/net/tcp writes them) with a TCP socket listening on `port`."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


LOOPBACK, EVERY_INTERFACE = "0100007F", "00000000"
linux_only = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc/net/tcp")


@linux_only
def test_worker_metrics_listen_on_loopback_only_by_default(start_worker):
    worker = start_worker()
    assert "listing_review_queue_depth" in worker.scrape()
    assert listening_addresses(worker.port) == {LOOPBACK}


@linux_only
def test_metrics_listen_on_the_configured_host():
    port = free_port()
    server = telemetry.serve_metrics(port, Settings(metrics_host="0.0.0.0").metrics_host,
                                     CollectorRegistry())
    try:
        assert listening_addresses(port) == {EVERY_INTERFACE}
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("host", ["", "evil host", "http://x", "a..b", "-a"])
def test_a_metrics_host_that_is_no_address_is_a_start_up_error_naming_the_variable(host: str):
    with pytest.raises(ValidationError) as raised:
        Settings(metrics_host=host)
    assert "LISTING_REVIEW_METRICS_HOST" in describe_validation_error(raised.value)
