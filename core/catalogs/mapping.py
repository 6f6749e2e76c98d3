"""Column mapping: a seller says which of their columns holds the item id, title, ... and
which other columns become attributes or are left out, when the headers are not our names.
"""

from collections.abc import Mapping
from dataclasses import replace

from core.catalogs.formats import normalise_column
from core.catalogs.records import FileRead, RawRecord
from core.listings.draft import LISTING_FIELDS

ITEM_ID_COLUMNS = {"item_id", "itemid", "sku"}
# The five columns every catalog needs, named as a file with our names writes them.
STANDARD_FIELDS = ("item_id", *LISTING_FIELDS)
ATTRIBUTE, IGNORE = "attribute", "ignore"
TARGETS = (*STANDARD_FIELDS, ATTRIBUTE, IGNORE)

ColumnMap = Mapping[str, str]
# Headers marketplaces and spreadsheet exports commonly use for our fields (normalised). They
# are only proposed in the mapping editor: without a mapping a column keeps its default
# meaning, so a file never changes meaning behind the seller's back.
SYNONYMS = {
    "item_id": {"product_id", "productid", "article_number", "part_number", "mpn", "id"},
    "title": {"product_name", "name", "product_title", "listing_title", "item_name", "product"},
    "description": {"product_description", "details", "body", "long_description", "item_description"},
    "category": {"product_category", "product_type", "type", "department", "category_path"},
    "price": {"sale_price", "unit_price", "list_price", "retail_price", "amount"},
}

# The review columns a fix-up file adds after the seller's own, last and in this order
# (core/batches/export.py), each prefixed with `review_` as often as needed to name no column of
# the seller's. A file ending in them is a fix-up file coming back: they are our output, not
# listing attributes, so reading it ignores them and the listings read as first uploaded.
FIXUP_REVIEW_COLUMNS = ("review_verdict", "review_score", "missing_fields", "issues", "suggestions", "error")
REVIEW_PREFIX = "review_"


def returned_review_columns(columns: list[str]) -> dict[str, str]:
    """{column: IGNORE} for the trailing review columns of a fix-up file uploaded again; empty
    for any other file (including one whose review columns were moved or deleted)."""
    tail = columns[-len(FIXUP_REVIEW_COLUMNS):]
    if len(tail) < len(FIXUP_REVIEW_COLUMNS):
        return {}
    for column, ours in zip(tail, FIXUP_REVIEW_COLUMNS, strict=True):
        name = normalise_column(column)
        while name.startswith(REVIEW_PREFIX) and name != ours:
            name = name.removeprefix(REVIEW_PREFIX)
        if name != ours:
            return {}
    return dict.fromkeys(tail, IGNORE)


def apply_column_map(read: FileRead, column_map: ColumnMap) -> FileRead:
    """The same records with mapped columns renamed and ignored ones removed; columns the map
    does not mention keep their meaning (standard names, else attributes)."""
    unknown = sorted(set(column_map.values()) - set(TARGETS))
    if unknown:
        raise ValueError(f"unknown mapping targets: {unknown}")
    return FileRead(
        read.format,
        records=[_mapped(record, column_map) for record in read.records],
        errors=read.errors,
        columns=[_target(name, column_map) for name in read.columns
                 if column_map.get(name) != IGNORE and not _shielded(name, column_map)],
        count=read.count,
    )


def _mapped(record: RawRecord, column_map: ColumnMap) -> RawRecord:
    kept = {name: value for name, value in record.fields.items() if column_map.get(name) != IGNORE}
    fields = {_target(name, column_map): value for name, value in kept.items()
              if not _shielded(name, column_map)}
    shielded = {name.strip(): value for name, value in kept.items() if _shielded(name, column_map)}
    return replace(record, fields=fields, attributes=record.attributes | shielded)


def _shielded(name: str, column_map: ColumnMap) -> bool:
    """An attribute by the seller's choice although its name reads as a standard field ("Price"
    next to a "Sale price" mapped to price): it travels in RawRecord.attributes, untouched by
    name rules."""
    return column_map.get(name) == ATTRIBUTE and default_target(name) != ATTRIBUTE


def _target(name: str, column_map: ColumnMap) -> str:
    target = column_map.get(name)
    return target if target in STANDARD_FIELDS else name


def canonical_column(name: str) -> str:
    """'Item ID', 'itemId' and 'sku' all mean item_id; other names are only normalised."""
    normalised = normalise_column(name)
    return "item_id" if normalised in ITEM_ID_COLUMNS else normalised


def default_target(name: str) -> str:
    """What a column means without a mapping: a standard field, or an attribute."""
    canonical = canonical_column(name)
    return canonical if canonical in STANDARD_FIELDS else ATTRIBUTE


def suggested_targets(columns: list[str]) -> dict[str, str]:
    """What the mapping editor proposes for each column: its default meaning, else a field
    whose synonym it is, when no other column already holds that field (first one wins)."""
    suggested = {name: default_target(name) for name in columns} | returned_review_columns(columns)
    taken = set(suggested.values())
    for name in columns:
        field = _synonym_of(name)
        if suggested[name] == ATTRIBUTE and field is not None and field not in taken:
            suggested[name] = field
            taken.add(field)
    return suggested


def _synonym_of(name: str) -> str | None:
    normalised = normalise_column(name)
    return next((field for field, names in SYNONYMS.items() if normalised in names), None)


def changed_targets(choices: ColumnMap) -> dict[str, str]:
    """Only the choices that differ from the default meaning: that is the mapping to apply."""
    return {name: target for name, target in choices.items() if target != default_target(name)}
