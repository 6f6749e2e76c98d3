"""One listing as a JSON document: the CLI's listing file and the API's request body are read
here, so both accept the same listings and refuse the others with the same messages.
"""

import json
from typing import Any

from core.errors import InvalidBatchRequest
from core.listings.draft import ListingDraft, load_json, validate_draft


def parse_listing(data: bytes, source: str) -> ListingDraft:
    """The listing in `data`, flat or wrapped as {"listing": {...}}; numbers are read as
    draft.load_json reads them (45.00 stays 45.00, an integer of any length is a field
    problem). `source` names the document in messages ("The body", a path).

    Raises InvalidBatchRequest: a message alone when `data` is not one JSON object, a row per
    field problem when its fields are not a valid listing.
    """
    draft, problems = validate_draft(_listing_fields(data, source))
    if draft is None:
        raise InvalidBatchRequest(
            "The listing is not valid; nothing was reviewed or stored. Fix the fields listed.",
            rows=[{"field": problem.field, "message": problem.message} for problem in problems])
    return draft


def _listing_fields(data: bytes, source: str) -> dict[str, Any]:
    document = _json_document(data, source)
    if isinstance(document, dict) and isinstance(document.get("listing"), dict):
        document = document["listing"]
    if not isinstance(document, dict):
        raise InvalidBatchRequest(f"{source} must be one JSON object with the listing's fields.")
    return document


def _json_document(data: bytes, source: str) -> Any:
    """JSON's own errors say where (line and column), never what the seller wrote."""
    try:
        return load_json(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InvalidBatchRequest(f"{source} is not UTF-8 text; save it as UTF-8.") from None
    except json.JSONDecodeError as error:
        raise InvalidBatchRequest(f"{source} is not valid JSON ({error.msg} at line {error.lineno}, "
                                  f"column {error.colno}); give one listing object.") from None
    except RecursionError:
        raise InvalidBatchRequest(f"{source} is nested too deeply; give one flat listing object.") from None
