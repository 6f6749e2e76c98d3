"""The offline reviewer as a provider: deterministic rules, no network, no key."""

from core.listings.draft import ListingDraft
from core.listings.offline.reviewer import review_listing
from core.listings.providers.base import ProviderAnswer

RULES_VERSION = "heuristic-v2"


class HeuristicProvider:
    name = "heuristic"
    model = "rules"
    prompt_version = RULES_VERSION

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        return ProviderAnswer(review_listing(draft))
