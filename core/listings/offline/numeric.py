"""Family: numbers that disagree between the title, the description and the attributes (storage,
capacity, volume, power, weight, size, quantity, year, model). When the listing contradicts
itself on what is sold, a buyer cannot know what they would get: a person checks it.
"""

import re

from core.listings.offline.family_vocabulary import (
    AGE_ATTRIBUTE_NAMES,
    AGE_BOUND,
    AGE_SIZE,
    AGE_TOLERANCE,
    ATTRIBUTE_LETTER_SIZE,
    ATTRIBUTE_MEASURE,
    BARE_SHOE_SIZE,
    BED_SIZE_PATTERNS,
    BED_SIZE_SCOPE,
    BED_SIZES,
    BOUGHT_NEW_IN_YEAR,
    CHILDRENS_SCOPE,
    CHILDRENS_TITLE,
    COUNT_BETWEEN_EXCLUDED,
    COUNT_OF_MEASURED,
    COUNT_PART_AFTER,
    COUNT_SHARE_BEFORE,
    COUNT_TIMES,
    COUNT_WORDS_BETWEEN,
    COUNTED_ATTRIBUTE_NAME,
    DATING_TITLE_YEAR,
    DESCRIPTION_TOTAL_PATTERNS,
    DIMENSION,
    EU_FROM,
    FEET_AND_INCHES,
    FORMER_STATE,
    GENERAL_UNITS,
    HALF_SIZE,
    ITEM_YEAR_PHRASES,
    LENGTH_ATTRIBUTE_NAMES,
    LENGTH_UNIT,
    LENGTH_UNITS,
    LETTER_SIZE_ATTRIBUTE_NAMES,
    LETTER_SIZE_NAMES,
    LETTER_SIZES,
    MAIN_MEASURE_NAME,
    MEASURE_MIX_UP_RATIO,
    MEASURED_CONTEXT,
    METRIC_LENGTH,
    MODEL_CODE,
    MODEL_LETTER,
    MODEL_TOKEN,
    MODEL_VARIANT,
    MODEL_YEAR_SOLD_EARLY,
    NAME_BESIDE_WORDS,
    NAME_STOPWORDS,
    NAMED_SIDES,
    NUMBER_WORDS,
    NUMERIC_NOTES,
    NUMERIC_SCOPE,
    NUMERIC_UNITS,
    OTHER_ITEM_AFTER,
    OTHER_ITEM_BEFORE,
    OTHER_MEASURE_CONTEXT,
    OTHER_MEASURE_EITHER_SIDE,
    OTHER_MODEL_CONTEXT,
    OWN_SIZE_NAMES,
    PART_COUNT,
    QUALIFIED_NAME,
    QUANTITY_ATTRIBUTE_NAMES,
    QUANTITY_PATTERNS,
    RANGE_AFTER,
    RANGE_BEFORE,
    REMAINING_AFTER,
    REMAINING_NAME,
    SAME_VALUE_TOLERANCE,
    SHOE_SCOPE,
    SHOE_SIZE,
    SHOE_SIZE_TOLERANCE,
    SIZE_ATTRIBUTE_NAMES,
    SIZE_ATTRIBUTE_VALUE,
    SIZE_IN_TITLE,
    TITLE_AND_ATTRIBUTES_ONLY,
    TITLE_COUNT_PATTERNS,
    TITLE_LENGTH,
    TITLE_LETTER_SIZE,
    TITLE_METRIC_LENGTH,
    UNIT_ALTERNATIVES,
    UNIT_SCALE,
    VALUE,
    WORK_BEFORE_YEAR,
    YEAR,
    YEAR_ATTRIBUTE_NAMES,
)
from core.listings.offline.listing import Finding, Listing, is_real, quote
from core.listings.offline.scoring import CONTRADICTION_PENALTY, MISLEADING_SCORE_CAP
from core.listings.offline.vocabulary import RAM_ATTRIBUTE, RAM_BEFORE, STORAGE_AFTER

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
    shoe_sizes = _shoe_sizes(listing)
    for kind, places, tolerance in (("quantity", _quantities(listing), 0.0),
                                    ("size", _sizes(listing), SAME_VALUE_TOLERANCE),
                                    ("size", _letter_sizes(listing), 0.0),
                                    ("bed size", _bed_sizes(listing), 0.0),
                                    ("model year", _years(listing), 0.0),
                                    ("model year", _bought_before_dated(listing), 0.0),
                                    ("model number", _models(listing), 0.0),
                                    ("shoe size", shoe_sizes, SHOE_SIZE_TOLERANCE),
                                    ("shoe size", _same_system(shoe_sizes), 0.0),
                                    ("age", _ages(listing), AGE_TOLERANCE),
                                    ("length", _title_lengths(listing), SAME_VALUE_TOLERANCE),
                                    *_side_places(listing), *_attribute_units(listing),
                                    *_main_measures(listing)):
        conflict = _disjoint(places, tolerance)
        if conflict:
            return [_finding(kind, conflict)]
    conflict = _dimension_conflict(listing)
    return [_finding("overall size", conflict)] if conflict else []


