"""`listing-review`: run the product and use it from a terminal.

Exit status 0 means success; 1 an error reported as `{"error": {code, message, rows?}}`;
2 a usage or configuration error (including a database whose schema is behind).

Building the parser imports nothing heavy: each command imports what it needs when it
runs, so a read command does not load the SDKs, Dramatiq or Alembic.
"""

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence

from cli import (
    commands_api,
    commands_batches,
    commands_eval,
    commands_retention,
    commands_run,
    commands_use,
    commands_webhook,
)
from cli.output import print_error
from core.errors import AppError
from core.logging_setup import configure_logging
from core.settings import SettingsError, get_settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="listing-review",
        description="Listing Review Batches: submit catalogs and review every listing durably.",
        epilog="Configuration comes from environment variables; see the README's table "
        "(DATABASE_URL, LISTING_REVIEW_HOME, LISTING_REVIEW_OWNER, LISTING_REVIEW_MAX_BATCH_ITEMS, ...).",
    )
    parser.add_argument("--log-format", choices=("text", "json"),
                        help="log lines as text or one JSON object per line (default "
                        "LISTING_REVIEW_LOG_FORMAT or text); worker processes inherit it")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands_run.add_commands(commands)
    commands_use.add_commands(commands)
    commands_batches.add_commands(commands)
    commands_eval.add_commands(commands)
    commands_api.add_commands(commands)
    commands_retention.add_commands(commands)
    commands_webhook.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.log_format:  # through the environment, so every child process gets it too
        os.environ["LISTING_REVIEW_LOG_FORMAT"] = args.log_format
    try:
        configure_logging(get_settings().log_format, logging.WARNING)
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except SettingsError as error:
        print(str(error), file=sys.stderr)
        return 2
    except AppError as error:
        print_error(error.to_json_dict(), getattr(args, "json", False))
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as error:  # a bug: say so plainly, never with a traceback or SQL
        print_error({"error": {"code": "INTERNAL_ERROR", "message": (
            f"An unexpected error ({type(error).__name__}) stopped the command; nothing more "
            "is shown here on purpose. Please report it.")}}, getattr(args, "json", False))
        return 1


if __name__ == "__main__":
    sys.exit(main())
