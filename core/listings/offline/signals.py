"""Phrases and products that send a listing to a person: counterfeit, hazards, claims."""

from collections.abc import Callable
from decimal import Decimal

from core.listings.offline.listing import Finding, Listing, is_real, quote, states
from core.listings.offline.scoring import (
    CHILD_SAFETY_PENALTY,
    FREE_PRICE_PENALTY,
    INJECTION_PENALTY,
    LUXURY_MIN_PRICE,
    LUXURY_PRICE_PENALTY,
    PRECIOUS_METAL_PENALTY,
    REVIEW_RISK_SCORE_CAP,
)
from core.listings.offline.signal_tables import (
    ANY_BRAND,
    AUTHENTICITY_SENSITIVE,
    CHILD_SAFETY_CONCERN,
    CHILD_SAFETY_ITEMS,
    COUNTERFEIT_TOOL,
    FAKE_CURRENCY,
    JEWELLERY_CONTEXT,
    LUXURY_BRAND,
    METAL_PROOF_NAMES,
    METAL_PROOF_TEXT,
    NEGATION_BEFORE,
    PRECIOUS_METAL,
    REPLICA_MODEL_CONTEXT,
    REPLICA_WORD,
    SIGNALS,
    WATCH_CATEGORY,
    Signal,
)

# --- Signals for human review ---------------------------------------------------------------------


def text_signals(listing: Listing) -> list[Finding]:
    """Risky phrases anywhere the seller wrote, including sentences cut out as injections."""
    findings = []
    for signal in SIGNALS:
        match = _signal_match(signal, _SIGNAL_TEXT[signal.scope](listing))
        if match:
            issue = signal.issue.replace("{match}", quote(match))
            findings.append(Finding(signal.penalty, issue, signal.suggestion, human_review=True,
                                     cap=signal.cap))
    return findings


def _signal_match(signal: Signal, text: str) -> str:
    """The first match that is not denied just before it ("never recalled"), or ""."""
    for match in signal.pattern.finditer(text):
        before = text[max(0, match.start() - 30):match.start()]
        if not (signal.negatable and NEGATION_BEFORE.search(before)):
            return match.group()
    return ""


def _all_text(listing: Listing) -> str:
    """Everything the seller wrote, injections included: a risk stays a risk wherever it is."""
    return listing.raw


def _counterfeit_text(listing: Listing) -> str:
    """Seller text without counterfeit words that name the product's job, not its origin.

    A detector pen exists to find fake notes and a scale model is a replica by design; these
    words are only benign when the title or category says that is what the item is, and a
    "replica" naming a known brand stays suspect even when it is called a toy.
    """
    text = COUNTERFEIT_TOOL.sub(" ", listing.raw)
    heading = f"{listing.title}\n{listing.category}"
    if COUNTERFEIT_TOOL.search(heading):
        text = FAKE_CURRENCY.sub(" ", text)
    if REPLICA_MODEL_CONTEXT.search(heading) and not ANY_BRAND.search(listing.raw):
        text = REPLICA_WORD.sub(" ", text)
    return text


def _proof_text(listing: Listing) -> str:
    """A missing receipt only matters where authenticity does; a used mug needs none."""
    sensitive = (_is_jewellery(listing) or LUXURY_BRAND.search(listing.raw)
                 or AUTHENTICITY_SENSITIVE.search(listing.raw))
    return listing.raw if sensitive else ""


def child_safety_items(listing: Listing) -> list[tuple[str, tuple[str, ...]]]:
    """Items where a missing safety detail can hurt a child, with the details they need."""
    text = f"{listing.raw}\n{listing.category}"
    return [(match.group(), required) for pattern, required in CHILD_SAFETY_ITEMS
            if (match := pattern.search(text))]


def child_safety(listing: Listing) -> list[Finding]:
    """Car seats, cribs and toddler toys with unknown safety details need a person to look."""
    items = child_safety_items(listing)
    missing = [field for _, required in items for field in required if not states(listing, field)]
    concern = CHILD_SAFETY_CONCERN.search(listing.raw) if items else None
    if not items or not (missing or concern):
        return []
    details = list(dict.fromkeys(missing)) + ([f'"{quote(concern.group())}"'] if concern else [])
    return [Finding(
        CHILD_SAFETY_PENALTY,
        issue=f'This is a child-safety item ("{quote(items[0][0])}") with missing or uncertain '
              f"safety details ({', '.join(details)}); a reviewer will check it.",
        suggestion="For child-safety items state the safety standard, the age or weight range, the "
                   "expiry or manufacture date and any accident history.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )]


def precious_metal(listing: Listing) -> list[Finding]:
    """Gold, silver or diamond claims on jewellery need a hallmark or certificate to be trusted."""
    if not _is_jewellery(listing):
        return []
    metal = PRECIOUS_METAL.search(listing.raw)
    if not metal or _metal_verified(listing):
        return []
    return [Finding(
        PRECIOUS_METAL_PENALTY,
        issue=f'The listing mentions "{quote(metal.group())}" but gives no hallmark, certificate '
              "or karat; a reviewer will verify the precious-metal claim.",
        suggestion='Add a "hallmark" or "karat" attribute (for example 18K / 750) or a '
                   "certificate reference for the metal or stones.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )]


def _is_jewellery(listing: Listing) -> bool:
    """Metal words only mean precious metal on jewellery; a "silver phone" is just a colour."""
    in_title = JEWELLERY_CONTEXT.search(f"{listing.title}\n{listing.category}")
    return bool(in_title or WATCH_CATEGORY.search(listing.category))


def _metal_verified(listing: Listing) -> bool:
    """A hallmark/karat/certificate attribute, or a stamp mentioned without negation."""
    named = any(METAL_PROOF_NAMES.search(name) and is_real(value)
                for name, value in listing.attributes)
    return named or bool(METAL_PROOF_TEXT.search(listing.facts))


def price_checks(listing: Listing) -> list[Finding]:
    """A zero price is usually a mistake; a luxury brand far below value suggests a fake."""
    findings = []
    if listing.price == 0:
        findings.append(Finding(
            FREE_PRICE_PENALTY,
            issue="The price is 0.",
            suggestion="Confirm the item is meant to be free, or set the real price.",
        ))
    brand = LUXURY_BRAND.search(listing.raw)
    if brand and listing.price < LUXURY_MIN_PRICE:
        findings.append(_luxury_price(listing.price, brand.group()))
    return findings


def _luxury_price(price: Decimal, brand: str) -> Finding:
    """Luxury goods priced like everyday goods are a classic counterfeit pattern."""
    return Finding(
        LUXURY_PRICE_PENALTY,
        issue=f'The price ({price}) is unusually low for a "{quote(brand)}" item; a reviewer will '
              "check its authenticity.",
        suggestion="Add proof of authenticity (receipt, serial number or certificate) and explain "
                   "the low price, for example damage or missing parts.",
        human_review=True,
        cap=REVIEW_RISK_SCORE_CAP,
    )


def injection(listing: Listing) -> list[Finding]:
    """Reviewer-directed text was removed before scoring; tell the seller and never reward it."""
    if not listing.injections:
        return []
    return [Finding(
        INJECTION_PENALTY,
        issue="The listing text contains instructions aimed at the reviewer "
              f'("{listing.injections[0]}"); remove them.',
        suggestion="Describe only the item; instructions to the reviewer are ignored and cannot "
                   "change the score.",
    )]


_SIGNAL_TEXT: dict[str, Callable[[Listing], str]] = {
    "all": _all_text,
    "counterfeit": _counterfeit_text,
    "proof": _proof_text,
}
