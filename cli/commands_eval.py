"""`listing-review eval`: score a review provider against a labelled dataset of listings, keep
the run under LISTING_REVIEW_HOME/eval-runs/, and compare two kept runs (`eval compare A B`).
"""

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.output import print_fields, print_json
from core.settings import PROVIDERS, get_settings, with_overrides

if TYPE_CHECKING:
    from core.listings.evaluation.verdict import Thresholds

JUDGES = ("openai", "gemini", "ollama")
PERCENT_FLAGS = (("--min-valid", "min_valid", 100), ("--min-recall", "min_recall", 100),
                 ("--min-concepts", "min_concepts", 80), ("--min-consistency", "min_consistency", 100))


def add_commands(commands: argparse._SubParsersAction) -> None:
    help_text = ("Run a reviewer over a labelled dataset, print and save its scorecard and verdict; "
                 "or `eval compare RUN_A RUN_B`.")
    parser = commands.add_parser("eval", help=help_text, description=help_text)
    parser.add_argument("dataset", help="JSONL file (our format or the reference's), or `compare`")
    parser.add_argument("runs", nargs="*", help="with `compare`: two run directories or names")
    parser.add_argument("--provider", choices=PROVIDERS,
                        help="reviewer to evaluate (default: LISTING_REVIEW_PROVIDER or heuristic)")
    parser.add_argument("--repeat", type=parse_repeat, default=1,
                        help="reviews per case (default 1); above the maximum is refused, naming it")
    parser.add_argument("--judge", choices=JUDGES,
                        help="also grade with this model as judge (configured like that provider)")
    for flag, _, default in PERCENT_FLAGS:
        parser.add_argument(flag, type=parse_percent, default=default,
                            help=f"eligibility threshold in percent (default {default})")
    parser.add_argument("--max-forbidden", type=parse_count, default=0,
                        help="eligibility: most forbidden claims asserted (default 0)")
    parser.add_argument("--require-eligible", action="store_true",
                        help="exit 1 when the verdict is NOT ELIGIBLE (for CI gates); without it a "
                             "completed run exits 0 whatever its verdict")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run_eval)


def parse_repeat(value: str) -> int:
    """argparse type: a usage error (exit 2) instead of a traceback or a huge paid run."""
    from core.listings.evaluation import MAX_REPEAT

    if not value.isdigit() or not 1 <= int(value) <= MAX_REPEAT:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number from 1 to {MAX_REPEAT}")
    return int(value)


