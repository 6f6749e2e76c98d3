"""The offline reviewer as a provider: deterministic rules, no network, no key."""

from core.listings.draft import ListingDraft
from core.listings.offline.reviewer import review_listing, rule_families
from core.listings.providers.base import ProviderAnswer

RULES_VERSION = "heuristic-v39"


class HeuristicProvider:
    name = "heuristic"
    model = "rules"
    prompt_version = RULES_VERSION

    def review(self, draft: ListingDraft, timeout: float) -> ProviderAnswer:
        return ProviderAnswer(review_listing(draft))

    def rule_families(self, draft: ListingDraft) -> tuple[str, ...]:
        """Which rule families fired, so evaluation can report figures per family."""
        return rule_families(draft)
