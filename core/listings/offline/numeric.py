"""Family: numbers that disagree between the title, the description and the attributes (storage,
capacity, volume, power, weight, size, quantity, year, model). When the listing contradicts
itself on what is sold, a buyer cannot know what they would get: a person checks it.
"""

import re

from core.listings.offline.family_vocabulary import (
    BED_SIZE_PATTERNS,
    BED_SIZE_SCOPE,
    BED_SIZES,
    DESCRIPTION_TOTAL_PATTERNS,
    MODEL_CODE,
    MODEL_TOKEN,
    NUMBER_WORDS,
    NUMERIC_NOTES,
    NUMERIC_SCOPE,
    NUMERIC_UNITS,
    QUANTITY_ATTRIBUTE_NAMES,
    QUANTITY_PATTERNS,
    SAME_VALUE_TOLERANCE,
    SIZE_ATTRIBUTE_NAMES,
    SIZE_ATTRIBUTE_VALUE,
    SIZE_IN_TITLE,
    TITLE_AND_ATTRIBUTES_ONLY,
    TITLE_COUNT_PATTERNS,
    UNIT_SCALE,
    YEAR,
    YEAR_ATTRIBUTE_NAMES,
)
from core.listings.offline.listing import Finding, Listing, is_real
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP
from core.listings.offline.vocabulary import RAM_ATTRIBUTE, RAM_BEFORE

FAMILY = "numeric-contradiction"
Values = dict[str, float]  # as written ("1 tb") -> value in the kind's base unit
Place = tuple[str, Values]


def numeric_conflict(listing: Listing) -> list[Finding]:
    """The first quantity stated differently in two places, as one finding naming each place."""
    for kind, pattern in NUMERIC_UNITS.items():
        if not _in_scope(listing, kind):
            continue
        conflict = _disjoint([(place, _measures(re.compile(pattern, re.I), text, kind))
                              for place, text in _places(listing, kind)], SAME_VALUE_TOLERANCE)
        if conflict:
            return [_finding(kind, conflict)]
    for kind, places, tolerance in (("quantity", _quantities(listing), 0.0),
                                    ("size", _sizes(listing), SAME_VALUE_TOLERANCE),
                                    ("bed size", _bed_sizes(listing), 0.0),
                                    ("model year", _years(listing), 0.0), ("model", _models(listing), 0.0)):
        conflict = _disjoint(places, tolerance)
        if conflict:
            return [_finding(kind, conflict)]
    return []


def _in_scope(listing: Listing, kind: str) -> bool:
    """A kind with a scope only applies where the title or category names a product it describes."""
    scope = NUMERIC_SCOPE.get(kind)
    return not scope or bool(re.search(scope, listing.heading, re.I))


def _places(listing: Listing, kind: str) -> list[tuple[str, str]]:
    """Where a quantity can be stated; RAM is not storage, so RAM attributes are left out."""
    ram_too = kind != "storage capacity"
    values = " ; ".join(value for name, value in listing.attributes
                        if is_real(value) and (ram_too or not RAM_ATTRIBUTE.search(name)))
    description = "" if kind in TITLE_AND_ATTRIBUTES_ONLY else listing.description
    return [("title", listing.title), ("description", description), ("attributes", values)]


def _measures(pattern: re.Pattern[str], text: str, kind: str) -> Values:
    """Each value with its unit, converted to the kind's base unit so equal values agree."""
    found: Values = {}
    for match in pattern.finditer(text):
        if kind == "storage capacity" and RAM_BEFORE.search(text[max(0, match.start() - 10):match.start()]):
            continue
        number, unit = match.group(1), (match.group(2) or "").lower().lstrip("-").rstrip("s")
        found[f"{float(number):g} {unit}".strip()] = float(number) * UNIT_SCALE.get(unit, 1)
    return found


def _quantities(listing: Listing) -> list[Place]:
    """Counts in the title and description ("set of 6", "2x", "x10") and a quantity attribute."""
    named = [v for n, v in listing.attributes if n in QUANTITY_ATTRIBUTE_NAMES and is_real(v)]
    stated = {m.group(1): float(m.group(1)) for v in named if (m := re.match(r"\s*(\d{1,4})\b", v))}
    return [("title", _counts(listing.title, QUANTITY_PATTERNS + TITLE_COUNT_PATTERNS)),
            ("description", _counts(listing.description, QUANTITY_PATTERNS + DESCRIPTION_TOTAL_PATTERNS)),
            ("quantity attribute", stated)]


def _counts(text: str, patterns: tuple[str, ...]) -> Values:
    words = re.sub(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", lambda m: NUMBER_WORDS[m.group(1).lower()],
                   text, flags=re.I)
    return {m.group(1): float(m.group(1)) for pattern in patterns
            for m in re.finditer(pattern, words, re.I)}