def _in_scope(listing: Listing, kind: str) -> bool:
    """A kind with a scope only applies where the title or category names a product it describes."""
    scope = NUMERIC_SCOPE.get(kind)
    return not scope or bool(re.search(scope, listing.heading, re.I))


def _places(listing: Listing, kind: str) -> list[tuple[str, str]]:
    """Where a quantity can be stated; RAM is not storage, so RAM attributes are left out."""
    ram_too = kind != "storage capacity"
    values = " ; ".join(value for name, value in listing.attributes
                        if is_real(value) and (ram_too or not RAM_ATTRIBUTE.search(name))
                        and not re.search(REMAINING_NAME, name))
    description = "" if kind in TITLE_AND_ATTRIBUTES_ONLY else listing.description
    return [("title", listing.title), ("description", description), ("attributes", values)]


def _measures(pattern: re.Pattern[str], text: str, kind: str) -> Values:
    """Each value with its unit, converted to the kind's base unit so equal values agree."""
    found: Values = {}
    for match in pattern.finditer(text):
        before = text[max(0, match.start() - 10):match.start()]
        ram = (kind == "storage capacity" and RAM_BEFORE.search(before)
               and not STORAGE_AFTER.match(text, match.end()))
        if ram or re.match(REMAINING_AFTER, text[match.end():], re.I):
            continue
        number, unit = match.group(1), (match.group(2) or "").lower().lstrip("-").rstrip("s")
        value = _value(number)
        found[f"{value:g} {unit}".strip()] = value * UNIT_SCALE.get(unit, 1)
        if unit in UNIT_ALTERNATIVES:
            label, scale = UNIT_ALTERNATIVES[unit]
            found[f"{value:g} {label}"] = value * scale
    return found


def _value(number: str) -> float:
    """"62,000" groups thousands; "1,25" has a decimal comma."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", number):
        return float(number.replace(",", ""))
    return float(number.replace(",", "."))


def _quantities(listing: Listing) -> list[Place]:
    """Counts in the title and description ("set of 6", "2x", "x10") and a quantity attribute."""
    named = [v for n, v in listing.attributes
             if (n in QUANTITY_ATTRIBUTE_NAMES or re.fullmatch(COUNTED_ATTRIBUTE_NAME, n)) and is_real(v)]
    stated = {m.group(1): float(m.group(1)) for v in named if (m := re.match(r"\s*(\d{1,4})\b", v))}
    return [("title", _counts(listing.title, QUANTITY_PATTERNS + TITLE_COUNT_PATTERNS)),
            ("description", _described_counts(listing.description)),
            ("quantity attribute", stated)]


def _described_counts(text: str) -> Values:
    """A description's counts; a list of parts counted one by one ("A4 x2, 5x7 x3", or "20 x elbows,
    16 x tees": heuristic-v18; "2 x 2kg CO2 and 2 x 6 litre foam": heuristic-v32) is their sum."""
    counts = _counts(text, QUANTITY_PATTERNS + DESCRIPTION_TOTAL_PATTERNS)
    for pattern in (PART_COUNT, COUNT_TIMES, COUNT_OF_MEASURED):
        parts = [float(match.group(1)) for match in re.finditer(pattern, text, re.I)]
        if len(parts) > 1:
            counts[f"{sum(parts):g} in all"] = sum(parts)
    return counts


def _counts(text: str, patterns: tuple[str, ...]) -> Values:
    words = _in_digits(text)
    return {m.group(1): float(m.group(1)) for pattern in patterns
            for m in re.finditer(pattern, words, re.I)}


_NUMBER_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)


