"""The five general rule families that decide whether a person must look at a listing.

Each rule is general ("a safety-critical product described as damaged") and takes its words from
family_vocabulary, so it carries over to wording and categories the rules were never shown.
"""

import re

from core.listings.offline.contradictions import condition_classes, condition_conflict
from core.listings.offline.family_vocabulary import (
    CONDITION_DEFECTS,
    EVIDENCE_TERMS,
    MIN_ASSESSABLE_DESCRIPTION_WORDS,
    MODEL_TOKEN,
    NUMERIC_ATTRIBUTE_NAMES,
    NUMERIC_UNITS,
    PACKAGING_WORDS,
    PRISTINE_CLAIMS,
    PROVENANCE_CLAIMS,
    SAFETY_HAZARDS,
    SAFETY_PRODUCTS,
    YEAR,
)
from core.listings.offline.listing import Finding, Listing, is_real, quote
from core.listings.offline.matching import any_unnegated, terms_pattern
from core.listings.offline.scoring import (
    CONTRADICTION_PENALTY,
    INCOMPLETE_PENALTY,
    PROVENANCE_PENALTY,
    REVIEW_RISK_SCORE_CAP,
    SAFETY_PRODUCT_PENALTY,
)
from core.listings.offline.vocabulary import ATTRIBUTE_NAME_PATTERNS

_NOT_PLATED = r"(?![\s-]*(?:plated|tone|toned|filled|colou?r\w*|effect|look|finish|pattern|style))"


def safety_product(listing: Listing) -> list[Finding]:
    """Family 1: a product that protects, feeds or powers, with damage, missing parts or no model."""
    product = _safety_product(listing)
    hazard = _safety_hazard(listing) if product else ("", "")
    if not hazard[1]:
        return []
    return [Finding(
        SAFETY_PRODUCT_PENALTY,
        issue=f'This is a safety-critical product ({product}) and the listing mentions {hazard[0]} '
              f'("{quote(hazard[1])}"); a reviewer must check it is safe to sell.',
        suggestion="For safety-critical products state the exact model, that nothing is damaged or "
                   "missing, and that it is not subject to a recall; otherwise list it for parts.",
        human_review=True, cap=REVIEW_RISK_SCORE_CAP)]


def _safety_product(listing: Listing) -> str:
    """The kind of safety-critical product the title or category names, or ""."""
    heading = f"{listing.title}\n{listing.category}"
    return next((kind for kind, words in SAFETY_PRODUCTS.items()
                 if terms_pattern(words).search(heading)), "")


def _safety_hazard(listing: Listing) -> tuple[str, str]:
    """(kind of hazard, words) for the first undenied hazard in what the seller wrote."""
    texts = _seller_texts(listing)
    for kind, words in SAFETY_HAZARDS.items():
        hit = any_unnegated(words, texts)
        if hit and not (kind == "missing parts" and _only_packaging_missing(texts)):
            return kind, hit
    return "", ""


def _only_packaging_missing(texts: list[str]) -> bool:
    """"Missing the box" is about packaging, not a part that keeps someone safe."""
    packaging = r"\b(?:missing|lost|without)\s+(?:the\s+|its\s+|original\s+)*(?:" + "|".join(
        PACKAGING_WORDS) + r")\b"
    missing = terms_pattern(SAFETY_HAZARDS["missing parts"])
    return all(len(missing.findall(t)) <= len(re.findall(packaging, t, re.I)) for t in texts)


def unproven_provenance(listing: Listing) -> list[Finding]:
    """Family 2: signed, authentic, solid gold or first edition, with nothing to back it up."""
    claims = tuple(term + _NOT_PLATED for term in PROVENANCE_CLAIMS)
    claim = any_unnegated(claims, _seller_texts(listing))
    if not claim or any_unnegated(EVIDENCE_TERMS, _seller_texts(listing)):
        return []
    return [Finding(
        PROVENANCE_PENALTY,
        issue=f'The listing claims "{quote(claim)}" but gives no certificate, receipt, hallmark or '
              "other evidence; a reviewer will verify the claim before it is listed.",
        suggestion="Add the evidence (certificate of authenticity, receipt, hallmark or appraisal) "
                   "or remove the claim.",
        human_review=True, cap=REVIEW_RISK_SCORE_CAP)]


def numeric_conflict(listing: Listing) -> list[Finding]:
    """Family 3: the title, attributes and description give different numbers for one quantity."""
    for kind, pattern in NUMERIC_UNITS.items():
        sources = [(name, _numbers(re.compile(pattern, re.I), text)) for name, text in
                   (("title", listing.title), ("description", listing.description),
                    ("attributes", _attribute_text(listing, kind)))]
        conflict = _disjoint(sources)
        if conflict:
            return [_numeric_finding(kind, conflict)]
    named = _year_conflict(listing) or _model_conflict(listing)
    return [_numeric_finding(*named)] if named else []


