"""Commands of the HTTP API: manage API keys (`keys create|list|revoke`) and run it (`api`)."""

import argparse

from cli.commands_use import parse_owner, parse_uuid
from cli.output import print_json, print_table


def add_commands(commands: argparse._SubParsersAction) -> None:
    keys = commands.add_parser("keys", help="Create, list and revoke API keys.",
                               description="API keys: each belongs to one seller (owner).")
    actions = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    create = _action(actions, "create", "Create a key for a seller; it is printed only once.",
                     run_keys_create)
    create.add_argument("--owner", required=True, type=parse_owner,
                        help="seller id the key acts as (1-128 characters, not blank)")
    _action(actions, "list", "List keys (ids, owners, dates; never secrets).", run_keys_list)
    revoke = _action(actions, "revoke", "Revoke a key: it stops working at once.", run_keys_revoke)
    revoke.add_argument("key_id", type=parse_uuid)
    api = commands.add_parser("api", help="Run the HTTP API.",
                              description="Run the HTTP API (OpenAPI at /openapi.json, docs at /docs).")
    api.add_argument("--port", type=int, help="default LISTING_REVIEW_API_PORT (8000)")
    api.add_argument("--host", help="interface to listen on (default LISTING_REVIEW_BIND_ADDRESS, "
                     "127.0.0.1; 0.0.0.0 in a container, which needs sign-in configured)")
    api.set_defaults(handler=run_api)


def _action(actions, name: str, help_text: str, handler) -> argparse.ArgumentParser:
    parser = actions.add_parser(name, help=help_text, description=help_text)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=handler)
    return parser


def run_keys_create(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.accounts.service import create_key

    key_id, secret = create_key(open_runtime().engine, args.owner)
    if args.json:
        print_json({"owner": args.owner, "key": secret, "keyId": str(key_id)})
    else:
        print(f"API key {key_id} for seller '{args.owner}'. It is shown only now; store it safely:")
        print(secret)
    return 0


def run_keys_list(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.accounts.service import list_keys

    keys = list_keys(open_runtime(migrate=False).engine)
    if args.json:
        print_json([key.to_json_dict() for key in keys])
    elif not keys:
        print("No API keys yet. Create one with: listing-review keys create --owner SELLER")
    else:
        print_table(["key id", "owner", "created", "revoked"],
                    [[key.key_id, key.owner, key.created_at, key.revoked_at] for key in keys])
    return 0


def run_keys_revoke(args: argparse.Namespace) -> int:
    from composition.runtime import open_runtime
    from core.accounts.service import revoke_key

    key = revoke_key(open_runtime().engine, args.key_id)
    if args.json:
        print_json(key.to_json_dict())
    else:
        print(f"API key {key.key_id} of seller '{key.owner}' is revoked.")
    return 0


def run_api(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app
    from composition.runtime import open_runtime
    from core.settings import get_settings, with_overrides
    from core.telemetry import serve_metrics

    runtime = open_runtime(with_overrides(get_settings(), api_port=args.port, bind_address=args.host))
    port, host = runtime.settings.api_port, runtime.settings.bind_address
    serve_metrics(runtime.settings.api_metrics_port, runtime.settings.metrics_host)
    print(f"Listing Review API on http://{host}:{port} (docs at /docs). Ctrl-C to stop.",
          flush=True)
    # log_config=None: uvicorn logs through our handlers (text or JSON), not its own.
    uvicorn.run(create_app(runtime), host=host, port=port, server_header=False,
                log_config=None)
    return 0
