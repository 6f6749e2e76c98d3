"""`listing-review`: run the product and use it from a terminal.

Exit status 0 means success; 1 an error reported as `{"error": {code, message, rows?}}`;
2 a usage or configuration error.
"""

import argparse
import sys
from collections.abc import Callable, Sequence

from cli import commands_run, commands_use
from cli.output import print_error
from core.errors import AppError
from core.settings import SettingsError, get_settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="listing-review",
        description="Listing Review Batches: submit catalogs and review every listing durably.",
        epilog="Configuration comes from environment variables; see the README's table "
        "(DATABASE_URL, LISTING_REVIEW_HOME, LISTING_REVIEW_MAX_BATCH_ITEMS, ...).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands_run.add_commands(commands)
    commands_use.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        get_settings()
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


if __name__ == "__main__":
    sys.exit(main())