def _in_digits(text: str) -> str:
    """Number words as digits ("two bays" -> "2 bays"), so one pattern reads either."""
    return _NUMBER_WORD.sub(lambda m: NUMBER_WORDS[m.group(1).lower()], text)


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
    values = " ; ".join(v for n, v in listing.attributes
                        if names.search(n) and is_real(v) and not re.search(AGE_SIZE, v, re.I))
    title = _measures(re.compile(SIZE_IN_TITLE, re.I), listing.title, "size")
    stated = _measures(re.compile(SIZE_ATTRIBUTE_VALUE, re.I), values, "size")
    if any(" " not in label for label in stated):  # a bare number: compare the numbers as written
        title, stated = _as_written(title), _as_written(stated)
    return [("title", title), ("size attribute", stated)]


def _letter_sizes(listing: Listing) -> list[Place]:
    """A letter size in the title ("size M", "XL") against a size attribute that is one letter size ("S");
    an attribute like "L/XL" or "8-10" states no single letter, so it is not compared."""
    if re.search(CHILDRENS_TITLE, listing.title, re.I):
        return []
    titled = {_letter_size(group) for m in re.finditer(TITLE_LETTER_SIZE, listing.title, re.I)
              for group in m.groups() if group}
    stated = {_letter_size(m.group(1)) for name, value in listing.attributes
              if name in LETTER_SIZE_ATTRIBUTE_NAMES
              and (m := re.fullmatch(ATTRIBUTE_LETTER_SIZE, value, re.I))}
    return [("title", {size: float(LETTER_SIZES.index(size)) for size in titled}),
            ("size attribute", {size: float(LETTER_SIZES.index(size)) for size in stated})]


def _letter_size(written: str) -> str:
    written = re.sub(r"\s+", " ", written.lower())
    return LETTER_SIZE_NAMES.get(written, written)


def _as_written(values: Values) -> Values:
    return {label: float(label.split()[0]) for label in values}


def _years(listing: Listing) -> list[Place]:
    """A year attribute that the title contradicts ("2019 model" titled 2021), or a year the
    description states for the item itself ("first registered 2016"); a title year that dates work done on it
    ("CLA'd 2024", heuristic-v22) is not the item's."""
    stated = {m.group(1): float(m.group(1)) for phrase in ITEM_YEAR_PHRASES
              for m in re.finditer(phrase, listing.description, re.I)}
    titled = {m.group(1): float(m.group(1)) for m in re.finditer(YEAR, listing.title)
              if not re.search(WORK_BEFORE_YEAR, listing.title[:m.start()], re.I)}
    return [("title", titled),
            ("year attribute", _year_attributes(listing)),
            ("description", stated)]


def _year_attributes(listing: Listing) -> Values:
    named = [v.strip() for n, v in listing.attributes if n in YEAR_ATTRIBUTE_NAMES]
    return {v: float(v) for v in named if re.fullmatch(YEAR, v)}


def _bought_before_dated(listing: Listing) -> list[Place]:
    """The description says the item was bought new years before the year the title or a year attribute
    dates it to ("2019 Binder incubator", "I bought it new in 2011"): both cannot be true."""
    titled = {year: float(year) for m in re.finditer(DATING_TITLE_YEAR, listing.title, re.I)
              for year in m.groups() if year}
    dated = titled | _year_attributes(listing)
    bought = {m.group(1): float(m.group(1))
              for m in re.finditer(BOUGHT_NEW_IN_YEAR, listing.description, re.I)}
    earlier = {label: year for label, year in bought.items()
               if dated and year < min(dated.values()) - MODEL_YEAR_SOLD_EARLY}
    return [("title or year attribute", dated), ("description, bought new in", earlier)] if earlier else []


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
    return (_code_places(title, model) or _letter_places(title, model) or _variant_places(title, model)
            or _description_model(listing, stated, named))


def _letter_places(title: str, model: str) -> list[Place]:
    """"Model D" in the title, "Model E" in the model attribute."""
    letters = [{f"model {letter}": float(ord(letter)) for letter in re.findall(MODEL_LETTER, text)}
               for text in (title, model)]
    return [("title", letters[0]), ("model attribute", letters[1])] if all(letters) else []


def _variant_places(title: str, model: str) -> list[Place]:
    """The same base model with a different variant named in each ("S22 Ultra" against "S22+")."""
    variants = [{base: "+" if variant == "plus" else variant
                 for base, variant in re.findall(MODEL_VARIANT, text)} for text in (title, model)]
    for base, variant in variants[0].items():
        other = variants[1].get(base, "")
        if variant and other and variant != other:
            return [("title", {f"{base} {variant}": 0.0}), ("model attribute", {f"{base} {other}": 1.0})]
    return []


