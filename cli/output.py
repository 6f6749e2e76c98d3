"""Printing results: JSON for machines (`--json`), aligned tables for people."""

import json
import sys
from collections.abc import Sequence
from typing import Any


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str))


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Columns padded to their widest cell; None shows as '-'."""
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [max([len(header)] + [len(row[i]) for row in cells]) for i, header in enumerate(headers)]
    print("  ".join(header.ljust(width) for header, width in zip(headers, widths, strict=True)).rstrip())
    for row in cells:
        print("  ".join(value.ljust(width) for value, width in zip(row, widths, strict=True)).rstrip())


def print_fields(pairs: Sequence[tuple[str, Any]]) -> None:
    width = max(len(name) for name, _ in pairs)
    for name, value in pairs:
        print(f"{name.ljust(width)}  {_cell(value)}")


def print_review(result: dict[str, Any]) -> None:
    """A stored review for a person: every issue and suggestion in full, one per line."""
    print(f"Quality score       {result['qualityScore']} / 100")
    print(f"Needs human review  {yes_no(result['requiresHumanReview'])}")
    print(f"Missing fields      {', '.join(result['missingFields']) or 'none'}")
    _print_list("Issues", result["issues"])
    _print_list("Suggestions", result["suggestions"])
    usage = result.get("usage")
    tokens = f"; {usage['inputTokens']} tokens in, {usage['outputTokens']} out" if usage else ""
    print(f"\nReviewed by {result['provider']} ({result['model']}, {result['promptVersion']}){tokens}.")


def _print_list(title: str, lines: Sequence[str]) -> None:
    print(f"\n{title}:" if lines else f"\n{title}: none")
    for line in lines:
        print(f"  - {line}")


def yes_no(flag: bool | None) -> str | None:
    return None if flag is None else ("yes" if flag else "no")


def print_error(body: dict[str, Any], as_json: bool) -> None:
    """Errors go to stderr as text, or to stdout as the `{"error": ...}` JSON document."""
    if as_json:
        print_json(body)
        return
    error = body["error"]
    print(f"error {error['code']}: {error['message']}", file=sys.stderr)
    for row in error.get("rows") or []:
        where = ", ".join(f"{key} {row[key]}" for key in ("row", "line", "itemId", "field") if key in row)
        print(f"  - {where + ': ' if where else ''}{row['message']}", file=sys.stderr)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
