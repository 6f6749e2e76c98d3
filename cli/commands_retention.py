"""`purge`: delete finished work past its retention period (LISTING_REVIEW_RETENTION_DAYS)."""

import argparse
import re
from datetime import timedelta

from cli.output import print_fields, print_json
from core.settings import get_settings

_AGE = re.compile(r"^([1-9][0-9]{0,5})([dh])$")


def add_commands(commands: argparse._SubParsersAction) -> None:
    help_text = ("Delete finished batches (with their jobs) and finished standalone jobs completed "
                 "longer ago than the retention period, in small chunks; unfinished work is never "
                 "touched.")
    purge = commands.add_parser("purge", help=help_text, description=help_text)
    purge.add_argument("--older-than", type=parse_age, metavar="AGE",
                       help="e.g. 30d or 12h (default: LISTING_REVIEW_RETENTION_DAYS, 90 days)")
    purge.add_argument("--dry-run", action="store_true", help="only count what would be deleted")
    purge.add_argument("--json", action="store_true", help="print JSON")
    purge.set_defaults(handler=run_purge)


def parse_age(value: str) -> timedelta:
    """argparse type: '30d' or '12h', a readable usage error otherwise."""
    match = _AGE.match(value)
    if match is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not an age such as 30d or 12h")
    amount = int(match.group(1))
    return timedelta(days=amount) if match.group(2) == "d" else timedelta(hours=amount)


def run_purge(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.retention.purge import purge

    settings = get_settings()
    older_than = args.older_than or timedelta(days=settings.retention_days)
    report = purge(open_runtime(settings).engine, older_than, dry_run=args.dry_run)
    if args.json:
        print_json(report.to_json_dict())
        return 0
    verb = "Would delete" if report.dry_run else "Deleted"
    print_fields([("Completed before", report.cutoff.isoformat()), (f"{verb} batches", report.batches),
                  (f"{verb} jobs", report.jobs), ("Chunks", report.chunks)])
    return 0