def _ages(listing: Listing) -> list[Place]:
    """The age a toy or garment is for, in the title and the age attribute (lower bounds, in months)."""
    named = " ; ".join(value for name, value in listing.attributes
                       if re.fullmatch(AGE_ATTRIBUTE_NAMES, name) and is_real(value))
    return [(place, {match.group().strip(): float(match.group(1)) * (1 if match.group(2) else 12)
                     for match in re.finditer(AGE_BOUND, text, re.I)})
            for place, text in (("title", listing.title), ("age attribute", named))]


def _shoe_sizes(listing: Listing) -> list[Place]:
    """UK and EU sizes in the title and the size attributes, as EU sizes, where footwear is sold; the
    description is left out ("I'm normally a 10" is the seller's size)."""
    if not re.search(SHOE_SCOPE, listing.heading, re.I):
        return []
    values = " ; ".join(v for n, v in listing.attributes if "size" in n and is_real(v))
    places = [(place, {f"{system.upper()} {size}": float(size) + EU_FROM[system.lower()]
                       for system, size in re.findall(SHOE_SIZE, re.sub(HALF_SIZE, r"\1.5", text), re.I)})
              for place, text in (("title", listing.title), ("size attribute", values))]
    if not places[0][1] and not re.search(CHILDRENS_SCOPE, listing.heading, re.I):
        places[0] = ("title", {f"UK {size}": float(size) + EU_FROM["uk"]
                               for size in re.findall(BARE_SHOE_SIZE, listing.title, re.I)})
    return places


def _same_system(places: list[Place]) -> list[Place]:
    """heuristic-v33: shoe sizes in the same numbering are compared exactly ("UK 9" against "UK 8"); the
    tolerance is for converting between UK and EU numbering, where makers round differently."""
    if len(places) < 2:
        return []
    systems = {label.split()[0] for label in places[0][1]} & {label.split()[0] for label in places[1][1]}
    return [(place, {label: size for label, size in values.items() if label.split()[0] in systems})
            for place, values in places] if systems else []


def _title_lengths(listing: Listing) -> list[Place]:
    """One length in the title (feet and inches, or metres) against a length attribute in any unit."""
    title = _feet_and_inches(listing.title) | _metric(TITLE_METRIC_LENGTH, listing.title)
    named = " ; ".join(v for n, v in listing.attributes if re.match(LENGTH_ATTRIBUTE_NAMES, n) and is_real(v)
                       and not re.search(REMAINING_NAME, v))
    stated = _feet_and_inches(named) | _metric(METRIC_LENGTH, named)
    return [("title", title), ("length attribute", stated)] if len(title) == 1 else []


def _metric(pattern: str, text: str) -> Values:
    return {f"{number} {unit}": float(number) * LENGTH_UNITS[unit.lower()]
            for number, unit in re.findall(pattern, text, re.I)}


def _feet_and_inches(text: str) -> Values:
    """"10'6", "6ft" and "6 ft 2 in" in millimetres."""
    return {f"{feet}'{inches}".rstrip("'") if inches else f"{feet}ft":
            (int(feet) * 12 + int(inches or 0)) * LENGTH_UNITS["in"]
            for feet, inches in re.findall(TITLE_LENGTH, text, re.I)}


def _description_model(listing: Listing, stated: dict[str, str], named: list[tuple[str, str]]) -> list[Place]:
    """The model stated in both the title and the model attribute, and the description calling the item
    by the same line with another number ("TM6" titled, "selling my TM5"), outside a clause that names
    another item ("fits the TM5 too")."""
    firm = {word: number for word, number in named if stated.get(word) == number}
    text = listing.description.lower()
    for match in re.finditer(MODEL_TOKEN, text):
        word, number = match.groups()
        if word in firm and not _same_model(firm[word], number) and (word, firm[word]) not in re.findall(
                MODEL_TOKEN, text) and not _names_another_item(text, match.start(), match.end()):
            return [("title and model attribute", {f"{word} {firm[word]}": 0.0}),
                    ("description", {f"{word} {number}": 1.0})]
    return []


def _names_another_item(text: str, start: int, end: int) -> bool:
    return _other_context(text, start, end) or bool(
        re.search(OTHER_MODEL_CONTEXT, text[max(0, start - 25):end + 15], re.I))


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


