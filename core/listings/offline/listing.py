"""The draft as the rules see it: normalised, reviewer-directed sentences cut out, facts marked."""

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from core.listings.draft import ListingDraft
from core.listings.offline.family_vocabulary import DENIAL_VALUE, PLACEHOLDER_DESCRIPTIONS
from core.listings.offline.foreign_words import FOREIGN_WORDS
from core.listings.offline.scoring import MAX_QUOTE_CHARS, NO_CAP, RISK_PENALTY
from core.listings.offline.vocabulary import (
    ATTRIBUTE_NAME_PATTERNS,
    CONDITION_DESCRIBED,
    FACT_PATTERNS,
    INJECTION,
    NEGATED_AFTER,
    NEGATED_BEFORE,
    PLACEHOLDER_VALUES,
    SENTENCE_END,
)

_PLACEHOLDER_DESCRIPTION = re.compile(r"(?:" + "|".join(PLACEHOLDER_DESCRIPTIONS) + r")", re.I)

# --- Prepared listing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """The draft as the rules see it: normalised, with reviewer-directed sentences cut out."""

    title: str
    description: str
    category: str
    price: Decimal
    attributes: tuple[tuple[str, str], ...]  # (normalised name, value)
    injections: tuple[str, ...]
    raw: str  # everything the seller wrote, injections included, for risk signals
    facts: str  # text that can state facts: negations and placeholder values removed

    @property
    def text(self) -> str:
        """Title and description, the free text a buyer reads."""
        return f"{self.title}\n{self.description}"

    @property
    def heading(self) -> str:
        """Title and category: where a listing says what kind of thing it sells."""
        return f"{self.title}\n{self.category}"

    @property
    def seller_texts(self) -> list[str]:
        """Title, description and each attribute as "name: value", searched one by one so a
        negation in one field never reaches into the next."""
        return [self.title, self.description,
                *(_attribute_text(name, value) for name, value in self.attributes)]

    def attribute(self, field: str) -> str:
        """The values of every attribute whose name means `field` ("colour", "condition", "model")."""
        names = ATTRIBUTE_NAME_PATTERNS[field]
        return " ".join(value for name, value in self.attributes if names.search(name))


@dataclass(frozen=True)
class Finding:
    """One explained deduction: every penalty carries the message that justifies it."""

    penalty: int
    issue: str = ""
    suggestion: str = ""
    missing_field: str = ""
    human_review: bool = False
    cap: int = NO_CAP  # highest score the listing can get while this finding stands
    family: str = ""  # the rule family that found it, for evaluation per family
    note: str = ""  # why it matters for this kind of item, shown as its own issue after `issue`


def risk(family: str, cap: int, issue: str, suggestion: str, note: str = "") -> Finding:
    """A finding a person must clear before the listing goes live; its severity is its cap."""
    return Finding(RISK_PENALTY, issue=issue, suggestion=suggestion, human_review=True, cap=cap,
                   family=family, note=note)


def sentence(clause: str) -> str:
    """A table's reason clause as a sentence of its own: capitalised, one full stop."""
    clause = clause.strip().rstrip(".")
    return clause[:1].upper() + clause[1:] + "." if clause else ""