def parse_percent(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 <= number <= 100:
        raise argparse.ArgumentTypeError(f"'{value}' is not a percentage from 0 to 100")
    return number


def parse_count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number of 0 or more")
    return int(value)


def run_eval(args: argparse.Namespace) -> int:
    """Exit 0 whenever the run completed: poor scores (and an ineligible verdict) are a result;
    with --require-eligible an ineligible verdict exits 1, so a CI job can gate on it.
    """
    if args.dataset == "compare":
        return run_compare(args)
    if args.runs:
        return _usage(f"unexpected arguments {' '.join(args.runs)}; did you mean `eval compare A B`?")
    return run_dataset(args)


def _usage(message: str) -> int:
    """A usage error, exit 2 like argparse's own."""
    print(f"listing-review eval: {message}", file=sys.stderr)
    return 2


def run_dataset(args: argparse.Namespace) -> int:
    from core.listings.evaluation import dataset, judge, runner, runs, scoring, verdict
    from core.listings.providers.registry import make_provider

    path = Path(args.dataset)
    text = dataset.read_dataset_text(path)
    cases = dataset.parse_dataset(text)
    settings = with_overrides(get_settings(), provider=args.provider)
    provider = make_provider(settings)
    the_judge = judge.make_judge(args.judge, settings) if args.judge else None
    results = runner.run_cases(cases, provider, settings.model_timeout, args.repeat)
    if the_judge is not None:
        results = judge.judge_results(results, the_judge, settings.model_timeout)
    card = scoring.score(results, provider)
    outcome = verdict.verdict(card, thresholds(args))
    info = runs.RunInfo(str(path), dataset.dataset_sha256(text), _judge_name(the_judge),
                        judge.judge_prompt()[0] if the_judge else None,
                        runs.cost_estimate(card, settings.prices_file))
    folder = runs.save_run(settings.home, info, card, results, outcome)
    summary = runs.summary_json(info, card, outcome) | {"runDir": str(folder)}
    print_json(summary) if args.json else print_summary(summary)
    return 1 if args.require_eligible and not outcome.eligible else 0


def _judge_name(the_judge: Any) -> str | None:
    return None if the_judge is None else f"{the_judge.name} ({the_judge.model})"


def thresholds(args: argparse.Namespace) -> "Thresholds":
    from core.listings.evaluation.verdict import Thresholds

    percents = {name: getattr(args, name) / 100 for _, name, _ in PERCENT_FLAGS}
    return Thresholds(max_forbidden=args.max_forbidden, **percents)


def run_compare(args: argparse.Namespace) -> int:
    from core.listings.evaluation.runs import compare_runs, resolve_run

    if len(args.runs) != 2:
        return _usage("compare needs exactly two runs: eval compare RUN_A RUN_B")
    home = get_settings().home
    change = compare_runs(*(resolve_run(home, name) for name in args.runs))
    print_json(change) if args.json else print_comparison(change)
    return 0


# --- Text output -----------------------------------------------------------------------------------


def print_summary(summary: dict[str, Any]) -> None:
    metrics = summary["metrics"]
    print(f"Evaluation of {summary['dataset']} with {summary['provider']} ({summary['model']}, "
          f"{summary['promptVersion']})" + (f", judge {summary['judge']} ({summary['judgePromptVersion']})"
                                            if summary["judge"] else ""))
    print_fields([(label, render(metrics.get(key))) for label, key, render in SCORECARD_ROWS]
                 + [("errors", ", ".join(f"{c} x{n}" for c, n in metrics["errorCodes"].items()) or None)])
    _print_families(metrics.get("perFamily") or {})
    _print_failures(summary["failures"], metrics)
    checks = summary["verdict"]["checks"]
    print(f"\nVerdict: {'ELIGIBLE' if summary['verdict']['eligible'] else 'NOT ELIGIBLE'}")
    for check in checks:
        print(f"  {'pass' if check['passed'] else 'FAIL'}  {check['name']}: "
              f"{_figure(check['value'])} (needs {check['threshold']})")
    print(f"\nSaved in {summary['runDir']}")


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def _number(value: Any) -> str:
    return "-" if value is None else str(value)


def _figure(value: Any) -> str:
    return _percent(value) if isinstance(value, float) else _number(value)


SCORECARD_ROWS = (
    ("cases", "cases", _number), ("runs", "runs", _number), ("valid responses", "validRate", _percent),
    ("human-review recall", "humanReviewRecall", _percent),
    ("human-review precision", "humanReviewPrecision", _percent),
    ("false-positive rate", "falsePositiveRate", _percent),
    ("forbidden claims asserted", "forbiddenClaimViolations", _number),
    ("concept coverage", "conceptCoverage", _percent),
    ("score in range", "scoreInRangeRate", _percent),
    ("consistency (repeats)", "consistency", _percent),
    ("judge: concept coverage", "judgeConceptCoverage", _percent),
    ("judge: forbidden claims", "judgeForbiddenClaimViolations", _number),
    ("judge: failed answers", "judgeErrors", _number),
    ("grader vs judge disagreements", "graderJudgeDisagreements", _number),
    ("latency p50", "latencyMedianMs", _ms), ("latency p95", "latencyP95Ms", _ms),
    ("tokens in", "inputTokens", _number), ("tokens out", "outputTokens", _number),
    ("cost estimate (USD)", "costEstimateUsd", _number),
)


FAMILY_HEADINGS = (("dataset", "Per dataset family (family: tag)"), ("rules", "Per rule family that fired"))


def _print_families(per_family: dict[str, dict[str, dict[str, Any]]]) -> None:
    """A table per grouping: a weak family shows here even when the overall rates look fine."""
    for key, heading in FAMILY_HEADINGS:
        rows = per_family.get(key) or {}
        if rows:
            width = max(len(heading), *(len(name) + 2 for name in rows))
            print(f"\n{heading:<{width}}  runs  need review  recall  false pos.  in range")
            for name, row in rows.items():
                print(f"  {name:<{width - 2}}  {row['runs']:>4}  {row['needReview']:>11}  "
                      f"{_percent(row['humanReviewRecall']):>6}  {_percent(row['falsePositiveRate']):>10}  "
                      f"{_percent(row['scoreInRangeRate']):>8}")


def _print_failures(failures: list[dict[str, Any]], metrics: dict[str, Any]) -> None:
    """Misses in full (not clipped like table cells): they are what a reader acts on."""
    if not failures:
        print("\nEvery run met its expectations.")
        return
    print(f"\nMisses ({len(failures)} of {metrics['runs']} runs):")
    for failure in failures:
        run = f" (run {failure['run']})" if metrics["runs"] > metrics["cases"] else ""
        print(f"  {failure['caseId']}{run}: {'; '.join(failure['problems'])}")


def print_comparison(change: dict[str, Any]) -> None:
    print(f"{change['runA']} -> {change['runB']}"
          + ("" if change["sameDataset"] else "  (different datasets: compare with care)"))
    renders = {key: render for _, key, render in SCORECARD_ROWS}
    print_fields([(row["metric"], f"{renders[row['metric']](row['a'])} -> {renders[row['metric']](row['b'])}"
                   + (f"  ({row['trend']})" if row["trend"] else "")) for row in change["metrics"]])
    if not change["cases"]:
        print("\nNo case changed.")
    for case in change["cases"]:
        print(f"\n  {case['caseId']}: {case['status']}")
        for label, problems in (("A", case["a"]), ("B", case["b"])):
            print(f"    {label}: {'; '.join(problems) if problems else 'met'}" if problems is not None
                  else f"    {label}: absent")
