"""Commands that use the product: submit a catalog, read batches, items and jobs, review one.

Read commands (batch, items, job) open the database without migrating it: they only check
that its schema is current, and answer at once.
"""

import argparse
import shlex
import sys
import uuid
from pathlib import Path
from typing import Any

from cli.output import print_fields, print_json, print_review, print_table, yes_no
from core.batches.pages import DEFAULT_LIMIT, LIMIT_MAX, SORTS, VIEWS, BatchItem
from core.batches.verdicts import VERDICT_WORDS, state_word
from core.settings import PROVIDERS, seller_id

LISTING_HELP = """\
The listing file holds one JSON object (UTF-8) with the fields title, description and
category (text), price (a number or a decimal string such as "45.00", not negative) and
optionally attributes (an object of name -> text), e.g.

  {"title": "Wireless keyboard", "description": "Used keyboard with USB receiver.",
   "category": "Computer accessories", "price": 45.00, "attributes": {"brand": "KeyPro"}}

The object may also be wrapped as {"listing": {...}}, the API's request shape."""


def add_commands(commands: argparse._SubParsersAction) -> None:
    submit = _command(commands, "submit", "Check a catalog file and accept it as one batch.", run_submit)
    submit.add_argument("file", type=Path, help="CSV, JSON or JSONL catalog")
    submit.add_argument("--key", help="idempotency key (default: hash of owner + file content)")
    submit.add_argument("--name", help="what to call the batch: one line, shown wherever the batch is")
    submit.add_argument("--budget", metavar="USD",
                        help="most to spend on this batch, e.g. 2.50; once reached, the remaining "
                             "listings end as BUDGET_EXCEEDED (retry --budget to finish them)")
    submit.add_argument("--mode", choices=("standard", "economy"),
                        help="economy: reviewed through the provider's Batch API within 24 hours at "
                             "about half the price (openai, gemini); default: economy for a batch of "
                             "LISTING_REVIEW_ECONOMY_MIN_ITEMS+ listings when set, else standard")
    submit.add_argument("--valid-only", action="store_true",
                        help="when some rows have problems, submit the valid rows only (the others "
                             "are recorded: listing-review rejected-rows BATCH_ID)")
    batch = _command(commands, "batch", "Show a batch's progress.", run_batch)
    batch.add_argument("batch_id", type=parse_uuid)
    rejected = _command(commands, "rejected-rows", "Write the problems of the rows a batch left out "
                        "(submitted with --valid-only) as CSV, to fix and submit again.", run_rejected_rows)
    rejected.add_argument("batch_id", type=parse_uuid)
    rejected.add_argument("-o", "--output", type=Path, metavar="FILE",
                          help="file to write (default: standard output)")
    items = _command(commands, "items", "A batch's items as a table, a page at a time: a view, a search "
                     "and an order, with every view's count (and the job ids).", run_items)
    items.add_argument("batch_id", type=parse_uuid)
    items.add_argument("--view", choices=VIEWS, default="all",
                       help="needs_attention = needs work, needs human review or failed; "
                            "pending = queued or running (default all)")
    items.add_argument("--search", help="start of an item id (exact case) or of a title (any case)")
    items.add_argument("--sort", choices=SORTS, default="position",
                       help="position (file order, default) or score (worst first; unreviewed last)")
    items.add_argument("--cursor", help="where to continue: the cursor of the 'More:' line (nextCursor)")
    items.add_argument("--after", type=int, help="position order only: last position already seen")
    items.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                       help=f"1-{LIMIT_MAX} (default {DEFAULT_LIMIT})")
    job = _command(commands, "job", "Show one review job and its review in full.", run_job)
    job.add_argument("job_id", type=parse_uuid)
    review = _command(commands, "review", "Review one listing now (synchronous); nothing is stored.",
                      run_review, owner=False, epilog=LISTING_HELP)
    review.add_argument("listing", type=Path, help="JSON file with one listing (see below)")
    review.add_argument("--provider", choices=PROVIDERS,
                        help="reviewer to use (default: LISTING_REVIEW_PROVIDER or heuristic)")


def _command(commands, name: str, help_text: str, handler, owner: bool = True, epilog: str | None = None):
    parser = commands.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print JSON")
    if owner:
        parser.add_argument("--owner", type=parse_owner,
                            help="seller id, 1-128 characters (default: LISTING_REVIEW_OWNER or 'local')")
    parser.set_defaults(handler=handler)
    return parser


