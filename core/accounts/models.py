"""An API key as listed to operators (never its secret), and the errors of key management."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.errors import AppError


@dataclass(frozen=True)
class ApiKey:
    key_id: uuid.UUID
    owner: str
    created_at: datetime
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "keyId": str(self.key_id),
            "owner": self.owner,
            "createdAt": self.created_at.isoformat(),
            "revokedAt": self.revoked_at.isoformat() if self.revoked_at else None,
        }


class InvalidOwner(AppError):
    code = "INVALID_OWNER"


class ApiKeyNotFound(AppError):
    code = "API_KEY_NOT_FOUND"
