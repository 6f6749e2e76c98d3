"""Family: condition contradictions. New in one place and used in another, or new, mint or
flawless while the description lists damage: the buyer is misled about the state of the item.
"""

import re

from core.listings.offline.family_vocabulary import (
    CLAIM_QUALIFIERS,
    CONDITION_DEFECTS,
    DONE_AFTER_ALL,
    GOOD_CONDITION_CLAIMS,
    MILD_BEFORE,
    NEVER_DONE_CLAIM,
    OPENED_TERMS,
    PACKAGING_SUBJECT,
    PRISTINE_CLAIMS,
    SEALED_CLAIMS,
    SEVERE_DEFECTS,
)
from core.listings.offline.listing import Finding, Listing, quote
from core.listings.offline.matching import (
    any_unnegated,
    first_unnegated,
    in_context,
    is_negated,
    terms_pattern,
)
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP
from core.listings.offline.vocabulary import CONDITION_CLASSES, NEW_IN_SHORT_FIELD

FAMILY = "condition-contradiction"


def condition_conflict(listing: Listing) -> list[Finding]:
    """New against used or refurbished, else a pristine claim against described damage."""
    detail = (_class_conflict(listing) or _seal_conflict(listing) or _defect_conflict(listing)
              or _severe_conflict(listing) or _done_after_all(listing))
    if not detail:
        return []
    return [Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                    issue=f"Condition contradiction: the condition is inconsistent ({detail}): described as "
                          "new or perfect while use, wear, damage or missing components are disclosed; a "
                          "reviewer will check which is true before buyers are misled.",
                    suggestion="State one condition (new, used or refurbished) in the title, description "
                               "and condition attribute, and describe each defect.")]


def _class_conflict(listing: Listing) -> str:
    """"title: new; condition attribute: used" when two places claim different conditions."""
    found = [(place, classes) for place, classes in _condition_sources(listing) if classes]
    new_in = {place for place, classes in found if "new" in classes}
    other_in = {place for place, classes in found if classes - {"new"}}
    if not any(a != b for a in new_in for b in other_in):
        return ""
    return "; ".join(f"{place}: {', '.join(sorted(classes))}" for place, classes in found)


def _condition_sources(listing: Listing) -> list[tuple[str, frozenset[str]]]:
    """Bare "new" only counts in short fields; in prose it often describes a part."""
    return [("title", condition_classes(listing.title, short_field=True)),
            ("description", condition_classes(listing.description, short_field=False)),
            ("condition attribute", condition_classes(listing.attribute("condition"), short_field=True))]


def condition_classes(text: str, short_field: bool) -> frozenset[str]:
    """Which of new / used / refurbished a piece of text claims; a denied one is not claimed ("NOT new",
    heuristic-v22)."""
    classes = {name for name, pattern in CONDITION_CLASSES.items() if first_unnegated(pattern, text)}
    if short_field and first_unnegated(NEW_IN_SHORT_FIELD, text):
        classes.add("new")
    return frozenset(classes)


def _seal_conflict(listing: Listing) -> str:
    """Claimed sealed or unopened, while the description says it was opened: not actually sealed."""
    places = [listing.title, listing.attribute("condition")]
    claim = any_unnegated(SEALED_CLAIMS, places)
    opened = any_unnegated(OPENED_TERMS, [listing.description]) if claim else ""
    if not opened:
        return ""
    return f'claimed: "{quote(claim)}"; description: "{quote(opened)}", so not actually sealed'


def _done_after_all(listing: Listing) -> str:
    """"Never worn" in one place and "worn twice" in the description: the claim is untrue."""
    for text in (listing.title, listing.attribute("condition"), listing.description):
        for claim in re.finditer(NEVER_DONE_CLAIM, text, re.I):
            pattern = DONE_AFTER_ALL.format(verb=re.escape(claim.group(1)))
            done = next((m for m in re.finditer(pattern, listing.description, re.I)
                         if not is_negated(listing.description, m.start(), m.end())), None)
            if done:
                return f'claimed: "{quote(claim.group())}"; description: "{quote(done.group())}"'
    return ""


def _defect_conflict(listing: Listing) -> str:
    claim = _pristine_claim(listing)
    defect = _item_defect(CONDITION_DEFECTS, [listing.description], softened=True) if claim else ""
    return f'claimed: "{quote(claim)}"; description: "{quote(defect)}"' if defect else ""


def _pristine_claim(listing: Listing) -> str:
    """A new or flawless claim in the title or the condition attribute, or ""."""
    places = [listing.title, listing.attribute("condition")]
    if any("new" in condition_classes(text, short_field=True) for text in places):
        return "new"
    return any_unnegated(PRISTINE_CLAIMS, places)


def _severe_conflict(listing: Listing) -> str:
    """A good-condition claim ("excellent", "like new", "A-grade") against severe damage stated
    anywhere: light wear fits such a claim, a torn, broken or missing part does not."""
    claim = _good_claim(listing)
    defect = _severe_defect(listing) if claim else ""
    return f'claimed: "{quote(claim)}"; described: "{quote(defect)}"' if defect else ""


def _good_claim(listing: Listing) -> str:
    """The claim in the title or condition attribute, or in a description sentence that does not
    qualify it ("excellent apart from a tear" discloses the tear)."""
    pattern = terms_pattern(GOOD_CONDITION_CLAIMS)
    sentences = [s for s in re.split(r"[.!?\n]", listing.description)
                 if not re.search(CLAIM_QUALIFIERS, s, re.I)]
    return any_unnegated(GOOD_CONDITION_CLAIMS, [listing.title, listing.attribute("condition")]) or next(
        (m.group() for s in sentences for m in pattern.finditer(s)
         if not is_negated(s, m.start(), m.end()) and " " in m.group()), "")


def _severe_defect(listing: Listing) -> str:
    return _item_defect(SEVERE_DEFECTS, listing.seller_texts[1:], softened=False)


def _item_defect(terms: tuple[str, ...], texts: list[str], softened: bool) -> str:
    """The first defect, undenied and not on the packaging ("box slightly dented", heuristic-v22 for a
    new item too); a softened one ("small stain") only counts where `softened` says so."""
    pattern = terms_pattern(terms)
    for text in texts:
        for match in pattern.finditer(text):
            before = text[max(0, match.start() - 40):match.start()]
            if not (is_negated(text, match.start(), match.end())
                    or (not softened and re.search(MILD_BEFORE, before, re.I))
                    or re.search(PACKAGING_SUBJECT, before, re.I)):
                return in_context(match.group(), [text[match.start() - len(before):]])
    return ""
