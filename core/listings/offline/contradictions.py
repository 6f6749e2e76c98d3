"""Contradictions between title, description and attributes (capacity, condition, colour)."""

from decimal import Decimal

from core.listings.offline.listing import Finding, Listing
from core.listings.offline.scoring import COLOUR_CONFLICT_PENALTY, CONTRADICTION_PENALTY
from core.listings.offline.vocabulary import (
    ATTRIBUTE_NAME_PATTERNS,
    COLOUR,
    COLOUR_STATEMENT,
    COLOUR_WORDS,
    CONDITION_CLASSES,
    NEGATED_COLOUR,
    NEW_IN_SHORT_FIELD,
    RAM_ATTRIBUTE,
    RAM_BEFORE,
    STORAGE_CAPACITY,
    WORD,
)

# --- Contradictions -------------------------------------------------------------------------------


def capacity_conflict(listing: Listing) -> list[Finding]:
    """A title saying 512 GB and a description saying 128 GB leaves buyers guessing."""
    sources = [(source, caps) for source, caps in _capacity_sources(listing) if caps]
    if not _any_disjoint([capacities for _, capacities in sources]):
        return []
    return _inconsistency(
        "storage capacity", [(source, sorted(caps)) for source, caps in sources],
        CONTRADICTION_PENALTY, "Check the storage capacity on the device and state the same "
                               "value in the title, description and attributes.")


def _capacity_sources(listing: Listing) -> list[tuple[str, frozenset[str]]]:
    """Storage per place it is stated; RAM sizes are left out because they differ legitimately."""
    values = " ".join(value for name, value in listing.attributes if not RAM_ATTRIBUTE.search(name))
    return [("title", _capacities(listing.title)),
            ("description", _capacities(listing.description)),
            ("attributes", _capacities(values))]


def _capacities(text: str) -> frozenset[str]:
    """Storage sizes in one canonical spelling, so "1TB" and "1024 GB" agree."""
    found = set()
    for match in STORAGE_CAPACITY.finditer(text):
        if not RAM_BEFORE.search(text[max(0, match.start() - 10):match.start()]):
            found.add(_canonical_capacity(Decimal(match.group(1)), match.group(2).upper()))
    return frozenset(found)


def _canonical_capacity(amount: Decimal, unit: str) -> str:
    """Whole terabytes written in GB (1000 or 1024 per TB) are shown as TB."""
    for per_tb in (1000, 1024):
        if unit == "GB" and amount >= per_tb and amount % per_tb == 0:
            amount, unit = amount / per_tb, "TB"
    return f"{amount.normalize():f} {unit}"


def _any_disjoint(groups: list[frozenset[str]]) -> bool:
    """Two places conflict when they share no value at all ("512 GB + 1 TB" vs "1 TB" agree)."""
    return any(not (a & b) for i, a in enumerate(groups) for b in groups[i + 1:])


def condition_conflict(listing: Listing) -> list[Finding]:
    """"New" in one place and "used" in another is a common cause of returns."""
    found = [(source, classes) for source, classes in _condition_sources(listing) if classes]
    new_in = {source for source, classes in found if "new" in classes}
    other_in = {source for source, classes in found if classes - {"new"}}
    if not any(a != b for a in new_in for b in other_in):
        return []
    return _inconsistency(
        "condition", [(source, sorted(classes)) for source, classes in found],
        CONTRADICTION_PENALTY, "State one condition (new, used or refurbished) and use it in "
                               "the title, description and condition attribute.")


def _condition_sources(listing: Listing) -> list[tuple[str, frozenset[str]]]:
    """Bare "new" only counts in short fields; in prose it often describes a part."""
    condition_names = ATTRIBUTE_NAME_PATTERNS["condition"]
    attribute = " ".join(v for n, v in listing.attributes if condition_names.search(n))
    return [("title", condition_classes(listing.title, short_field=True)),
            ("description", condition_classes(listing.description, short_field=False)),
            ("condition attribute", condition_classes(attribute, short_field=True))]


def condition_classes(text: str, short_field: bool) -> frozenset[str]:
    """Which of new / used / refurbished a piece of text claims."""
    classes = {name for name, pattern in CONDITION_CLASSES.items() if pattern.search(text)}
    if short_field and NEW_IN_SHORT_FIELD.search(text):
        classes.add("new")
    return frozenset(classes)


def colour_conflict(listing: Listing) -> list[Finding]:
    """A red item titled "black" misleads buyers who filter or skim by colour."""
    sources = [(source, words) for source, words in _colour_sources(listing) if words]
    denied = _denied_colours(listing)
    families = [frozenset(COLOUR_WORDS[word] for word in words) for _, words in sources]
    if not denied and not _any_disjoint(families):
        return []
    stated = dict(sources)
    stated["description"] = stated.get("description", ()) + tuple(f"not {w}" for w in denied)
    return _inconsistency(
        "colour", [(source, list(words)) for source, words in stated.items() if words],
        COLOUR_CONFLICT_PENALTY, "State one colour and use it in the title, the description "
                                 "and the colour attribute.")


def _inconsistency(subject: str, stated: list[tuple[str, list[str]]], penalty: int,
                   suggestion: str) -> list[Finding]:
    """One finding naming what each place says, so the seller sees which field to correct."""
    detail = "; ".join(f"{source}: {', '.join(values)}" for source, values in stated)
    return [Finding(penalty, issue=f"The {subject} is inconsistent ({detail}).",
                     suggestion=suggestion)]


def _colour_sources(listing: Listing) -> list[tuple[str, tuple[str, ...]]]:
    """Colour words per place; the description counts only where it states the colour."""
    stated = " ".join(NEGATED_COLOUR.sub(" ", match.group(1))
                      for match in COLOUR_STATEMENT.finditer(listing.description))
    return [("title", _colour_words(listing.title)),
            ("colour attribute", _colour_words(_colour_attribute(listing))),
            ("description", _colour_words(stated))]


def _colour_words(text: str) -> tuple[str, ...]:
    """Colour words as written ("navy"), in order and without repeats, for the message."""
    return tuple(dict.fromkeys(match.group().lower() for match in COLOUR.finditer(text)))


def _colour_attribute(listing: Listing) -> str:
    """The values of every colour-like attribute ("colour", "colourway", "shade")."""
    colour_names = ATTRIBUTE_NAME_PATTERNS["colour"]
    return " ".join(value for name, value in listing.attributes if colour_names.search(name))


def _denied_colours(listing: Listing) -> list[str]:
    """Colours the description denies ("not navy") although the title or attribute uses them."""
    named = set(WORD.findall(f"{listing.title} {_colour_attribute(listing)}".lower()))
    denied = {match.group(1).lower() for match in NEGATED_COLOUR.finditer(listing.description)}
    return sorted(denied & named)