def _numbers(pattern: re.Pattern[str], text: str) -> frozenset[str]:
    """Values with their unit, normalised ("2 L" and "2l" agree), without the unit's plural."""
    found = set()
    for match in pattern.finditer(text):
        groups = [g for g in match.groups() if g is not None]
        number, unit = groups[0], (groups[1] if len(groups) > 1 else "")
        found.add(f"{float(number):g} {unit.lower().rstrip('s').strip('-')[:2]}".strip())
    return frozenset(found)


def _attribute_text(listing: Listing, kind: str) -> str:
    """Attribute values, with bare numbers given the unit when the name says what they count."""
    names = NUMERIC_ATTRIBUTE_NAMES.get(kind, ())
    parts = [f"set of {value}" if name in names and value.strip().isdigit() else value
             for name, value in listing.attributes if is_real(value)]
    return " ; ".join(parts)


def _disjoint(sources: list[tuple[str, frozenset[str]]]) -> list[tuple[str, frozenset[str]]]:
    """The stated places when two of them share no value at all, else []."""
    stated = [(name, values) for name, values in sources if values]
    clash = any(not (a & b) for i, (_, a) in enumerate(stated) for _, b in stated[i + 1:])
    return stated if clash else []


def _year_conflict(listing: Listing) -> tuple[str, list[tuple[str, frozenset[str]]]] | None:
    """A year attribute that the title contradicts ("2019 model" titled 2021)."""
    names = NUMERIC_ATTRIBUTE_NAMES["year"]
    years = frozenset(value.strip() for name, value in listing.attributes
                      if name in names and re.fullmatch(YEAR, value.strip()))
    in_title = frozenset(re.findall(YEAR, listing.title))
    if years and in_title and not years & in_title:
        return "year", [("title", in_title), ("year attribute", years)]
    return None


def _model_conflict(listing: Listing) -> tuple[str, list[tuple[str, frozenset[str]]]] | None:
    """The model attribute and the title name the same line with different numbers."""
    model = " ".join(v for n, v in listing.attributes if ATTRIBUTE_NAME_PATTERNS["model"].search(n))
    stated = dict(re.findall(MODEL_TOKEN, model.lower()))
    title = re.findall(MODEL_TOKEN, listing.title.lower())
    for word, number in title:
        if word in stated and stated[word] != number and (word, stated[word]) not in title:
            return "model", [("title", frozenset({f"{word} {number}"})),
                             ("model attribute", frozenset({f"{word} {stated[word]}"}))]
    return None


def _numeric_finding(kind: str, stated: list[tuple[str, frozenset[str]]]) -> Finding:
    """One finding naming what each place says, so the seller sees which field to correct."""
    detail = "; ".join(f"{name}: {', '.join(sorted(values))}" for name, values in stated)
    return Finding(CONTRADICTION_PENALTY, issue=f"The {kind} is inconsistent ({detail}).",
                   suggestion=f"Check the {kind} and state the same value in the title, "
                              "description and attributes.")


def condition_defect_conflict(listing: Listing) -> list[Finding]:
    """Family 4: new, mint or flawless in the title or condition, while the description lists damage."""
    if condition_conflict(listing):
        return []  # new-versus-used is already reported once
    claim = _pristine_claim(listing)
    defect = any_unnegated(CONDITION_DEFECTS, [listing.description]) if claim else ""
    if not defect:
        return []
    return [Finding(
        CONTRADICTION_PENALTY,
        issue=f'The condition is inconsistent (claimed: "{quote(claim)}"; description: '
              f'"{quote(defect)}").',
        suggestion="State the real condition in the title and condition attribute and describe "
                   "each defect.")]


def _pristine_claim(listing: Listing) -> str:
    """A new or flawless claim in the title or the condition attribute, or ""."""
    condition = " ".join(v for n, v in listing.attributes if ATTRIBUTE_NAME_PATTERNS["condition"].search(n))
    for text in (listing.title, condition):
        if "new" in condition_classes(text, short_field=True):
            return "new"
    return any_unnegated(PRISTINE_CLAIMS[3:], [listing.title, condition])


def too_incomplete(listing: Listing) -> list[Finding]:
    """Family 5: with almost no description and no item specifics nobody can assess the listing."""
    words = len(listing.description.split())
    if words >= MIN_ASSESSABLE_DESCRIPTION_WORDS or any(is_real(v) for _, v in listing.attributes):
        return []
    return [Finding(
        INCOMPLETE_PENALTY,
        issue="The listing is too incomplete to assess: it has almost no description and no item "
              "specifics; a reviewer will check what is being sold.",
        suggestion="Describe the item, its condition and what is included, and add item specifics.",
        human_review=True, cap=REVIEW_RISK_SCORE_CAP)]


def _seller_texts(listing: Listing) -> list[str]:
    """Title, description and each attribute as "name: value", searched one by one."""
    return [listing.title, listing.description,
            *(f"{name}: {value}" for name, value in listing.attributes)]
