"""ListingReview: the validated outcome of reviewing one listing, whichever provider made it."""

import json
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

# No control characters: model text is stored in jsonb, which cannot hold NUL.
NonBlank = Annotated[str, StringConstraints(
    strip_whitespace=True, min_length=1, max_length=1000,
    pattern=r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$")]


class ListingReview(BaseModel):
    """Strict: a provider answer that does not fit this shape is AI_RESPONSE_INVALID, not stored."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", strict=True, frozen=True
    )

    quality_score: int = Field(ge=0, le=100)
    missing_fields: list[NonBlank] = Field(default_factory=list, max_length=50)
    issues: list[NonBlank] = Field(default_factory=list, max_length=50)
    suggestions: list[NonBlank] = Field(default_factory=list, max_length=50)
    requires_human_review: bool

    def to_json_dict(self) -> dict[str, Any]:
        """The camelCase shape stored in review_jobs.result and shown to sellers."""
        return self.model_dump(by_alias=True)


def parse_review_json(text: str | None) -> ListingReview | None:
    """A model's JSON answer as a review, or None when it is not one. The JSON and pydantic
    errors are dropped on purpose: they quote the model's output.
    """
    if not text:
        return None
    try:
        return ListingReview.model_validate(json.loads(text))
    except (ValueError, RecursionError):
        return None
