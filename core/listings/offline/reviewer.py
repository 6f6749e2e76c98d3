"""The offline reviewer: runs every rule family in a fixed order and turns findings into a review."""

from collections.abc import Callable, Iterable

from core.listings.draft import ListingDraft
from core.listings.offline.completeness import (
    exclamations,
    generic_title,
    missing_fields,
    no_attributes,
    short_description,
    short_title,
    shouting_title,
    vague_phrases,
)
from core.listings.offline.contradictions import capacity_conflict, colour_conflict, condition_conflict
from core.listings.offline.families import (
    condition_defect_conflict,
    numeric_conflict,
    safety_product,
    too_incomplete,
    unproven_provenance,
)
from core.listings.offline.listing import Finding, Listing, prepare
from core.listings.offline.scoring import MAX_LIST_ITEMS, MAX_MESSAGE_CHARS, NO_CAP
from core.listings.offline.signals import child_safety, injection, precious_metal, price_checks, text_signals
from core.listings.review import ListingReview


def review_listing(draft: ListingDraft) -> ListingReview:
    """Review one listing with fixed rules; the same draft always gets the same review.

    Seller text is only matched, never followed, so instructions hidden in a listing cannot raise
    the score: they are cut out before scoring and reported as an issue of their own.
    """
    listing = prepare(draft)
    findings = [finding for _, rule in _RULES for finding in rule(listing)]
    return _to_review(findings)


def rule_families(draft: ListingDraft) -> tuple[str, ...]:
    """Which rule families found something, for evaluation figures per family."""
    listing = prepare(draft)
    return tuple(dict.fromkeys(family for family, rule in _RULES if rule(listing)))


def _to_review(findings: list[Finding]) -> ListingReview:
    """The score is 100 minus the explained penalties, capped while a risk awaits a person."""
    findings = findings + _cap_findings(findings)
    penalty = sum(finding.penalty for finding in findings)
    return ListingReview(
        quality_score=max(0, min(100, 100 - penalty)),
        missing_fields=_unique(finding.missing_field for finding in findings),
        issues=_unique(finding.issue for finding in findings),
        suggestions=_unique(finding.suggestion for finding in findings),
        requires_human_review=any(finding.human_review for finding in findings),
    )


def _cap_findings(findings: list[Finding]) -> list[Finding]:
    """The points a risk cap removes, explained, so a capped score is never a silent number."""
    cap = min((finding.cap for finding in findings), default=NO_CAP)
    excess = 100 - sum(finding.penalty for finding in findings) - cap
    if excess <= 0:
        return []
    return [Finding(
        excess,
        issue=f"The score is capped at {cap} until a reviewer clears the safety or authenticity "
              "risk above; a listing with an open risk is not a good listing, however complete.",
    )]


def _unique(messages: Iterable[str]) -> list[str]:
    """Keep first-seen order (rule order) so output is deterministic and free of repeats."""
    kept = dict.fromkeys(_clip(message) for message in messages if message.strip())
    return list(kept)[:MAX_LIST_ITEMS]


def _clip(message: str) -> str:
    """Messages are shown in tables; keep each one readable and within the stored limit."""
    message = " ".join(message.split())
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 1] + "…"



# Safety first, then contradictions, then completeness and style; this order is the output order.
_RULES: tuple[tuple[str, Callable[[Listing], list[Finding]]], ...] = (
    ("signals", text_signals),
    ("child-safety", child_safety),
    ("precious-metal", precious_metal),
    ("price", price_checks),
    ("injection", injection),
    ("safety-critical", safety_product),
    ("provenance", unproven_provenance),
    ("too-incomplete", too_incomplete),
    ("numeric-contradiction", capacity_conflict),
    ("numeric-contradiction", numeric_conflict),
    ("condition-contradiction", condition_conflict),
    ("colour-contradiction", colour_conflict),
    ("condition-contradiction", condition_defect_conflict),
    ("completeness", short_description),
    ("completeness", short_title),
    ("completeness", generic_title),
    ("completeness", no_attributes),
    ("completeness", vague_phrases),
    ("completeness", shouting_title),
    ("completeness", exclamations),
    ("completeness", missing_fields),
)
