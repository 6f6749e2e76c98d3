"""`listing-review webhook set|show|remove`: a seller's completion webhook."""

import argparse

from cli.commands_use import parse_owner
from cli.output import print_json


def add_commands(commands: argparse._SubParsersAction) -> None:
    webhook = commands.add_parser("webhook", help="Register, show or remove a seller's completion webhook.",
                                  description="When a batch completes, its summary is POSTed, signed, "
                                  "to the seller's webhook (see the README's Webhooks section).")
    actions = webhook.add_subparsers(dest="webhook_command", required=True, metavar="ACTION")
    register = _action(actions, "set", "Register (or replace) the URL; the signing secret is "
                       "printed only once.", run_set)
    register.add_argument("url", help="https://..., or http://localhost / http://127.0.0.1")
    _action(actions, "show", "Show the URL and when it was registered (never the secret).", run_show)
    _action(actions, "remove", "Stop announcing completions.", run_remove)


def _action(actions, name: str, help_text: str, handler) -> argparse.ArgumentParser:
    parser = actions.add_parser(name, help=help_text, description=help_text)
    parser.add_argument("--owner", required=True, type=parse_owner, help="seller id")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=handler)
    return parser


def run_set(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.webhooks.registration import register_webhook

    webhook, secret = register_webhook(open_runtime().engine, args.owner, args.url)
    if args.json:
        print_json(webhook.to_json_dict() | {"secret": secret})
    else:
        print(f"Webhook of seller '{args.owner}': {webhook.url}")
        print("Signing secret (shown only now; store it with the receiver):")
        print(secret)
    return 0


def run_show(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.webhooks.registration import read_webhook

    webhook = read_webhook(open_runtime(migrate=False).engine, args.owner)
    if args.json:
        print_json(webhook.to_json_dict())
    else:
        print(f"Webhook of seller '{args.owner}': {webhook.url} "
              f"(registered {webhook.created_at:%Y-%m-%d %H:%M})")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.webhooks.registration import remove_webhook

    remove_webhook(open_runtime().engine, args.owner)
    if args.json:
        print_json({"owner": args.owner, "removed": True})
    else:
        print(f"Webhook of seller '{args.owner}' removed; its pending deliveries will not be sent.")
    return 0
