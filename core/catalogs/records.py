"""What a catalog file turns into before validation, and the errors it can carry."""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RawRecord:
    """One listing as read from a file: `row` counts items from 1, `line` is the file line."""

    row: int
    line: int | None
    fields: dict[str, Any]
    nested: bool = False


@dataclass(frozen=True)
class CatalogError:
    """A problem a seller can fix; `row` is None for problems with the file as a whole."""

    message: str
    row: int | None = None
    line: int | None = None
    item_id: str | None = None
    field: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """camelCase, omitting what does not apply."""
        data = {"row": self.row, "line": self.line, "itemId": self.item_id, "field": self.field}
        return {key: value for key, value in data.items() if value is not None} | {
            "message": self.message
        }


@dataclass
class FileRead:
    """Records read from a file, or the file-level errors that stopped the reading."""

    format: str
    records: list[RawRecord] = field(default_factory=list)
    errors: list[CatalogError] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
