"""Saved evaluation runs and their comparison.

Why: "is the new prompt better?" needs the old run's answers, not a memory of its numbers. Every
run is kept under LISTING_REVIEW_HOME/eval-runs/<UTC timestamp>-<provider>/ as samples.jsonl (one
graded review per line) and summary.json (what was run, on which dataset, and its metrics).
"""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.costs.prices import price_of
from core.errors import InvalidBatchRequest
from core.listings.evaluation.runner import RunResult
from core.listings.evaluation.scoring import Scorecard, disagreements, grade, rounded
from core.listings.evaluation.verdict import Verdict

RUNS_DIR = "eval-runs"
# Metrics compared between runs, with the direction that counts as better.
COMPARED = {"validRate": 1, "humanReviewRecall": 1, "humanReviewPrecision": 1, "falsePositiveRate": -1,
            "forbiddenClaimViolations": -1, "conceptCoverage": 1, "scoreInRangeRate": 1, "consistency": 1,
            "judgeConceptCoverage": 1, "judgeForbiddenClaimViolations": -1, "latencyMedianMs": -1,
            "latencyP95Ms": -1, "inputTokens": -1, "outputTokens": -1, "costEstimateUsd": -1}


@dataclass(frozen=True)
class RunInfo:
    """What the scorecard does not know: the dataset, the judge and the cost estimate."""

    dataset: str
    dataset_sha256: str
    judge: str | None
    judge_prompt_version: str | None
    cost_usd: float | None


def save_run(home: Path, info: RunInfo, card: Scorecard, results: list[RunResult],
             outcome: Verdict) -> Path:
    """Write samples.jsonl and summary.json in a new directory; returns the directory."""
    folder = _new_folder(home / RUNS_DIR, card.provider)
    with (folder / "samples.jsonl").open("w", encoding="utf-8") as out:
        for result in results:
            out.write(json.dumps(sample_json(result), ensure_ascii=False) + "\n")
    summary = summary_json(info, card, outcome)
    (folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return folder


def _new_folder(root: Path, provider: str) -> Path:
    """A fresh directory; two runs in the same second get a numbered suffix, never shared."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    root.mkdir(parents=True, exist_ok=True)
    for attempt in range(1000):
        folder = root / (f"{stamp}-{provider}" + (f"-{attempt}" if attempt else ""))
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise InvalidBatchRequest(f"Too many evaluation runs named {stamp}-{provider}; try again.")


def sample_json(result: RunResult) -> dict[str, Any]:
    base = {"caseId": result.case.case_id, "run": result.run, "tags": list(result.case.tags),
            "latencyMs": round(result.latency_ms, 3), "errorCode": result.error_code,
            "inputTokens": result.input_tokens, "outputTokens": result.output_tokens,
            "review": result.review.to_json_dict() if result.review else None,
            "judgeError": result.judge_error}
    if result.review is None:
        return base | {"problems": [f"error {result.error_code}"]}
    sample = grade(result)
    return base | {"missingConcepts": list(sample.missing_concepts),
                   "assertedClaims": list(sample.asserted_claims),
                   "judgeMissingConcepts": _listed(sample.judge_missing_concepts),
                   "judgeAssertedClaims": _listed(sample.judge_asserted_claims),
                   "graderJudgeDisagreements": disagreements(sample), "problems": list(sample.problems)}


def _listed(values: tuple[str, ...] | None) -> list[str] | None:
    return None if values is None else list(values)


def summary_json(info: RunInfo, card: Scorecard, outcome: Verdict) -> dict[str, Any]:
    metrics = card.to_json_dict()
    failures = metrics.pop("failures")
    run = {"provider": card.provider, "model": card.model, "promptVersion": card.prompt_version,
           "judge": info.judge, "judgePromptVersion": info.judge_prompt_version,
           "dataset": info.dataset, "datasetSha256": info.dataset_sha256,
           "createdAt": datetime.now(UTC).isoformat(timespec="seconds")}
    metrics["costEstimateUsd"] = info.cost_usd
    return run | {"metrics": metrics, "verdict": outcome.to_json_dict(), "failures": failures}


def cost_estimate(card: Scorecard, prices_file: Path | None) -> float | None:
    """US dollars by the project's price source (core.costs), or None when the model's price or
    the token counts are unknown; the offline reviewer costs 0.
    """
    price = price_of(card.provider, card.model, datetime.now(UTC), prices_file)
    if price is None:
        return None
    if not price.charged:
        return 0.0
    if card.input_tokens is None or card.output_tokens is None:
        return None
    return round(float(price.cost(card.input_tokens, card.output_tokens)), 6)


# --- Comparing -------------------------------------------------------------------------------------


def resolve_run(home: Path, name: str) -> Path:
    """A run directory given as a path, or as its name under LISTING_REVIEW_HOME/eval-runs."""
    for folder in (Path(name), home / RUNS_DIR / name):
        if (folder / "summary.json").is_file() and (folder / "samples.jsonl").is_file():
            return folder
    raise InvalidBatchRequest(f"No saved evaluation run '{name}': give a run directory or a name "
                              f"under {home / RUNS_DIR}.")


def compare_runs(first: Path, second: Path) -> dict[str, Any]:
    """Change per metric and per case (cases whose problems differ between the runs)."""
    summaries = [_read_json(folder / "summary.json") for folder in (first, second)]
    samples = [_read_samples(folder / "samples.jsonl") for folder in (first, second)]
    return {"runA": first.name, "runB": second.name,
            "sameDataset": summaries[0].get("datasetSha256") == summaries[1].get("datasetSha256"),
            "metrics": [_metric_change(name, sign, summaries) for name, sign in COMPARED.items()],
            "cases": _case_changes(*samples)}


def _metric_change(name: str, sign: int, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    before, after = (summary.get("metrics", {}).get(name) for summary in summaries)
    numbers = isinstance(before, (int, float)) and isinstance(after, (int, float))
    change = rounded(after - before) if numbers else None
    trend = None if not change else ("better" if change * sign > 0 else "worse")
    return {"metric": name, "a": before, "b": after, "change": change, "trend": trend}


def _read_samples(path: Path) -> dict[str, list[str]]:
    try:
        return _case_problems(path)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise InvalidBatchRequest(f"{path} is not a readable evaluation samples file.") from None


def _case_problems(path: Path) -> dict[str, list[str]]:
    """Problems per case id, over all its runs (prefixed with the run number when repeated)."""
    found: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            sample = json.loads(line)
            found.setdefault(sample["caseId"], []).extend(
                f"run {sample['run']}: {problem}" for problem in sample.get("problems", []))
    return found


def _case_changes(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[dict[str, Any]]:
    changes = []
    for case_id in sorted(set(before) | set(after)):
        old, new = before.get(case_id), after.get(case_id)
        if old != new:
            status = ("only in A" if new is None else "only in B" if old is None
                      else "fixed" if not new else "broken" if not old else "changed")
            changes.append({"caseId": case_id, "status": status, "a": old, "b": new})
    return changes


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise InvalidBatchRequest(f"{path} is not a readable evaluation summary.") from None
    if not isinstance(data, dict):
        raise InvalidBatchRequest(f"{path} is not a readable evaluation summary.")
    return data
