"""`listing-review eval`: score a review provider against a labelled dataset of listings."""

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from cli.output import print_fields, print_json
from core.settings import PROVIDERS, get_settings, with_overrides

if TYPE_CHECKING:
    from core.listings.evaluation import Scorecard


def add_commands(commands: argparse._SubParsersAction) -> None:
    help_text = "Run a reviewer over a labelled dataset and print its scorecard."
    parser = commands.add_parser("eval", help=help_text, description=help_text)
    parser.add_argument("dataset", type=Path, help="JSONL file: one {id, listing, expect} per line")
    parser.add_argument("--provider", choices=PROVIDERS,
                        help="reviewer to evaluate (default: LISTING_REVIEW_PROVIDER or heuristic)")
    parser.add_argument("--repeat", type=parse_repeat, default=1,
                        help="reviews per case (default 1); above the maximum is refused, naming it")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run_eval)


def parse_repeat(value: str) -> int:
    """argparse type: a usage error (exit 2) instead of a traceback or a huge paid run."""
    from core.listings.evaluation import MAX_REPEAT

    if not value.isdigit() or not 1 <= int(value) <= MAX_REPEAT:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number from 1 to {MAX_REPEAT}")
    return int(value)


def run_eval(args: argparse.Namespace) -> int:
    """Exit 0 whenever the run completed: poor scores are a result, not a failure."""
    from core.listings.evaluation import evaluate, load_dataset
    from core.listings.providers.registry import make_provider

    cases = load_dataset(args.dataset)
    settings = with_overrides(get_settings(), provider=args.provider)
    card = evaluate(cases, make_provider(settings), settings.model_timeout, args.repeat)
    if args.json:
        print_json(card.to_json_dict())
    else:
        print_scorecard(args.dataset, card)
    return 0


def print_scorecard(dataset: Path, card: "Scorecard") -> None:
    print(f"Evaluation of {dataset} with {card.provider} ({card.model}, {card.prompt_version})")
    print_fields([
        ("cases / runs", f"{card.cases} / {card.runs}"),
        ("valid responses", f"{card.valid_responses} ({_percent(card.valid_rate)})"),
        ("errors", ", ".join(f"{code} x{count}" for code, count in card.error_codes.items()) or None),
        ("human-review recall", _percent(card.human_review_recall)),
        ("human-review precision", _percent(card.human_review_precision)),
        ("false-positive rate", _percent(card.false_positive_rate)),
        ("forbidden claims", card.forbidden_claim_violations),
        ("concept coverage", _percent(card.concept_coverage)),
        ("score in range", _percent(card.score_in_range_rate)),
        ("latency median / p95", f"{_ms(card.latency_median_ms)} / {_ms(card.latency_p95_ms)}"),
        ("tokens in / out", f"{_number(card.input_tokens)} / {_number(card.output_tokens)}"),
    ])
    _print_failures(card)


def _print_failures(card: "Scorecard") -> None:
    """Misses in full (not clipped like table cells): they are what a reader acts on."""
    if not card.failures:
        print("\nEvery run met its expectations.")
        return
    print(f"\nMisses ({len(card.failures)} of {card.runs} runs):")
    for failure in card.failures:
        run = f" (run {failure.run})" if card.runs > card.cases else ""
        print(f"  {failure.case_id}{run}: {'; '.join(failure.problems)}")


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)
