"""What a catalog file turns into before validation, and the errors it can carry."""

from dataclasses import dataclass, field
from typing import Any

from core.listings.draft import printable


@dataclass(frozen=True)
class RawRecord:
    """One listing as read from a file: `row` counts items from 1, `line` is the file line.

    What the reader learnt about the record travels beside the seller's `fields`, never inside
    them, so any column name a seller writes stays theirs: `not_an_object` (a JSON entry that
    is not an object), `extra_cells` (a CSV row longer than its header) and `attributes`
    (columns the seller mapped to attributes although their names read as standard fields).
    """

    row: int
    line: int | None
    fields: dict[str, Any]
    nested: bool = False
    not_an_object: bool = False
    extra_cells: int = 0
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CatalogError:
    """A problem a seller can fix; `row` is None for problems with the file as a whole.

    Texts are made printable on the way in: a field name or id quoted from the file may hold
    a lone surrogate, which no UTF-8 response, report or log line can carry.
    """

    message: str
    row: int | None = None
    line: int | None = None
    item_id: str | None = None
    field: str | None = None

    def __post_init__(self) -> None:
        for name in ("message", "item_id", "field"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, printable(value))

    def to_json_dict(self) -> dict[str, Any]:
        """camelCase, omitting what does not apply."""
        data = {"row": self.row, "line": self.line, "itemId": self.item_id, "field": self.field}
        return {key: value for key, value in data.items() if value is not None} | {
            "message": self.message
        }

    @classmethod
    def from_json_dict(cls, data: dict[str, Any]) -> "CatalogError":
        """Back from to_json_dict (a stored report of rejected rows)."""
        return cls(data["message"], data.get("row"), data.get("line"), data.get("itemId"), data.get("field"))


@dataclass
class FileRead:
    """Records read from a file (at most the listing limit of them), or the file-level errors
    that stopped the reading. `count` is every listing the file holds, kept or not."""

    format: str
    records: list[RawRecord] = field(default_factory=list)
    errors: list[CatalogError] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    count: int = 0