def _bed_sizes(listing: Listing) -> list[Place]:
    """Bed sizes by name in the title, the description and a size attribute, where bedding is sold."""
    if not re.search(BED_SIZE_SCOPE, listing.heading, re.I):
        return []
    size = " ".join(v for n, v in listing.attributes if "size" in n and is_real(v))
    return [("title", _bed_size_names(listing.title)), ("description", _bed_size_names(listing.description)),
            ("size attribute", _bed_size_names(f"{size} bed" if size else ""))]


def _bed_size_names(text: str) -> Values:
    """Each size named, as its canonical name ("super kingsize duvet" is a super king)."""
    names = list(BED_SIZES.values())
    found = {BED_SIZES[key]: 0.0 for key, pattern in zip(BED_SIZES, BED_SIZE_PATTERNS, strict=True)
             for match in re.finditer(pattern, text, re.I) if match}
    if "super king" in found or "california king" in found:
        found.pop("king", None)
    if "small double" in found:
        found.pop("double", None)
    if "small single" in found:
        found.pop("single", None)
    return {name: float(names.index(name)) for name in found}


def _sizes(listing: Listing) -> list[Place]:
    """A size in the title against size attributes; descriptions list too many other lengths."""
    names = re.compile(SIZE_ATTRIBUTE_NAMES)
    values = " ; ".join(v for n, v in listing.attributes if names.search(n) and is_real(v))
    title = _measures(re.compile(SIZE_IN_TITLE, re.I), listing.title, "size")
    stated = _measures(re.compile(SIZE_ATTRIBUTE_VALUE, re.I), values, "size")
    if any(" " not in label for label in stated):  # a bare number: compare the numbers as written
        title, stated = _as_written(title), _as_written(stated)
    return [("title", title), ("size attribute", stated)]


def _as_written(values: Values) -> Values:
    return {label: float(label.split()[0]) for label in values}


def _years(listing: Listing) -> list[Place]:
    """A year attribute that the title contradicts ("2019 model" titled 2021)."""
    named = [v.strip() for n, v in listing.attributes if n in YEAR_ATTRIBUTE_NAMES]
    return [("title", {y: float(y) for y in re.findall(YEAR, listing.title)}),
            ("year attribute", {v: float(v) for v in named if re.fullmatch(YEAR, v)})]


def _models(listing: Listing) -> list[Place]:
    """The model attribute and the title name the same line ("mini") with different numbers, or
    different model codes ("75192" against "75105")."""
    model, title = listing.attribute("model").lower(), listing.title.lower()
    stated = dict(re.findall(MODEL_TOKEN, model))
    named = re.findall(MODEL_TOKEN, title)
    for word, number in named:
        if word in stated and not _same_model(stated[word], number) and (word, stated[word]) not in named:
            return [("title", {f"{word} {number}": 0.0}),
                    ("model attribute", {f"{word} {stated[word]}": 1.0})]
    return _code_places(title, model)


def _same_model(first: str, second: str) -> bool:
    """Equal, or one is the other with a letter suffix (a colour or region variant: "3100" and "3100s")."""
    short, long = sorted((first, second), key=len)
    return first == second or (long.startswith(short) and long[len(short):].isalpha())


def _code_places(title: str, model: str) -> list[Place]:
    """Codes agree when they name the same model, variants included."""
    codes = [{code.replace("-", ""): float(n) for code in re.findall(MODEL_CODE, text)}
             for n, text in enumerate((title, model))]
    if any(_same_model(a, b) for a in codes[0] for b in codes[1]):
        return []
    return [("title", codes[0]), ("model attribute", codes[1])] if codes[0] and codes[1] else []


def _disjoint(places: list[Place], tolerance: float) -> list[Place]:
    """The places that state a value, when two of them share none; else []."""
    stated = [(name, values) for name, values in places if values]
    clash = any(not _share(a, b, tolerance) for i, (_, a) in enumerate(stated) for _, b in stated[i + 1:])
    return stated if clash else []


def _share(first: Values, second: Values, tolerance: float) -> bool:
    """Two places agree when any of their values are equal (measurements: within rounding)."""
    return any(abs(a - b) <= tolerance * max(abs(a), abs(b)) for a in first.values() for b in second.values())


def _finding(kind: str, places: list[Place]) -> Finding:
    """One finding naming what each place says, so the seller sees which field to correct."""
    detail = "; ".join(f"{name}: {', '.join(sorted(values))}" for name, values in places)
    return Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                   issue=f"Numeric contradiction: the {kind} is inconsistent, the places disagree "
                         f"({detail}); {NUMERIC_NOTES.get(kind, f'which {kind} is being sold is unclear')}, "
                         "so a reviewer will check the listing.",
                   suggestion=f"Check the {kind} and state the same value in the title, description and "
                              "attributes.")