def _attribute_units(listing: Listing) -> list[tuple[str, list[Place], float]]:
    """heuristic-v27: an attribute stating one number in a unit no other kind reads ("capacity: 85Ah",
    "channels: 4") against the title's and the description's numbers in that unit ("110ah", "8 channel");
    a general unit only where a word of the attribute's name stands beside the number ("300mm depth of
    cut", "50 ft of hose"), and lengths in any length unit."""
    result = []
    for name, value in listing.attributes:
        stated = re.fullmatch(ATTRIBUTE_MEASURE, value, re.I)
        if not stated or not name or re.search(QUALIFIED_NAME, name) or _read_by_a_kind(value):
            continue
        words = {_singular(word) for word in name.split() if len(word) > 2} - GENERAL_UNITS - NAME_STOPWORDS
        unit = _singular(stated.group(2) or name.split()[-1])
        if unit in GENERAL_UNITS and not words:
            continue
        beside = frozenset(words) if unit in GENERAL_UNITS else frozenset()
        own = {value.strip().lower(): _value(stated.group(1)) * LENGTH_UNITS.get(unit, 1)}
        counted = not stated.group(2) and unit not in GENERAL_UNITS and len(unit) > 2
        if counted and re.fullmatch(YEAR, stated.group(1)):
            continue  # a year under a name ("bought": "2023") is a date, not a count
        read = _named_count if counted else _in_unit
        places = [(place, read(text, unit, beside)) for place, text in
                  (("title", listing.title), ("description", listing.description))]
        if any(values for _, values in places):
            result.append((quote(name), [*places, (f"{quote(name)} attribute", own)], SAME_VALUE_TOLERANCE))
    return result


def _read_by_a_kind(value: str) -> bool:
    return any(re.search(pattern, value, re.I) for pattern in NUMERIC_UNITS.values())


def _singular(word: str) -> str:
    word = re.sub(r"\W", "", word.lower())
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _in_unit(text: str, unit: str, beside: frozenset[str]) -> Values:
    """The numbers the text states in this unit (any length unit for a length, in millimetres; a one-letter
    unit written on the number: "32A"), outside clauses about other things, each with a word of the
    attribute's name nearby when `beside` names any."""
    if unit in LENGTH_UNITS:
        written, scale = _ANY_LENGTH, LENGTH_UNITS
    else:
        written, scale = ("" if len(unit) == 1 else r"\s*(?:-\s*)?") + f"({re.escape(unit)})(?:s|es)?\\b", {}
    found: Values = {}
    for match in re.finditer(r"(?<![\d.,/x×])" + VALUE + written, text, re.I):
        start, end = match.span()
        if _other_context(text, start, end) or (beside and not _name_beside(text, start, end, beside)):
            continue
        found[match.group().lower()] = _value(match.group(1)) * scale.get(match.group(2).lower(), 1)
    return found


def _named_count(text: str, name: str, _beside: frozenset[str]) -> Values:
    """heuristic-v39: the counts the text gives of the thing an attribute is named for ("blades": "5"), with
    a few describing words between ("3 reversible blades", "4-bay") or the name first ("plate 122"), outside
    clauses about other things. A unit or a share around the number ("3 lb barrels", "24 per carton", "packs
    of 6 tins", "3 drawers each") and a few of them described ("2 chairs have scuffs") are not the count;
    several counts are parts, so their sum is read too ("3 chef knives and 2 paring knives")."""
    words = _in_digits(text)
    noun = rf"{re.escape(name)}(?:s|es)?"
    between = rf"(?:(?!{COUNT_BETWEEN_EXCLUDED}\b)[a-z][a-z'/-]{{2,}}\s+){{0,{COUNT_WORDS_BETWEEN}}}?"
    found: Values = {}
    for pattern in (rf"(?<![\d.,/x×£$€#-])\b{VALUE}(?:\s*-\s*|\s+){between}{noun}\b(?!{COUNT_PART_AFTER})",
                    rf"\b{noun}\s*(?:no\.?|number|#|:)?\s*{VALUE}(?!\d|[.,]\d|\s*(?:[x×/\"'-]|to\b|[a-z]{{1,2}}\b))"):
        for match in re.finditer(pattern, words, re.I):
            if (re.fullmatch(YEAR, match.group(1)) or _other_context(words, *match.span())
                    or re.search(COUNT_SHARE_BEFORE, words[max(0, match.start() - 12):match.start()], re.I)):
                continue
            found[match.group().lower()] = _value(match.group(1))
    if len(found) > 1:
        found[f"{sum(found.values()):g} in all"] = sum(found.values())
    return found


