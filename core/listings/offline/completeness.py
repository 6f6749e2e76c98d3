"""Completeness and text quality: what buyers need stated, and how clearly it is written. These
rules lower the score with a reason; none of them sends a listing to a person.
"""

from core.listings.offline.listing import Finding, Listing, description_words, is_real, quote, states
from core.listings.offline.scoring import (
    BRIEF_DESCRIPTION_PENALTY,
    BRIEF_DESCRIPTION_WORDS,
    CONCRETE_DESCRIPTION_WORDS,
    EXCLAMATION_PENALTY,
    FREE_PRICE_PENALTY,
    GENERIC_TITLE_PENALTY,
    INJECTION_PENALTY,
    MAX_EXCLAMATIONS,
    MIN_DESCRIPTION_CHARS,
    MIN_DESCRIPTION_WORDS,
    MIN_MISSING_FIELD_PENALTY,
    MIN_SHOUTING_LETTERS,
    MIN_TITLE_WORDS,
    MISSING_FACTS_BUDGET,
    NO_ATTRIBUTES_PENALTY,
    SHORT_DESCRIPTION_PENALTY,
    SHORT_TITLE_PENALTY,
    SHOUTING_PENALTY,
    THIN_DESCRIPTION_WORDS,
    THIN_MAX_SPECIFICS,
    THIN_SCORE_CAP,
    VAGUE_PHRASE_PENALTY,
    VAGUE_PHRASE_PENALTY_CAP,
)
from core.listings.offline.strengths import described_details
from core.listings.offline.vocabulary import (
    CATEGORY_RULES,
    CATEGORY_SEPARATORS,
    CHILD_SAFETY_EXPECTATIONS,
    FALLBACK_EXPECTATIONS,
    FIELD_EXAMPLES,
    GENERIC_TITLE_WORDS,
    HEDGES,
    TITLE_WORD,
    VAGUE_PHRASES,
)

# --- Completeness ---------------------------------------------------------------------------------


def missing_fields(listing: Listing) -> list[Finding]:
    """Each fact buyers of this category look for, and that is stated nowhere, costs its share of
    one budget, so categories with few or many expected facts are judged alike. For a category the
    rules do not know, the expected facts are a guess, so each costs only the minimum."""
    expected = _expected_fields(listing)
    known = _category_fields(listing.category) != FALLBACK_EXPECTATIONS
    share = round(MISSING_FACTS_BUDGET / max(1, len(expected))) if known else 0
    return [_missing(field, max(MIN_MISSING_FIELD_PENALTY, share))
            for field in expected if not states(listing, field)]


def _missing(field: str, penalty: int) -> Finding:
    """A missing field with an example of how to add it."""
    return Finding(
        penalty,
        missing_field=field,
        suggestion=f'The {field} is missing (not stated): add it as an attribute or in the description, '
                   f'for example '
                   f'"{FIELD_EXAMPLES[field]}".',
    )


def _expected_fields(listing: Listing) -> tuple[str, ...]:
    """Category expectations plus what child-safety items always need, without repeats."""
    fields = list(_category_fields(listing.category))
    text = f"{listing.raw}\n{listing.category}"
    fields += [field for pattern, required in CHILD_SAFETY_EXPECTATIONS if pattern.search(text)
               for field in required]
    return tuple(dict.fromkeys(fields))


def _category_fields(category: str) -> tuple[str, ...]:
    """The most specific category segment that matches decides; unknown ones get the fallback."""
    for segment in reversed(CATEGORY_SEPARATORS.split(category)):
        fields = [field for pattern, expected in CATEGORY_RULES if pattern.search(segment)
                  for field in expected]
        if fields:
            return tuple(dict.fromkeys(fields))
    return FALLBACK_EXPECTATIONS




_THIN_NO_DESCRIPTION = "the description is missing (a placeholder at most)"
_THIN_SHORT = "a short description and almost no item specifics"


def thin_listing(listing: Listing) -> list[Finding]:
    """No real description, or a few words with at most one item specific and no concrete detail:
    whatever else is right, a buyer still has to ask what exactly is sold and in what state, so the
    listing stays weak. A short description that does name a detail ("few dings on the body, new
    strings, gig bag included") is brief, not thin (heuristic-v11: such ordinary listings were capped
    at 50 against labels of 55-100 by three authors)."""
    words = description_words(listing)
    specifics = sum(1 for _, value in listing.attributes if is_real(value))
    if words and (words >= THIN_DESCRIPTION_WORDS or specifics > THIN_MAX_SPECIFICS):
        return []
    if words >= CONCRETE_DESCRIPTION_WORDS and described_details([listing.description]):
        return []
    return [Finding(0, cap=THIN_SCORE_CAP,
                    issue=f"Thin listing: {_THIN_SHORT if words else _THIN_NO_DESCRIPTION}, so the details a "
                          "buyer needs (brand, model, size or dimensions, item count, colours, condition "
                          "details) are unstated.",
                    suggestion="Describe the item in a few sentences and add item specifics: brand, model, "
                               "dimensions or size, how many items, colours and condition details.")]


# --- Text quality ---------------------------------------------------------------------------------


