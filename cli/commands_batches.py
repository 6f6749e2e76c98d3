"""Commands that act on whole batches: list them, cancel the unstarted part, retry the
failures, export the results. The same core services as the dashboard and the API.

`batches` and `export` only read (no migration, no Dramatiq); `cancel` and `retry` write.
"""

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from cli.commands_use import _command as command
from cli.commands_use import _owner as owner_of
from cli.commands_use import parse_uuid
from cli.output import print_json, print_table
from core.batches.export import fixup_rule
from core.batches.progress import BATCH_STATUSES
from core.batches.recent import LIMIT_MAX
from core.downloads import DOWNLOAD_FORMATS

DEFAULT_LIMIT = 20
STDOUT = "-"
EXPORT_EPILOG = (f"{fixup_rule()}\nWhen no listing qualifies, no fix-up file is written: the command "
                 "says so and exits 0 (with --json: \"file\": null).")


def add_commands(commands: argparse._SubParsersAction) -> None:
    batches = command(commands, "batches", "List your batches, newest first, a page at a time.",
                      run_batches)
    batches.add_argument("--status", choices=BATCH_STATUSES, help="only batches in this state")
    batches.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                         help=f"1-{LIMIT_MAX} (default {DEFAULT_LIMIT})")
    batches.add_argument("--after", metavar="CURSOR", help="nextAfter of the previous page")
    cancel = command(commands, "cancel", "Cancel a batch's listings that have not started.", run_cancel)
    cancel.add_argument("batch_id", type=parse_uuid)
    retry = command(commands, "retry", "Review a complete batch's failed and cancelled listings "
                    "again, as a new linked batch; a batch already retried goes on along its retries to the "
                    "newest one (retried in turn when it is complete with failures).", run_retry)
    retry.add_argument("batch_id", type=parse_uuid)
    retry.add_argument("--budget", metavar="USD",
                       help="the retry's budget, e.g. a raised one after BUDGET_EXCEEDED "
                            "(default: the retried batch's)")
    export = command(commands, "export", "Write a batch's results (csv, json) or its fix-up file "
                     "(the listings that need work or human review, in your own columns).", run_export,
                     epilog=EXPORT_EPILOG)
    export.add_argument("batch_id", type=parse_uuid)
    export.add_argument("--format", choices=DOWNLOAD_FORMATS, required=True)
    export.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="file to write, `-` for standard output (default: the export's own name, "
                             "<batch name or file>-<YYYY-MM-DD>-results.csv / .json / -fixup.csv, "
                             "in the current directory)")


def run_batches(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.recent import list_batches
    from core.cursors import decode_cursor, encode_cursor

    runtime = open_runtime(migrate=False)
    page = list_batches(runtime.engine, owner_of(args, runtime), status=args.status,
                        before=decode_cursor(args.after), limit=args.limit)
    next_after = encode_cursor(page.next_before)
    if args.json:
        print_json({"items": [summary.to_json_dict() for summary in page.items], "nextAfter": next_after})
        return 0
    print_table(["batch id", "submitted", "status", "total", "succeeded", "failed", "cancelled", "name"],
                [[summary.batch_id, f"{summary.submitted_at:%Y-%m-%d %H:%M}", summary.status, summary.total,
                  summary.succeeded, summary.failed, summary.cancelled, summary.display_name]
                 for summary in page.items])
    if next_after is not None:
        print(f"More: listing-review batches --after {next_after}"
              + (f" --status {args.status}" if args.status else ""))
    return 0


def run_cancel(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.progress import get_summary
    from core.jobs.cancel import cancel_unstarted

    runtime = open_runtime()
    owner = owner_of(args, runtime)
    cancelled = cancel_unstarted(runtime.engine, owner, args.batch_id)
    summary = get_summary(runtime.engine, owner, args.batch_id)
    if args.json:
        print_json({"cancelled": cancelled, "batch": summary.to_json_dict()})
    else:
        print(f"Cancelled {cancelled} listing(s) that had not started; listings already running finish. "
              f"Batch {summary.batch_id}: {summary.status}, {summary.succeeded} succeeded, "
              f"{summary.failed} failed, {summary.cancelled} cancelled of {summary.total}.")
    return 0


def run_retry(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.retry import retry_failed

    runtime = open_runtime()
    accepted = retry_failed(runtime.engine, runtime.queue, owner_of(args, runtime), args.batch_id,
                            runtime.settings.max_batch_items, budget=args.budget)
    if args.json:
        print_json(accepted.to_json_dict())
        return 0
    print(f"{accepted.message} Batch {accepted.batch_id}.")
    print(f"Follow it with: listing-review batch {accepted.batch_id}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.batches.export import NothingToFix
    from core.downloads import open_download

    runtime = open_runtime(migrate=False)
    try:
        download = open_download(runtime.engine, owner_of(args, runtime), args.batch_id, args.format)
    except NothingToFix as nothing:
        return _report_export(args, None, 0, nothing.message)
    if str(args.output) == STDOUT:
        for chunk in download.chunks:
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        return 0
    path = args.output or Path(download.file_name)
    size = _write_chunks(path, download.chunks)
    return _report_export(args, path, size, f"Wrote {args.format} export of batch {args.batch_id} "
                                            f"to {path} ({size} bytes).")


def _report_export(args: argparse.Namespace, path: Path | None, size: int, message: str) -> int:
    """The outcome line (exit 0 also when there was nothing to fix and no file was written)."""
    if args.json:
        print_json({"batchId": str(args.batch_id), "format": args.format,
                    "file": None if path is None else str(path), "bytes": size, "message": message})
    else:
        print(message)
    return 0


def _write_chunks(path: Path, chunks: Iterator[bytes]) -> int:
    """Write beside the target and rename at the end, so a failure (disk, database) never
    leaves a partial file under the export's name."""
    partial = path.with_name(path.name + ".part")
    try:
        with partial.open("wb") as file:
            size = sum(file.write(chunk) for chunk in chunks)
        partial.replace(path)
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if not isinstance(error, OSError):
            raise
        from core.errors import InvalidBatchRequest

        raise InvalidBatchRequest(f"Cannot write {path}: {error.strerror}.") from None
    return size