def _main_measures(listing: Listing) -> list[tuple[str, list[Place], float]]:
    """heuristic-v39: an attribute naming the item's own length ("length": "11 m") against the title's lengths
    close enough to read as the same measure stated twice (MAIN_MEASURE_NAME). A title length that agrees, or
    that another attribute states ("diameter: 120 cm" for a "120cm" table), settles it; one labelled with
    another side ("55cm wide" against a height) and a screen's diagonal measure something else."""
    lengths = {name: (_value(stated.group(1)) * LENGTH_UNITS[stated.group(2).lower()], value.strip().lower())
               for name, value in listing.attributes
               if (stated := re.fullmatch(VALUE + r"\s*" + LENGTH_UNIT + r"\s*", value, re.I))}
    if re.search(NUMERIC_SCOPE["screen size"], listing.heading, re.I):
        return []
    title = _lone_lengths(listing.title)
    result = []
    for name, (own, written) in lengths.items():
        if not re.fullmatch(MAIN_MEASURE_NAME, name, re.I):
            continue
        others = [length for other, (length, _) in lengths.items() if other != name]
        candidates = {said: length for said, (length, side) in title.items()
                      if side in ("", _side_of(name)) and not any(_close(length, other) for other in others)}
        mixed = {said: length for said, length in candidates.items()
                 if max(length, own) <= MEASURE_MIX_UP_RATIO * min(length, own)}
        if mixed and not any(_close(own, length) for length in candidates.values()):
            result.append((quote(name), [("title", mixed), (f"{quote(name)} attribute", {written: own})],
                           SAME_VALUE_TOLERANCE))
    return result


def _side_of(name: str) -> str:
    """The side an attribute's name measures ("overall height" -> "height"), as NAMED_SIDES names sides."""
    return next((side for side in NAMED_SIDES if side in name.lower()), "")


def _lone_lengths(text: str) -> dict[str, tuple[float, str]]:
    """Lengths stated on their own, in mm, with the side a word after them names ("55cm wide"): not a side of
    a size ("38 x 38 cm"), an end of a range, another thing's, nor a number before the word "in" ("set of 6
    in a box"); feet and inches together are one length ("9ft 6in")."""
    found: dict[str, tuple[float, str]] = {}
    for match in re.finditer(r"(?<![\d.,/x×-])" + VALUE + _ANY_LENGTH + FEET_AND_INCHES, text, re.I):
        start, end = match.span()
        unit = match.group(2).lower()
        if (re.search(r"(?:[x×*/-]|\bby|\bto)\s*$", text[max(0, start - 4):start], re.I)
                or re.match(r"\s*(?:[x×*/-]|by\b|to\b)", text[end:], re.I)
                or (unit == "in" and re.match(r"\s+[a-z]", text[end:], re.I))
                or _other_context(text, start, end)):
            continue
        inches = _value(match.group(3)) * LENGTH_UNITS["in"] if match.group(3) else 0.0
        side = re.match(r"\s*(\w+)", text[end:])
        named = next((name for name, words in NAMED_SIDES.items()
                      if side and re.fullmatch(f"(?:{words})", side.group(1), re.I)), "")
        found[match.group().strip().lower()] = (_value(match.group(1)) * LENGTH_UNITS[unit] + inches, named)
    return found


_PHRASE_END = r"[,;:.()\[\]]"
_NEAR_CHARS = 80  # a few words either side, so the look around a number costs the same in any text
_ANY_LENGTH = r"\s*(mm|cm|m|metres|meters|metre|meter|inches|inch|in|ft|feet|foot|\")(?![\w'])"


def _name_beside(text: str, start: int, end: int, words: frozenset[str]) -> bool:
    """In the same phrase: a comma or a bracket ends the words that can name what a number measures."""
    before = re.split(_PHRASE_END, text[max(0, start - _NEAR_CHARS):start])[-1].split()[-NAME_BESIDE_WORDS:]
    after = re.split(_PHRASE_END, text[end:end + _NEAR_CHARS])[0].split()[:NAME_BESIDE_WORDS]
    return any(_singular(word) in words for word in before + after)


# --- Dimensions and named sides, in any length unit ----------------------------------------------------

Dimension = tuple[tuple[float, ...], tuple[float, ...], str]  # (sides in mm, sides as written, label)
_DIMENSION = re.compile(DIMENSION, re.I)


def _dimension_conflict(listing: Listing) -> list[Place]:
    """A title size ("3m x 6m") and a size elsewhere that keeps one side and changes another ("3x3m"):
    the same item measured twice, differently. Sizes sharing no side are other items (a chair with
    its table), and sizes of the packaging, a former state or alternatives are never read."""
    titles = [d for d in _dimensions(listing.title) if d[2] != "?"]
    for place, text in (("attributes", _attribute_measures(listing)), ("description", listing.description)):
        for other in _dimensions(text):
            if _contradicts(titles, other):
                return [("title", {t[2]: 0.0 for t in titles}), (place, {other[2]: 1.0})]
    return _size_attribute_conflict(listing, titles) or _measured_conflict(listing, titles)


