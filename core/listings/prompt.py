"""The review prompt: system rules and the listing fenced as untrusted seller data.

The text lives in prompts/*.txt; bump PROMPT_VERSION whenever it changes, because the version
is stored with every result.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from core.listings.draft import ListingDraft
from core.listings.snapshot import encode_snapshot

PROMPT_VERSION = "listing-review-v2"
PROMPTS = Path(__file__).with_name("prompts")
# What each review field means, sent as the description of that field in every provider's
# response schema (OpenAI strict mode, Gemini's response schema): one wording for both.
FIELD_DESCRIPTIONS = {
    "qualityScore": "Integer 0 (unusable) to 100 (complete, clear and consistent listing).",
    "missingFields": "Facts a buyer needs that the listing does not give, e.g. size or model number.",
    "issues": "Concrete problems in plain language; a seller's unverified claim is named as unverified.",
    "suggestions": "Concrete fixes the seller can make, one per entry.",
    "requiresHumanReview": "True when the listing may be unsafe, misleading or illegal, or is too "
                           "incomplete to assess: a person must look before it is published.",
}


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str


@cache
def _template(name: str) -> str:
    return (PROMPTS / name).read_text(encoding="utf-8")


def render_prompt(draft: ListingDraft) -> Prompt:
    """The listing JSON is the snapshot as submitted (45.00 stays 45.00); `<` is escaped so
    seller text cannot close the fence.
    """
    listing_json = encode_snapshot(draft).replace("<", "\\u003c")
    user = Template(_template("user.txt")).substitute(listing_json=listing_json)
    return Prompt(system=_template("system.txt").strip(), user=user.strip())
