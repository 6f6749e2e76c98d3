"""ListingDraft: one seller listing as accepted for review, and the rules it must satisfy.

Validation returns every problem at once (field + seller-actionable message) so a catalog
upload can report all rows and fields in one pass instead of failing on the first.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

# A listing's own fields, in the order sellers see them in files and exports.
LISTING_FIELDS = ("title", "description", "category", "price")
TITLE_MAX = 200
DESCRIPTION_MAX = 5000
CATEGORY_MAX = 100
ATTRIBUTES_MAX = 50
ATTRIBUTE_NAME_MAX = 100
ATTRIBUTE_VALUE_MAX = 1000
PRICE_MAX = Decimal("1000000000")
PRICE_DECIMALS_MAX = 4
# NUL cannot be stored in PostgreSQL text at all; the other control characters are invisible
# garbage from copy-paste. Tab, newline and carriage return are ordinary text.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# A lone UTF-16 surrogate (JSON "\ud800") is no character at all: PostgreSQL jsonb refuses it
# and no UTF-8 response can carry it.
SURROGATES = re.compile("[\ud800-\udfff]")
# Digits with an optional point, ASCII only: Decimal() alone would also take "1_000", "1E3"
# and Arabic-Indic digits, which a seller would not recognise as the price they see.
PRICE_TEXT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


@dataclass(frozen=True)
class ListingDraft:
    """Typed values exactly as submitted: a price of 45.00 keeps its two decimals."""

    title: str
    description: str
    category: str
    price: Decimal
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FieldProblem:
    """One thing wrong with one field, phrased so a seller knows what to change."""

    field: str
    message: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", printable(self.field))
        object.__setattr__(self, "message", printable(self.message))


def printable(text: str) -> str:
    """Text safe to answer with, store or log: lone surrogates become U+FFFD."""
    return SURROGATES.sub("\ufffd", text)


# JSON as listings are read everywhere: every number a Decimal, so 45.00 keeps its scale and an
# integer of any length is a value the field rules reject (int() raises past 4,300 digits).
def json_number(text: str) -> Decimal:
    """A JSON number as a Decimal; one whose exponent is past what Decimal can hold at all
    (1e999999999999999999) is refused like any other bad JSON, not raised as InvalidOperation."""
    try:
        return Decimal(text)
    except InvalidOperation:
        raise json.JSONDecodeError("Number out of range", text, 0) from None


JSON_DECODER = json.JSONDecoder(parse_float=json_number, parse_int=json_number)


def load_json(text: str) -> Any:
    """A whole JSON document read by JSON_DECODER. Raises json.JSONDecodeError, or RecursionError
    when nested too deeply."""
    return JSON_DECODER.decode(text)


def validate_draft(raw: Any) -> tuple[ListingDraft | None, list[FieldProblem]]:
    """Check every field of a raw listing; the draft is returned only when nothing is wrong."""
    if not isinstance(raw, Mapping):
        return None, [FieldProblem("listing", "The listing must be an object of fields (title, ...).")]
    problems: list[FieldProblem] = []
    title = _text(raw.get("title"), "title", TITLE_MAX, problems)
    description = _text(raw.get("description"), "description", DESCRIPTION_MAX, problems)
    category = _text(raw.get("category"), "category", CATEGORY_MAX, problems)
    price = _price(raw.get("price"), problems)
    attributes = _attributes(raw.get("attributes"), problems)
    if problems:
        return None, problems
    return ListingDraft(title, description, category, price, attributes), []


def _text(value: Any, name: str, limit: int, problems: list[FieldProblem]) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.append(FieldProblem(name, f"{name} is required: add a {name}."))
        return ""
    if not isinstance(value, str):
        problems.append(FieldProblem(name, f"{name} must be text, not {_kind(value)}."))
        return ""
    if len(value) > limit:
        problems.append(
            FieldProblem(name, f"{name} has {len(value)} characters; shorten it to {limit} or fewer.")
        )
    problem = unusable_characters(name, value)
    if problem:
        problems.append(FieldProblem(name, problem))
    return value


def unusable_characters(name: str, value: str) -> str | None:
    """Why `value` cannot be stored as the seller's text, or None when it can."""
    if CONTROL_CHARACTERS.search(value):
        return f"{name} contains invisible control characters (such as NUL): retype or remove them."
    if SURROGATES.search(value):
        return f"{name} contains a broken character (a lone surrogate such as \\ud800): retype it."
    return None