def _size_attribute_conflict(listing: Listing, titles: list[Dimension]) -> list[Place]:
    """heuristic-v21: a size attribute is the item's own size, so a title size of its shape sharing no side
    with it ("8ft x 5ft" against "120 x 170 cm") contradicts it too."""
    stated = " ; ".join(v for n, v in listing.attributes if re.fullmatch(OWN_SIZE_NAMES, n) and is_real(v))
    for other in _dimensions(stated):
        same_shape = [t for t in titles if len(t[0]) == len(other[0])]
        if other[2] != "?" and same_shape and not any(_same_sides(t, other) for t in same_shape):
            return [("title", {t[2]: 0.0 for t in same_shape}), ("size attribute", {other[2]: 1.0})]
    return []


def _measured_conflict(listing: Listing, titles: list[Dimension]) -> list[Place]:
    """A size the seller says they measured that matches none of the stated sizes of its shape (the
    title's, or the attributes' when the title gives no unit): the item measured differently."""
    stated = titles or [d for d in _dimensions(_attribute_measures(listing)) if d[2] != "?"]
    place = "title" if titles else "attributes"
    for sentence in re.split(r"(?<!\d)[.;!?\n]", listing.description):
        measured = [match.start() for match in re.finditer(MEASURED_CONTEXT, sentence, re.I)]
        for other in (d for start in measured[-1:] for d in _dimensions(sentence[start:])):
            same_shape = [d for d in stated if len(d[0]) == len(other[0])]
            if other[2] != "?" and same_shape and not any(_same_sides(d, other) for d in same_shape):
                return [(place, {d[2]: 0.0 for d in same_shape}), ("description", {other[2]: 1.0})]
    return []


def _attribute_measures(listing: Listing) -> str:
    return " ; ".join(value for name, value in listing.attributes
                      if is_real(value) and not re.search(OTHER_MEASURE_CONTEXT, name, re.I))


def _contradicts(titles: list[Dimension], other: Dimension) -> bool:
    same_shape = [t for t in titles if len(t[0]) == len(other[0])]
    if not same_shape or any(_same_sides(t, other) for t in same_shape):
        return False
    return any(_shared_sides(t, other) >= len(other[0]) - 1 for t in same_shape)


