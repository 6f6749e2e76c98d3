"""Colour contradictions between title, description and attributes. A wrong colour misleads a
buyer who filters by it, but is not a risk a person must clear: it costs points, with a reason.
"""

from core.listings.offline.listing import Finding, Listing
from core.listings.offline.scoring import COLOUR_CONFLICT_PENALTY
from core.listings.offline.vocabulary import COLOUR, COLOUR_STATEMENT, COLOUR_WORDS, NEGATED_COLOUR, WORD


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
    return listing.attribute("colour")


def _any_disjoint(groups: list[frozenset[str]]) -> bool:
    """Two places conflict when they share no colour family at all."""
    return any(not (a & b) for i, a in enumerate(groups) for b in groups[i + 1:])


def _denied_colours(listing: Listing) -> list[str]:
    """Colours the description denies ("not navy") although the title or attribute uses them."""
    named = set(WORD.findall(f"{listing.title} {_colour_attribute(listing)}".lower()))
    denied = {match.group(1).lower() for match in NEGATED_COLOUR.finditer(listing.description)}
    return sorted(denied & named)