def _price(value: Any, problems: list[FieldProblem]) -> Decimal:
    price = parse_price(value)
    if isinstance(price, str):
        problems.append(FieldProblem("price", price))
        return Decimal(0)
    return price


def parse_price(value: Any) -> Decimal | str:
    """A non-negative finite decimal, or the message explaining why the value is not one."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "price is required: add a price such as 45.00."
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        return f"price must be a number such as 45.00, not {_kind(value)}."
    try:
        price = _decimal(value)
    except InvalidOperation:
        return f"price '{str(value)[:40]}' is not a number: write it like 45.00, without currency symbols."
    if not price.is_finite():
        return "price must be a finite number such as 45.00."
    if isinstance(value, str) and not PRICE_TEXT.fullmatch(value.strip()):
        return (f"price '{value.strip()[:40]}' is not written as plain digits: write it like 45.00 "
                "(digits 0-9 and one point, nothing else).")
    if price < 0:
        return "price cannot be negative: use 0 or more."
    if price > PRICE_MAX:
        return f"price must be at most {PRICE_MAX}."
    exponent = price.as_tuple().exponent
    assert isinstance(exponent, int), "a finite Decimal has an int exponent (checked above)"
    if -exponent > PRICE_DECIMALS_MAX:
        return f"price has too many decimal places; use at most {PRICE_DECIMALS_MAX}, like 45.00."
    return price


def _decimal(value: str | int | float | Decimal) -> Decimal:
    """Without str() for ints, which raises past 4,300 digits."""
    if isinstance(value, str):
        return Decimal(value.strip())
    return Decimal(value) if isinstance(value, (int, Decimal)) else Decimal(str(value))


def _attributes(value: Any, problems: list[FieldProblem]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problems.append(FieldProblem("attributes", "attributes must be an object of name: value pairs."))
        return {}
    if len(value) > ATTRIBUTES_MAX:
        problems.append(
            FieldProblem(
                "attributes",
                f"there are {len(value)} attributes; keep at most {ATTRIBUTES_MAX} "
                "(remove the least useful).",
            )
        )
        return {}
    return {str(name): _attribute(name, item, problems) for name, item in value.items()}


def _attribute(name: Any, value: Any, problems: list[FieldProblem]) -> str:
    where = f"attributes.{name}"
    if not isinstance(name, str) or not name.strip() or len(name) > ATTRIBUTE_NAME_MAX:
        problems.append(
            FieldProblem("attributes", f"attribute names must be 1-{ATTRIBUTE_NAME_MAX} characters.")
        )
    if isinstance(name, str) and (problem := unusable_characters("an attribute name", name)):
        problems.append(FieldProblem(where, problem))
    if not isinstance(value, str):
        problems.append(
            FieldProblem(where, f"{where} must be text; write it in quotes, e.g. {_example(value)}."))
        return ""
    if not value.strip():
        problems.append(FieldProblem(where, f"{where} is empty: give it a value or remove it."))
    elif len(value) > ATTRIBUTE_VALUE_MAX:
        problems.append(FieldProblem(where, f"{where} is longer than {ATTRIBUTE_VALUE_MAX} characters."))
    if problem := unusable_characters(where, value):
        problems.append(FieldProblem(where, problem))
    return value


def _example(value: Any) -> str:
    """The value in quotes when it is a short number, else a generic example: echoing a
    4,300-digit integer or a deep structure would raise, not help."""
    number = (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, Decimal) and value.is_finite())
    return f'"{value}"' if number and abs(value) < 10**12 else '"42"'


def _kind(value: Any) -> str:
    kinds = {bool: "true/false", dict: "an object", list: "a list", int: "a number",
             float: "a number", Decimal: "a number"}
    return kinds.get(type(value), type(value).__name__)


def parse_attribute_lines(text: str) -> tuple[dict[str, str], list[FieldProblem]]:
    """'name: value' per line (as typed in a form) into attributes; a line without a colon is
    reported instead of silently dropped."""
    attributes: dict[str, str] = {}
    problems: list[FieldProblem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, value = line.partition(":")
        if not colon:
            problems.append(FieldProblem(
                "attributes", f"line {number} has no ':'; write attributes as 'name: value'."))
            continue
        attributes[name.strip()] = value.strip()
    return attributes, problems