def short_description(listing: Listing) -> list[Finding]:
    """Buyers decide from the description; a line or two cannot cover condition and flaws."""
    text = " ".join(listing.description.split())
    chars, words = len(text), len(text.split())
    if chars < MIN_DESCRIPTION_CHARS or words < MIN_DESCRIPTION_WORDS:
        penalty, size = SHORT_DESCRIPTION_PENALTY, "very short"
    elif words < BRIEF_DESCRIPTION_WORDS:
        penalty, size = BRIEF_DESCRIPTION_PENALTY, "brief"
    else:
        return []
    return [Finding(
        penalty,
        issue=f"The description is {size} ({_count(chars, 'character')}, "
              f"{_count(words, 'word')}), so the condition is vague and details are missing; describe the "
              "condition, what is included and any flaws.",
        suggestion="Write a few sentences: the exact condition and any defects, what is included, "
                   "and how long and how the item was used.",
    )]


def short_title(listing: Listing) -> list[Finding]:
    """Search matches on title words, so a one- or two-word title is rarely found."""
    words = len(listing.title.split())
    if words >= MIN_TITLE_WORDS or is_generic_title(listing.title):
        return []  # a generic title is reported once, by generic_title
    return [Finding(
        SHORT_TITLE_PENALTY,
        issue=f"The title is very short ({_count(words, 'word')}), so buyers "
              "searching for this item are unlikely to find it.",
        suggestion="Use a title with brand, item type, model and one key detail such as size, "
                   "colour or capacity.",
    )]


def generic_title(listing: Listing) -> list[Finding]:
    """A title of only category nouns and filler ("Used phone") matches every search equally."""
    if not is_generic_title(listing.title):
        return []
    return [Finding(
        GENERIC_TITLE_PENALTY,
        issue=f'The title only names the kind of item ("{quote(listing.title)}"), so buyers '
              "cannot tell this item from any other.",
        suggestion="Use a title with brand, item type, model and one key detail such as size, "
                   "colour or capacity.",
    )]


def is_generic_title(title: str) -> bool:
    """Every word is filler or a category noun: nothing names this particular item."""
    words = TITLE_WORD.findall(title.lower())
    return bool(words) and all(_is_generic_word(word) for word in words)


def _is_generic_word(word: str) -> bool:
    """Filler, or a noun that only names a category such as "table" or "headphones"."""
    return word in GENERIC_TITLE_WORDS or any(
        pattern.fullmatch(word) for pattern, _ in CATEGORY_RULES)


def no_attributes(listing: Listing) -> list[Finding]:
    """Buyers filter by item specifics; a listing with none drops out of every filtered search."""
    if any(is_real(value) for _, value in listing.attributes):
        return []
    return [Finding(
        NO_ATTRIBUTES_PENALTY,
        issue="The listing has no item specifics (attributes), so it is missing from searches "
              "that filter by brand, size, colour or condition.",
        suggestion="Add item specifics as attributes, for example brand, model, size, colour, "
                   "material and condition.",
    )]


def vague_phrases(listing: Listing) -> list[Finding]:
    """Stock phrases like "works fine" tell a buyer nothing they can rely on."""
    phrases = list(dict.fromkeys(quote(m.group()) for m in VAGUE_PHRASES.finditer(listing.text)))
    if not phrases:
        return []
    quoted = ", ".join(f'"{phrase}"' for phrase in phrases[:4])
    return [Finding(
        min(VAGUE_PHRASE_PENALTY_CAP, VAGUE_PHRASE_PENALTY * len(phrases)),
        issue=f"The text relies on vague phrases ({quoted}) instead of specifics.",
        suggestion="Replace vague phrases with specifics: name any scratches or wear, say what "
                   "you tested, and list what is included.",
    )]


def hedged_claims(listing: Listing) -> list[Finding]:
    """"Untested" or "I think it is complete": the seller does not know, so a buyer cannot rely on it."""
    hedge = HEDGES.search(listing.text)
    if not hedge:
        return []
    return [Finding(
        VAGUE_PHRASE_PENALTY * 2,
        issue=f'The seller is unsure of the item\'s state ("{quote(hedge.group())}").',
        suggestion="Test or check the item and say what you found: what works, what is included, "
                   "what is missing.",
    )]


def free_price(listing: Listing) -> list[Finding]:
    """A zero price is usually a mistake."""
    if listing.price != 0:
        return []
    return [Finding(FREE_PRICE_PENALTY, issue="The price is 0.",
                    suggestion="Confirm the item is meant to be free, or set the real price.")]


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


def _count(number: int, noun: str) -> str:
    """"1 word", "2 words": messages are read by sellers, so get the grammar right."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def shouting_title(listing: Listing) -> list[Finding]:
    """An all-capitals title reads as shouting and is harder to scan in results."""
    letters = [char for char in listing.title if char.isalpha()]
    if len(letters) < MIN_SHOUTING_LETTERS or not all(char.isupper() for char in letters):
        return []
    return [Finding(
        SHOUTING_PENALTY,
        issue="The title is written entirely in capital letters, which reads as shouting.",
        suggestion="Write the title in normal sentence or title case.",
    )]


def exclamations(listing: Listing) -> list[Finding]:
    """Runs of exclamation marks look like pressure selling and add no information."""
    count = listing.text.count("!")
    if count <= MAX_EXCLAMATIONS and "!!" not in listing.text:
        return []
    return [Finding(
        EXCLAMATION_PENALTY,
        issue=f"The listing uses {count} exclamation marks, which looks like pressure selling.",
        suggestion="Remove extra exclamation marks and let specific details sell the item.",
    )]