def _sides(first: Dimension, second: Dimension) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Compare in millimetres, or as written when either size has no unit at all."""
    if "?" in (first[2], second[2]):
        return first[1], second[1]
    return first[0], second[0]


def _same_sides(first: Dimension, second: Dimension) -> bool:
    a, b = _sides(first, second)
    return all(_close(x, y) for x, y in zip(a, b, strict=True))


def _shared_sides(first: Dimension, second: Dimension) -> int:
    a, b = _sides(first, second)
    left = list(b)
    for side in a:
        match = next((x for x in left if _close(side, x)), None)
        if match is not None:
            left.remove(match)
    return len(b) - len(left)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_VALUE_TOLERANCE * max(abs(a), abs(b))


def _dimensions(text: str) -> list[Dimension]:
    """Each "A x B (x C) unit" in the text outside packaging, former-state or alternative clauses."""
    found = []
    for match in _DIMENSION.finditer(text):
        if _other_context(text, match.start(), match.end()):
            continue
        numbers = [float(n) for n in match.group(1, 3, 5) if n]
        units = [u.lower() for u in match.group(2, 4, 6) if u]
        scale = LENGTH_UNITS.get(units[-1], 0.0) if units else 0.0
        label = " x ".join(f"{n:g}" for n in numbers) + (f" {units[-1]}" if units else "")
        written = tuple(sorted(numbers))
        # heuristic-v21: each side in its own unit when every side has one ("1m x 1m x 4cm")
        scales = ([LENGTH_UNITS.get(u, 0.0) for u in units] if len(units) == len(numbers)
                  else [scale] * len(numbers))
        found.append((tuple(sorted(n * k for n, k in zip(numbers, scales, strict=True))), written,
                      label if scale else "?"))
    return found


def _other_context(text: str, start: int, end: int) -> bool:
    """Words close to a measure, in its own sentence, that make it about something else. Packaging, a former
    state or an approximation hold it from either side; another item it fits is named before it ("fits a
    60cm gap"), while "4 foot wide so it fits" is the item's own width; a range holds only the measure that
    is one of its ends; and a comma ends what the words after it can say about the measure, except a former
    state or the packed size ("3m long, cut down to fit")."""
    sentence = text[max(0, start - 40):start]
    before = sentence[max((m.end() for m in re.finditer(r"[.;!?\n](?!\d)", sentence)), default=0):]
    stop = re.search(r"[.;!?\n](?!\d)", text[end:])
    window = text[end:min(end + 25, end + stop.start() if stop else len(text))]
    after = window.split(",")[0]
    return bool(re.search(OTHER_MEASURE_EITHER_SIDE, f"{before} {after}", re.I)
                or re.search(FORMER_STATE, f"{before} {window}", re.I)
                or re.search(OTHER_ITEM_BEFORE, before, re.I) or re.search(RANGE_BEFORE, before, re.I)
                or re.match(RANGE_AFTER, after, re.I) or re.match(OTHER_ITEM_AFTER, after, re.I))


def _side_places(listing: Listing) -> list[tuple[str, list[Place], float]]:
    """Each named side ("drop", "height") stated once per place with a length unit, per place."""
    places = [("title", listing.title), ("description", listing.description)]
    result = []
    for side, words in NAMED_SIDES.items():
        named = [v for n, v in listing.attributes if re.fullmatch(f"(?:{words})", n) and is_real(v)]
        stated = [(place, _side_values(text, words)) for place, text in places]
        stated.append(("attributes", _side_values(f"{words.split('|')[0]} " + " ".join(named), words)
                       if named else {}))
        result.append((side, [(place, values) for place, values in stated if len(values) == 1],
                       SAME_VALUE_TOLERANCE))
    return result


def _side_values(text: str, words: str) -> Values:
    side = f"(?:{'|'.join(w for w in words.split('|') if len(w) > 1)})"
    patterns = (rf"(?<![\d.x×])(\d+(?:\.\d+)?)\s*{LENGTH_UNIT}\s*{side}\b",
                rf"\b{side}\s*(?:of|:|is|=|-)?\s*(\d+(?:\.\d+)?)\s*{LENGTH_UNIT}(?![\w\d])")
    found: Values = {}
    for pattern in patterns:
        for match in re.finditer(pattern, text, re.I):
            if not _other_context(text, match.start(), match.end()):
                number, unit = float(match.group(1)), match.group(2).lower()
                found[f"{number:g} {unit}"] = number * LENGTH_UNITS[unit]
    return _distinct(found)


def _distinct(values: Values) -> Values:
    """One label per distinct value: "168cm" and "66 in" state the same width."""
    kept: Values = {}
    for label, value in values.items():
        if not any(_close(value, other) for other in kept.values()):
            kept[label] = value
    return kept


def _disjoint(places: list[Place], tolerance: float) -> list[Place]:
    """The places that state a value, when two of them share none; else []."""
    stated = [(name, values) for name, values in places if values]
    clash = any(not _share(a, b, tolerance) for i, (_, a) in enumerate(stated) for _, b in stated[i + 1:])
    return stated if clash else []


def _share(first: Values, second: Values, tolerance: float) -> bool:
    """Two places agree when any of their values are equal (measurements: within rounding)."""
    return any(abs(a - b) <= tolerance * max(abs(a), abs(b)) for a in first.values() for b in second.values())


def _versus(places: list[Place]) -> str:
    """The clash in a buyer's words, first value against first value, each quoted as what a place says
    (not what the item is): '"2tb" versus "500gb"'."""
    firsts = ['"' + "".join(sorted(values)[0].split()) + '"' for _, values in places[:2]]
    return " versus ".join(firsts)


def _finding(kind: str, places: list[Place]) -> Finding:
    """One finding naming what each place says, so the seller sees which field to correct."""
    detail = "; ".join(f"{name}: {', '.join(sorted(values))}" for name, values in places)
    return Finding(CONTRADICTION_PENALTY, family=FAMILY, human_review=True, cap=MISLEADING_SCORE_CAP,
                   issue=f"Numeric contradiction: the {kind} is inconsistent ({_versus(places)}), the places "
                         f"disagree ({detail}); "
                         f"{NUMERIC_NOTES.get(kind, f'which {kind} is being sold is unclear')}, "
                         "so a reviewer will check the listing.",
                   suggestion=f"Check the {kind} and state the same value in the title, description and "
                              "attributes.")