def quote(fragment: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """A short lower-case excerpt: messages name what matched, never repeat the seller's text."""
    words = " ".join(fragment.replace('"', "'").split()).lower()
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"


def prepare(draft: ListingDraft) -> Listing:
    """Normalise once and cut reviewer-directed sentences out of every field before any rule."""
    names = [_normalise(str(name)) for name in draft.attributes]
    values = [_normalise(str(value)) for value in draft.attributes.values()]
    raw = [_normalise(draft.title), _normalise(draft.description), _normalise(draft.category),
           *names, *values]
    cleaned, injections = _strip_injections_all(raw)
    count = len(names)
    keys = [_attribute_key(name) for name in cleaned[3:3 + count]]
    attributes = tuple(zip(keys, cleaned[3 + count:], strict=False))
    return Listing(
        title=cleaned[0], description=cleaned[1], category=cleaned[2], price=draft.price,
        attributes=attributes, injections=injections, raw="\n".join(raw),
        facts=_fact_text(cleaned[0], cleaned[1], attributes),
    )


def _attribute_text(name: str, value: str) -> str:
    """An attribute as the seller would say it; one that answers with a denial ("accidents: none") says
    there were none ("no accidents"), so its name is not read as a defect."""
    return f"no {name}" if re.fullmatch(DENIAL_VALUE, value, re.I) else f"{name}: {value}"


def _normalise(text: str) -> str:
    """Fold look-alike characters so "don’t" and full-width letters match the same patterns, and put
    the common marketplace words of six other languages into English (foreign_words.py)."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return _foreign_words().sub(_in_english, text)


@cache
def _foreign_words() -> re.Pattern[str]:
    """All the glossary's words in one pass; rows keep their order, so a phrase wins over its words."""
    return re.compile(r"(?<!\w)(?:" + "|".join(f"(?:{words})" for words, _ in FOREIGN_WORDS) + r")(?!\w)",
                      re.I)


@cache
def _foreign_rows() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(words, re.I), english) for words, english in FOREIGN_WORDS)


def _in_english(match: re.Match[str]) -> str:
    return next(english for words, english in _foreign_rows() if words.fullmatch(match.group()))


def _attribute_key(name: str) -> str:
    """"Shoe_Size (EU)" -> "shoe size eu", so names match synonyms as whole words."""
    return " ".join(re.sub(r"[^\w]+|_", " ", name.lower()).split())


def _strip_injections_all(texts: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """Clean every field and collect each distinct reviewer-directed phrase once, in order."""
    cleaned, hits = [], []
    for text in texts:
        text, found = _strip_injections(text)
        cleaned.append(text)
        hits.extend(found)
    return cleaned, tuple(dict.fromkeys(hits))


def _strip_injections(text: str) -> tuple[str, list[str]]:
    """Remove whole sentences aimed at the reviewer, so they can neither help nor be scored."""
    matches = list(INJECTION.finditer(text))
    spans = [_sentence_span(text, match.start(), match.end()) for match in matches]
    return _remove_spans(text, spans), [quote(match.group()) for match in matches]


def _sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around a match: from the previous sentence end to the next one."""
    left = max(text.rfind(mark, 0, start) for mark in ".!?\n") + 1
    after = SENTENCE_END.search(text, end)
    return left, after.end() if after else len(text)


def _remove_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Cut possibly overlapping spans, leaving a space so neighbouring words never merge."""
    pieces, cursor = [], 0
    for start, end in sorted(spans):
        pieces.append(text[cursor:max(cursor, start)])
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    return " ".join(pieces)


def _fact_text(title: str, description: str, attributes: tuple[tuple[str, str], ...]) -> str:
    """Where a fact may be stated; "no box" or "size: unknown" must not count as stating it."""
    pairs = [f"{name}: {value}" for name, value in attributes if is_real(value)]
    text = "\n".join([title, description, *pairs])
    return NEGATED_AFTER.sub(" ", NEGATED_BEFORE.sub(" ", text))


def description_words(listing: Listing) -> int:
    """Words a buyer can read in the description; a stand-in ("as pic", "-") has none."""
    text = re.sub(r"[^\w\s/'?!.*~=_-]", " ", listing.description).strip().strip(".!").strip()
    if not is_real(text) or _PLACEHOLDER_DESCRIPTION.fullmatch(text):
        return 0
    return len(listing.description.split())


def is_real(value: str) -> bool:
    """Placeholders such as "n/a" or "unknown" are not answers."""
    return value.strip().strip(".").lower() not in PLACEHOLDER_VALUES

def states(listing: Listing, field: str) -> bool:
    """A fact counts as given in a named attribute or clearly in the title or description."""
    names = ATTRIBUTE_NAME_PATTERNS[field]
    named = any(names.search(name) and is_real(value) for name, value in listing.attributes)
    described = field == "condition" and bool(CONDITION_DESCRIBED.search(listing.text))
    return named or described or bool(FACT_PATTERNS[field].search(listing.facts))
