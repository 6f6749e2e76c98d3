"""What the listing already tells buyers, named back to the seller: a review says what to keep as
well as what to fix, in the words a buyer would use ("condition described", "accessories included").
Costs nothing and sends nothing to a person.
"""

from core.listings.offline.listing import Finding, Listing, states
from core.listings.offline.matching import any_unnegated
from core.listings.offline.vocabulary import MAX_STATED_DETAILS, STATED_DETAILS, STATED_FACT_FIELDS


def stated_details(listing: Listing) -> list[Finding]:
    """One suggestion naming the details already given, so a rewrite keeps them; quoted, because they
    are what the seller says, not what the review vouches for."""
    named = [label for field, label in STATED_FACT_FIELDS if states(listing, field)]
    named += described_details(listing.seller_texts)
    if not named:
        return []
    quoted = ", ".join(f'"{label}"' for label in named[:MAX_STATED_DETAILS])
    return [Finding(0, suggestion=f"Keep the details buyers rely on, as the seller gives them: {quoted}.")]


def described_details(texts: list[str]) -> list[str]:
    """The kinds of detail the texts tell a buyer (wear, what is included, that it works, a size...):
    in the description alone, also what tells a short but concrete description from a thin one
    (completeness.py)."""
    return [label for label, terms in STATED_DETAILS if any_unnegated(terms, texts)]