def parse_uuid(value: str) -> uuid.UUID:
    """argparse type: a readable usage error instead of a traceback."""
    try:
        return uuid.UUID(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a valid id (expected a UUID)") from None


def parse_owner(value: str) -> str:
    """argparse type: the one seller-id rule, as a usage error (exit 2)."""
    try:
        return seller_id(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_submit(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.submission import submit_catalog

    runtime = open_runtime()
    data = _read_bytes(args.file)
    accepted = submit_catalog(
        runtime.engine, runtime.queue, runtime.settings, owner=_owner(args, runtime),
        filename=args.file.name, data=data, key=args.key, name=args.name,
        accept_valid_rows=args.valid_only, budget=args.budget, mode=args.mode,
    )
    if args.json:
        print_json(accepted.to_json_dict())
        return 0
    verb = "Accepted" if accepted.created else "Already submitted:"
    summary = accepted.summary
    print(f"{verb} batch {accepted.batch_id} \"{summary.display_name}\" ({summary.total} listings, "
          f"{summary.status}, {accepted.mode} mode).")
    if summary.rejected_rows:
        print(f"Left out {summary.rejected_rows} row(s) with problems: "
              f"listing-review rejected-rows {accepted.batch_id} -o rejected.csv")
    print(f"Follow it with: listing-review batch {accepted.batch_id}")
    return 0


def run_rejected_rows(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.rejected import rejected_rows_csv

    runtime = open_runtime(migrate=False)
    _, data = rejected_rows_csv(runtime.engine, _owner(args, runtime), args.batch_id)
    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        args.output.write_bytes(data)
    except OSError as error:
        from core.errors import InvalidBatchRequest

        raise InvalidBatchRequest(f"Cannot write {args.output}: {error.strerror}.") from None
    if args.json:
        print_json({"batchId": str(args.batch_id), "file": str(args.output), "bytes": len(data)})
    else:
        print(f"Wrote the rejected rows of batch {args.batch_id} to {args.output} ({len(data)} bytes).")
    return 0


def run_batch(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.progress import get_summary
    from core.batches.verdicts import batch_state_text
    from core.costs.budget import batch_budget
    from core.costs.ledger import batch_cost

    runtime = open_runtime(migrate=False)
    owner = _owner(args, runtime)
    summary = get_summary(runtime.engine, owner, args.batch_id)
    cost = batch_cost(runtime.engine, owner, args.batch_id, runtime.settings.prices_file)
    budget = batch_budget(runtime.engine, owner, args.batch_id)
    if args.json:
        print_json(summary.to_json_dict() | {"cost": cost.to_json_dict(),
                                             "budgetUsd": None if budget is None else float(budget)})
    else:
        state = batch_state_text(summary.status, summary.failed, summary.cancelled)
        print_fields([("state", state), *summary.to_json_dict().items(), ("cost", cost.describe()),
                      ("budget", "none" if budget is None else f"${budget:,.4f}")])
    return 0


def run_items(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.pages import get_items_page, item_counts, outcome_line

    runtime = open_runtime(migrate=False)
    owner = _owner(args, runtime)
    page = get_items_page(runtime.engine, owner, args.batch_id, view=args.view, search=args.search,
                          sort=args.sort, cursor=args.cursor, after=args.after, limit=args.limit,
                          max_after=runtime.settings.max_batch_items)
    counts = item_counts(runtime.engine, owner, args.batch_id)
    if args.json:
        print_json(page.to_json_dict() | {"counts": counts.to_json_dict()})
        return 0
    print(outcome_line(counts))
    print("Views: " + ", ".join(f"{view} {count:,}" for view, count in counts.views().items()))
    print_table(["#", "item", "title", "state", "verdict", "score", "human review", "issues", "job id",
                 "error"], [_item_row(item) for item in page.items])
    if page.next_cursor is not None:
        print("More: " + shlex.join(["listing-review", "items", str(args.batch_id), "--view", args.view,
                                     *(["--search", args.search] if args.search else []),
                                     "--sort", args.sort, "--cursor", page.next_cursor]))
    print("One item in full: listing-review job JOB_ID")
    return 0


def _item_row(item: BatchItem) -> list[Any]:
    """One table row; a title's line breaks and tabs become spaces so rows stay one line each."""
    return [item.position, item.item_id, " ".join(item.title.split()), state_word(item.status),
            VERDICT_WORDS[item.verdict] if item.verdict else None, item.score,
            yes_no(item.human_review) if item.result else None,
            item.issue_count, item.job_id, item.error_code]


def run_job(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.jobs.status import get_job

    runtime = open_runtime(migrate=False)
    job = get_job(runtime.engine, _owner(args, runtime), args.job_id)
    if args.json:
        print_json(job.to_json_dict())
        return 0
    shape = job.to_json_dict()
    error = shape["error"]
    print_fields([(name, value) for name, value in shape.items() if name not in ("result", "error")]
                 + [("error", f"{error['code']}: {error['message']}" if error else None)])
    if job.result:
        print()
        print_review(job.result)
    return 0


def run_review(args: argparse.Namespace) -> int:
    from core.listings import service
    from core.listings.body import parse_listing
    from core.listings.providers.registry import make_provider
    from core.settings import get_settings, with_overrides

    draft = parse_listing(_read_bytes(args.listing), str(args.listing))
    settings = with_overrides(get_settings(), provider=args.provider)
    outcome = service.review(draft, "sync", make_provider(settings), settings.model_timeout)
    result = outcome.to_stored_result()
    if args.json:
        print_json(result)
    else:
        print_review(result)
    return 0


def _owner(args: argparse.Namespace, runtime) -> str:
    return args.owner or runtime.settings.owner


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        from core.errors import InvalidBatchRequest

        raise InvalidBatchRequest(f"Cannot read {path}: {error.strerror}.") from None
