"""The offline reviewer: runs the rule families, then the completeness and text rules, in a fixed
order, and turns their findings into a review.

One mechanism: every rule reads its words from a vocabulary table through the same negation- and
quotation-aware matching (matching.py), and says which family it belongs to. The families that can
send a listing to a person: safety-critical products, authenticity, numeric and condition
contradictions, regulated goods, medical claims and too incomplete to assess. When none of them does,
a learned risk signal (learned.py) may still ask for a person, for wording no rule has an entry for.
"""

from collections.abc import Callable, Iterable

from core.listings.draft import ListingDraft
from core.listings.offline.authenticity import authenticity
from core.listings.offline.completeness import (
    exclamations,
    free_price,
    generic_title,
    hedged_claims,
    injection,
    missing_fields,
    no_attributes,
    short_description,
    short_title,
    shouting_title,
    thin_listing,
    vague_phrases,
)
from core.listings.offline.condition import condition_conflict
from core.listings.offline.contradictions import colour_conflict
from core.listings.offline.features import feature_conflict
from core.listings.offline.incomplete import too_incomplete
from core.listings.offline.learned import RiskModel, learned_findings, listing_features, shipped_model
from core.listings.offline.listing import Finding, Listing, prepare
from core.listings.offline.material import material_conflict
from core.listings.offline.numeric import numeric_conflict
from core.listings.offline.regulated import medical_claim, regulated_goods
from core.listings.offline.safety import safety_critical
from core.listings.offline.scoring import MAX_LIST_ITEMS, MAX_MESSAGE_CHARS, NO_CAP
from core.listings.offline.strengths import stated_details
from core.listings.review import ListingReview


def review_listing(draft: ListingDraft) -> ListingReview:
    """Review one listing with fixed rules; the same draft always gets the same review.

    Seller text is only matched, never followed, so instructions hidden in a listing cannot raise
    the score: they are cut out before scoring and reported as an issue of their own.
    """
    return review_with_model(draft, shipped_model())


def review_by_rules(draft: ListingDraft) -> ListingReview:
    """The rule families alone, without the learned signal: what the rules' own specifications test
    (a look-alike the rules leave alone may still read as risky to the learned signal)."""
    return review_with_model(draft, None)


def review_with_model(draft: ListingDraft, model: RiskModel | None) -> ListingReview:
    """The review with a given learned model, or the rules alone (None), for evaluating either."""
    return _to_review(_findings(prepare(draft), model))


def rule_families(draft: ListingDraft) -> tuple[str, ...]:
    """Which rule families found something, in rule order, for evaluation figures per family."""
    return tuple(dict.fromkeys(f.family for f in _findings(prepare(draft), shipped_model()) if f.family))


def rule_features(draft: ListingDraft) -> tuple[dict[str, str], bool]:
    """The learned model's features of a draft and whether the rules alone send it to a person,
    computed once per listing when training or evaluating many models."""
    listing = prepare(draft)
    fired = _fired(listing)
    return listing_features(listing, _quiet_rules(fired)), _flagged(fired)


def _findings(listing: Listing, model: RiskModel | None) -> list[Finding]:
    """The rules' findings; when none sends the listing to a person, the learned signal may."""
    fired = _fired(listing)
    findings = [finding for found in fired.values() for finding in found]
    if model is None or _flagged(fired):
        return findings
    return learned_findings(model, listing_features(listing, _quiet_rules(fired))) + findings


def _fired(listing: Listing) -> dict[str, list[Finding]]:
    """The findings of each rule that found something, by rule name, in rule order."""
    return {rule.__name__: found for rule in _RULES if (found := rule(listing))}


def _flagged(fired: dict[str, list[Finding]]) -> bool:
    return any(finding.human_review for found in fired.values() for finding in found)


def _quiet_rules(fired: dict[str, list[Finding]]) -> list[str]:
    """The rules that fired without sending the listing to a person (a thin description, a hedge):
    the only rule signals the learned model ever sees, since it speaks only when no risk rule did."""
    return [name for name, found in fired.items() if not any(finding.human_review for finding in found)]


def _to_review(findings: list[Finding]) -> ListingReview:
    """The score is 100 minus the explained penalties, capped while a risk awaits a person."""
    findings = findings + _cap_findings(findings)
    penalty = sum(finding.penalty for finding in findings)
    return ListingReview(
        quality_score=max(0, min(100, 100 - penalty)),
        missing_fields=_unique(finding.missing_field for finding in findings),
        issues=_unique(text for finding in findings for text in (finding.issue, finding.note)),
        suggestions=_unique(finding.suggestion for finding in findings),
        requires_human_review=any(finding.human_review for finding in findings),
    )


def _cap_findings(findings: list[Finding]) -> list[Finding]:
    """The points a risk cap removes, explained, so a capped score is never a silent number."""
    cap = min((finding.cap for finding in findings), default=NO_CAP)
    excess = 100 - sum(finding.penalty for finding in findings) - cap
    if excess <= 0:
        return []
    if not any(finding.human_review for finding in findings):
        return [Finding(excess, issue=f"The score is capped at {cap}: a listing this thin is weak, however "
                                      "well the rest reads.")]
    return [Finding(
        excess,
        issue=f"The score is capped at {cap} until a reviewer clears the risk above; a listing "
              "with an open risk is not a good listing, however complete.",
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


# Risks first (most severe first), then contradictions, then completeness and style; this order is
# the output order.
_RULES: tuple[Callable[[Listing], list[Finding]], ...] = (
    regulated_goods,
    medical_claim,
    safety_critical,
    authenticity,
    too_incomplete,
    numeric_conflict,
    condition_conflict,
    material_conflict,
    feature_conflict,
    colour_conflict,
    injection,
    free_price,
    short_description,
    short_title,
    generic_title,
    no_attributes,
    vague_phrases,
    hedged_claims,
    shouting_title,
    exclamations,
    missing_fields,
    thin_listing,
    stated_details,
)
