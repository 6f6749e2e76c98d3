"""Choosing the provider named by LISTING_REVIEW_PROVIDER (SDKs are imported only when used)."""

from core.listings.providers.base import ReviewProvider
from core.listings.providers.offline import HeuristicProvider
from core.settings import Settings


def make_provider(settings: Settings) -> ReviewProvider:
    """The configured provider; settings validation has already checked its key."""
    if settings.provider == "openai":
        from core.listings.providers.openai_chat import openai_provider

        return openai_provider(settings)
    if settings.provider == "ollama":
        from core.listings.providers.openai_chat import ollama_provider

        return ollama_provider(settings)
    if settings.provider == "gemini":
        from core.listings.providers.gemini import gemini_provider

        return gemini_provider(settings)
    return HeuristicProvider()
