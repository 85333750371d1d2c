"""Find an event stated in a sentence: a place on the map, a day, and a time or range.

"I am planning a party at Hobbs Cafe on February 14, 2023, from 5pm to 7pm" states an event at
``the_ville:Hobbs Cafe`` from 2023-02-14 17:00 to 19:00. A memory states an event only when its
text names all three; relative days ("tomorrow", "on Tuesday") resolve against the time the
memory was written, so a memory read a day later still means the same day. The mind (replanning
on what it hears) and the scripted backend (adding events to a day plan) both use this one
parser; it reads nothing but the text, the memory's creation time and the place names.

Days are resolved by ``parsedatetime`` (its ``nlp`` finder, on the sentence with the clock times
blanked out). Clock times ("5pm", "17:00", "noon") and ranges ("5pm to 7pm", "17:00-19:00",
"10-11am") are read by the regular expressions below, because ``parsedatetime`` merges a day with
a following "from 10am" into the wrong hour and reads "17:00-19:00" as two unrelated times.
Accuracy on a table of phrases and cost per call: docs/event-parsing.md.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache

import parsedatetime

__all__ = ["StatedEvent", "find_event", "stated_day", "event_day", "stated_times", "place_names",
           "absolute_days", "place_in", "MONTHS", "stated_part", "unread_hour", "without_unread_hour",
           "DEFAULT_MINUTES", "PART_STARTS"]

#: Length of an event stated with a start time only ("at noon"), in game minutes.
DEFAULT_MINUTES = 60
#: Where an event told by a part of the day and no clock time starts ("a bake sale at the pharmacy
#: on Saturday morning": 10am, said still as "in the morning"); "day": a day named alone.
PART_STARTS = {"morning": time(10), "afternoon": time(14), "evening": time(19), "night": time(20), "day": time(10)}


@dataclass(frozen=True)
class StatedEvent:
    """An event a sentence states: where (a map address) and when (game datetimes, end > start);
    ``part``: the part of the day it was told by, no clock time said (a key of :data:`PART_STARTS`;
    its start is that part's), else None."""

    place: str
    start: datetime
    end: datetime
    part: str | None = None


_MERIDIEM = r"(?P<{n}ap>[ap])\.?\s?m\b\.?"
_CLOCK = (r"(?P<{n}h>\d{{1,2}})(?:[:.](?P<{n}m>[0-5]\d))?\s*" + _MERIDIEM
          + r"|(?P<{n}H>[01]?\d|2[0-3])[:.h](?P<{n}M>[0-5]\d)\b"
          + r"|(?P<{n}w>noon|midday|midnight)")
_ONE = re.compile(r"\b(?:" + _CLOCK.format(n="a") + ")", re.I)
_RANGE = re.compile(
    r"\b(?:(?:from|between)\s+)?(?:" + _CLOCK.format(n="a")
    + r"|(?P<abare>\d{1,2})(?:[:.](?P<abarem>[0-5]\d))?)"
    + r"\s*(?:-|–|—|to|until|till|and)\s*(?:" + _CLOCK.format(n="b") + ")", re.I)


#: An hour said as a word ("at seven tonight", "half past four").
HOUR_WORDS = {w: i for i, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
_HOUR = r"\d{1,2}|" + "|".join(HOUR_WORDS)
#: A clock time said in words: "half past four", "a quarter to six", "ten o'clock", "six thirty",
#: with "am"/"pm" or without (then read by the part of the day, :func:`_spoken_time`).
_SPOKEN = re.compile(r"\b(?:(?P<q>half|(?:a\s+)?quarter)\s+(?P<rel>past|after|to|till|before)\s+(?P<h>" + _HOUR + r")"
                     r"|(?P<h2>" + _HOUR + r")\s+(?P<tail>o['’]?clock|thirty|fifteen|forty[- ]five))\b"
                     r"(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?", re.I)


def _hour(word: str) -> int:
    """An hour said in digits or as a word ("seven") -> 7."""
    return int(word) if word.isdigit() else HOUR_WORDS[word.lower()]


def _spoken_time(text: str) -> tuple[time, None, list[tuple[int, int]]] | None:
    """A clock time said in words (:data:`_SPOKEN`): "half past four" 16:30, "a quarter to six"
    17:45, "ten o'clock tomorrow morning" 10:00. Without "am"/"pm", a part of the day says which
    half ("half past seven in the evening" 19:30, "tonight"); with none, an hour from 1 to 6 is the
    afternoon's (said of a day's event; "half past four" is not 4:30 at night) and a later one is
    not read (morning or evening)."""
    found = _SPOKEN.search(text)
    if found is None:
        return None
    h = _hour(found["h"] or found["h2"])
    if not 1 <= h <= 12:
        return None
    if found["q"]:
        quarter = 15 if found["q"].lower().endswith("quarter") else 30
        h, minute = (h, quarter) if found["rel"].lower() in ("past", "after") else ((h - 2) % 12 + 1, 60 - quarter)
    else:
        minute = {"thirty": 30, "fifteen": 15}.get(found["tail"].lower(), 45 if found["tail"].lower().startswith("forty") else 0)
    part = stated_part(text)
    if found["ap"]:
        pm = found["ap"].lower() == "p"
    elif part is not None:
        pm = part != "morning"
    elif 1 <= h <= 6:
        pm = True
    else:
        return None
    return time(h % 12 + (12 if pm else 0), minute), None, [found.span()]


def _clock(m: re.Match, n: str) -> tuple[int, int] | None:
    """(hour, minute) of the clock time in group set ``n`` of ``m``; None if that set is empty."""
    g = m.groupdict()
    if g.get(f"{n}w"):
        return (0, 0) if g[f"{n}w"].lower() == "midnight" else (12, 0)
    if g.get(f"{n}H") is not None:
        return int(g[f"{n}H"]), int(g[f"{n}M"])
    if g.get(f"{n}h") is not None:
        h = int(g[f"{n}h"])
        if h == 0 or h > 12:
            return None
        h = h % 12 + (12 if g[f"{n}ap"].lower() == "p" else 0)
        return h, int(g[f"{n}m"] or 0)
    return None


def stated_times(text: str) -> tuple[time, time | None, list[tuple[int, int]]] | None:
    """The first clock time or range in ``text``.

    A range wins over a single time. Returns (start, end or None, the character spans of every
    clock time found), or None when the text states no clock time. A range ending at or before
    its start is dropped unless it ends at midnight (the next day).
    """
    spans = [m.span() for m in _ONE.finditer(text)]
    r = _RANGE.search(text)
    if r is not None:
        end = _clock(r, "b")
        start = _clock(r, "a")
        if start is None and r.group("abare") is not None and end is not None:
            h = int(r.group("abare"))
            minute = int(r.group("abarem") or 0)
            pm = r.group("bap").lower() == "p" if r.group("bap") else end[0] >= 12
            if 1 <= h <= 12:
                start = (h % 12 + (12 if pm else 0), minute)
                if start >= end and pm:  # "11-1pm": the start is in the morning
                    start = (h % 12, minute)
        if start is not None and end is not None:
            spans.append(r.span())
            t0 = time(*start)
            t1 = time(*end)
            if t1 <= t0 and end != (0, 0):
                return None
            return t0, t1, spans
    one = _ONE.search(text)
    if one is None:
        return _spoken_time(text) or _bare_hour(text)
    start = _clock(one, "a")
    if start is None:
        return None
    single = one.group("aH")
    if single is not None and len(single) == 1 and 1 <= start[0] <= 6 and not re.search(r"\bmorning\b", text, re.I):
        start = (start[0] + 12, start[1])  # "Friday at 4:30": the afternoon's, as "half past four" is
    return time(*start), None, spans


#: An hour without "am"/"pm" ("at 8", "around 9", "starting at 8 o'clock", "from 8 til late"), read
#: only beside a part of the day.
_BARE = re.compile(r"\b(?:at|around|about|from|like|starting(?: at| around| from)?) (?P<h>" + _HOUR + r")(?:[:.](?P<m>[0-5]\d))?"
                   r"(?:\s*o['’]?clock|ish)?\b(?![:.]?\d)", re.I)
_BARE_RANGE = re.compile(r"(?:\bfrom |(?<![\d:.-]))(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?(?: to | until | till |\s?[-–]\s?)"
                         r"(?P<h2>\d{1,2})(?:[:.](?P<m2>[0-5]\d))?\b(?![:.]?\d)", re.I)
_PART_OF_DAY = re.compile(r"\b(?P<part>morning|afternoon|evening|night|tonight)\b", re.I)
#: A range of bare hours said as one ("from 10 to 2", "between 10 and 2"), read without a part of the
#: day only where the clock allows one reading (:func:`_open_range`).
_SAID_RANGE = re.compile(r"\b(?:from (?P<h>\d{1,2})(?: to | until | till | til )|between (?P<b>\d{1,2}) and )"
                         r"(?P<h2>\d{1,2})\b(?![:.]?\d|\s*(?:am|pm|a\.m|p\.m|o['’]?clock))", re.I)


def _open_range(text: str) -> tuple[time, time, list[tuple[int, int]]] | None:
    """A range of bare hours with no part of the day, where only one reading is a day's: "between
    10 and 2" -> 10:00-14:00 (the clock turns past noon), "from 2 to 5" -> 14:00-17:00 (both
    hours before 7, said of a day, are the afternoon's), "from 12 to 3" -> 12:00-15:00. "From 8 to
    10" (morning or evening) is not read."""
    found = _SAID_RANGE.search(text)
    if found is None:
        return None
    h1, h2 = int(found["h"] or found["b"]), int(found["h2"])
    if not (1 <= h1 <= 12 and 1 <= h2 <= 12) or h1 == h2:
        return None
    if h1 != 12 and h1 > h2:  # "10 to 2": the morning into the afternoon
        start, end = time(h1, 0), time(h2 % 12 + 12, 0)
    elif h1 == 12 or h2 <= 6:  # "12 to 3", "2 to 5": the afternoon
        start, end = time(12 if h1 == 12 else h1 + 12, 0), time(h2 % 12 + 12, 0)
    else:
        return None
    return start, end, [found.span()]


def _bare_hour(text: str) -> tuple[time, time | None, list[tuple[int, int]]] | None:
    """"Friday night at 8" -> 20:00, "tomorrow morning at 9" -> 09:00, "Wednesday morning from 8
    to 10" -> 08:00-10:00: hours said without "am"/"pm" where the text names a part of the day;
    without one, a range only one reading of the clock allows (:func:`_open_range`), else None
    ("at 8" alone)."""
    part = stated_part(text)
    found = _BARE_RANGE.search(text) or _BARE.search(text)
    if part is None:
        return _open_range(text)
    if found is None:
        return None
    pm = part != "morning"
    hours = [(_hour(found[h]), int(found[m] or 0)) for h, m in (("h", "m"), ("h2", "m2")) if found.groupdict().get(h)]
    if any(not 1 <= h <= 12 or (h == 12 and part in ("evening", "night")) for h, _ in hours):
        return None  # no hour of a clock, or midnight (the next day's start): not read here
    start, *end = [time(h % 12 + (12 if pm else 0), m) for h, m in hours]
    if end and end[0] <= start:
        return None
    return start, (end[0] if end else None), [found.span()]


_CAL = threading.local()
#: The days of the week, lower case, Monday first (``date.weekday()`` order).
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_TODAY_WORDS = re.compile(r"^(?:tonight|this (?:morning|afternoon|evening))$", re.I)
_DAY_BIT = parsedatetime.pdtContext.ACU_DAY
_MONTH_BIT = parsedatetime.pdtContext.ACU_MONTH
_YEAR_BIT = parsedatetime.pdtContext.ACU_YEAR


def _calendar() -> parsedatetime.Calendar:
    cal = getattr(_CAL, "cal", None)
    if cal is None:
        cal = _CAL.cal = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)
    return cal


#: The months' names, as written.
MONTHS = ("January February March April May June July August September October November "
          "December").split()
#: A day of the month said by its ordinal, which parsedatetime does not read: "on the 14th", "the
#: 1st of March".
_ORDINAL_DAY = re.compile(r"\b(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?:\s+of\s+(?P<month>"
                          + "|".join(MONTHS) + r"))?", re.I)


#: Two days ahead, which parsedatetime reads as one ("after tomorrow").
_AFTER_TOMORROW = re.compile(r"\b(?:the\s+)?day after tomorrow\b", re.I)


def _ordinal_days(text: str, created: datetime) -> list[tuple[int, date, int, int]]:
    """(2, day, start, end) of each ordinal day ("the 14th": this month's, or the next month's when
    the 14th is past; "the 1st of March": the nearest such date, as a named one)."""
    found = []
    for m in _ORDINAL_DAY.finditer(text):
        month = MONTHS.index(m["month"].capitalize()) + 1 if m["month"] else created.month
        year = created.year
        try:
            day = date(year, month, int(m["d"]))
            if m["month"] is None and day < created.date():  # "the 3rd", said on the 13th: next month's
                day = date(year + (month == 12), month % 12 + 1, int(m["d"]))
            elif m["month"] is not None and (day - created.date()).days < -183:
                day = day.replace(year=year + 1)
        except ValueError:  # "the 31st" of a shorter month
            continue
        found.append((2, day, m.start(), m.end()))
    return found


def _days(text: str, created: datetime) -> list[tuple[int, date, int, int]]:
    """(rank, day, start, end) of each day phrase in ``text``.

    Rank 2 names a month and day (or a day of the month by its ordinal, :func:`_ordinal_days`),
    rank 1 a relative day or weekday ("tomorrow", "on Tuesday", "the day after tomorrow"); a
    phrase our patterns read is not read again by parsedatetime.
    """
    found = _ordinal_days(text, created)
    found += [(1, created.date() + timedelta(days=2), m.start(), m.end()) for m in _AFTER_TOMORROW.finditer(text)]
    for when, ctx, a, b, phrase in _calendar().nlp(text, sourceTime=created) or ():
        if any(a < end and start < b for _, _, start, end in found):  # read by a pattern of ours
            continue
        words = phrase.strip().lower()
        if _TODAY_WORDS.match(words):
            found.append((1, created.date(), a, b))
        elif ctx.accuracy & _DAY_BIT:
            day = when.date()
            bare = words.removeprefix("on ").removeprefix("this ")
            if bare in WEEKDAYS and WEEKDAYS.index(bare) == created.weekday():
                day = created.date()
            named = bool(ctx.accuracy & _MONTH_BIT)
            if named and not ctx.accuracy & _YEAR_BIT and (day - created.date()).days > 183:
                day = day.replace(year=day.year - 1)  # "February 14" read on the 16th: this year's
            found.append((2 if named else 1, day, a, b))
    return found


def stated_day(text: str, created: datetime) -> date | None:
    """The day ``text`` names ("tomorrow", "on Tuesday", "February 14"), read on ``created``.

    A named month and day wins over a weekday, and without a year it is the nearest such date
    (within about six months after ``created``); a bare weekday equal to ``created``'s weekday
    means that same day; "tonight" / "this evening" mean ``created``'s day. Returns None when no
    day is named (a month alone, "next week" and the like name no day).
    """
    best = max(_days(text, created), key=lambda d: d[0], default=None)
    return best[1] if best else None


def event_day(text: str, created: datetime) -> date | None:
    """The day ``text`` states for what it tells, read on ``created``: :func:`stated_day` of the
    text with its clock times blanked out (parsedatetime would read "Tuesday from 5pm" as one
    time), as :func:`find_event` reads it; None when no day is named."""
    times = stated_times(text)
    return stated_day(_blank(text, times[2]) if times else text, created)


def absolute_days(text: str, created: datetime) -> str:
    """``text`` with each relative day phrase written as the date it meant on ``created``.

    "tomorrow", "on Tuesday", "tonight" become e.g. "on Tuesday, February 14", so a retelling on
    a later day names the same day. A text that already names a month and day is kept.
    """
    times = stated_times(text)
    days = _days(_blank(text, times[2]) if times else text, created)
    if any(rank == 2 for rank, *_ in days):
        return text
    out = text
    for _, day, a, b in sorted(days, key=lambda d: -d[2]):
        lead = " " if out[a:a + 1] == " " else ""
        kept = _SPAN_WORD.match(out[a:b])  # "from Tuesday": "from Tuesday, February 14"
        on = f"{kept.group(1)} " if kept else "" if SPAN_WORD_BEFORE.search(out[:a]) else "on "
        out = f"{out[:a]}{lead}{on}{day:%A, %B} {day.day}{out[b:]}"
    return out


#: A word that puts a day in a span, said before it instead of "on": "moved from Tuesday to
#: Thursday" (in a day phrase, and just before one).
_SPAN_WORD = re.compile(r"\s*(from|to|until|till|by|before|after|since)\s+", re.I)
SPAN_WORD_BEFORE = re.compile(r"\b(?:from|to|until|till|by|before|after|since)\s*$", re.I)


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the given character spans replaced by spaces (positions kept)."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


@lru_cache(maxsize=8)
def place_names(addresses: tuple[str, ...]) -> dict[str, str]:
    """Lower-case place name -> address, for the sectors and areas among ``addresses``, and the
    shorter names a building is called by (:func:`_aliases`: "the market", "the pub").

    Names shared by several places ("kitchen", "bathroom") are left out: they do not say which.
    Cached by the tuple of addresses (do not mutate the returned dict).
    """
    seen: dict[str, set[str]] = {}
    for address in addresses:
        parts = address.split(":")
        if len(parts) in (2, 3):
            seen.setdefault(parts[-1].lower(), set()).add(address)
    names = {name: next(iter(a)) for name, a in seen.items() if len(a) == 1}
    called: dict[str, set[str]] = {}
    for name, address in names.items():
        if address.count(":") == 1:  # a building, by the shorter names people call it
            for alias in _aliases(name):
                called.setdefault(alias, set()).add(address)
    return {**{a: next(iter(found)) for a, found in called.items() if len(found) == 1 and a not in seen}, **names}


def _aliases(name: str) -> list[str]:
    """Shorter names of a building's ``name`` (lower case) that people use: without "the", its
    part before "for" or before "and" and one last word ("the willows market and pharmacy" ->
    "willows market"), and that part's last word ("market", "pub", "park", "college"). A name
    with an owner ("lin family's house") is called only without "the"."""
    bare = re.sub(r"^the\s+", "", name)
    out = [bare] if bare != name else []
    owner, mark, owned = bare.partition("'s ")
    if mark and " " not in owner and not re.search(r"['’]", owned):  # "artist's co-living space": a kind of
        out.append(owned)  # owner, no person's name: "the co-living space" (kept only if no other place is so called)
    if "'" in bare or " " not in bare:
        return out
    head = re.split(r"\s+for\s+|\s+and\s+(?=\w+$)", bare)[0]
    if head != bare:
        out.append(head)
    out.append(head.rsplit(" ", 1)[-1])
    short = bare.rsplit(" ", 1)[0]  # "the rose and crown pub" -> "rose and crown"
    if bare.count(" ") >= 2 and short.rsplit(" ", 1)[-1] not in ("and", "for", "of", "the", "on", "at"):
        out.append(short)
    return out


@lru_cache(maxsize=64)
def _place_pattern(names: tuple[str, ...]) -> re.Pattern:
    alternatives = sorted(names, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in alternatives) + r")\b", re.I)


#: The words before a place that say something is there: "at", "in" (with "the").
_LOCATIVE = re.compile(r"\b(?:at|in|inside|outside|near)\s+(?:the\s+)?$", re.I)


def _where(text: str, places: dict[str, str]) -> re.Match | None:
    """The place name of ``places`` that ``text`` puts something at: the first one after "at"
    or "in" ("a breakfast for the library at Hobbs Cafe" -> Hobbs Cafe, "a sale on garden tools
    at the store" -> the store), else the first named; a name right before another is that
    other's ("the college library" -> the library)."""
    found = list(_place_pattern(tuple(sorted(places))).finditer(text))
    # a name right before another names it ("the college library": the library)
    found = [m for m, after in zip(found, [*found[1:], None]) if after is None or text[m.end():after.start()].strip()]
    located = [m for m in found if _LOCATIVE.search(text[max(0, m.start() - 12):m.start()])]
    best = located or found
    return best[0] if best else None


def place_in(text: str, places: dict[str, str]) -> str | None:
    """The address of the place of ``places`` (see :func:`place_names`) ``text`` puts something
    at (:func:`_where`)."""
    if not places:
        return None
    where = _where(text, places)
    return None if where is None else places[where.group(1).lower()]


def unread_hour(text: str) -> bool:
    """Whether ``text`` says an hour :func:`stated_times` does not read ("from 8 to 11", "at 8":
    morning or evening): its event's time is not known, and no part of the day stands in for it."""
    return stated_times(text) is None and bool(_BARE_RANGE.search(text) or _BARE.search(text) or _SPOKEN.search(text))


def without_unread_hour(text: str) -> str:
    """``text`` with the hours :func:`unread_hour` finds taken out ("on Wednesday at 6" -> "on
    Wednesday"): its day alone, for what keeps the hours it had (an event moved to another day)."""
    if not unread_hour(text):  # "at 4 pm" is read: kept
        return text
    for pattern in (_BARE_RANGE, _BARE, _SPOKEN):
        text = pattern.sub("", text)
    return text


#: A part of the day said of a day ("on Wednesday evening", "tomorrow morning", "in the afternoon",
#: "tonight"), not a thing's name ("a poetry night").
_DAY_PART = re.compile(r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|yesterday|this|in the|at|"
                       r"every|each)\s+(?P<part>morning|afternoon|evening|night)\b|\b(?P<tonight>tonight)\b", re.I)


def stated_part(text: str) -> str | None:
    """The part of the day ``text`` names, a key of :data:`PART_STARTS`: one said of a day first
    (:data:`_DAY_PART`: "a poetry night ... on Wednesday evening" is the evening's), else any
    ("movie night on Friday": the night's); "tonight" is the evening's; None without one."""
    found = _DAY_PART.search(text) or _PART_OF_DAY.search(text)
    if found is None:
        return None
    word = (found.groupdict().get("tonight") or found["part"]).lower()
    return "evening" if word == "tonight" else word


def find_event(text: str, created: datetime, places: dict[str, str], *, place: str | None = None,
               parts: bool = False) -> StatedEvent | None:
    """The event ``text`` states, or None unless it names a place, a day and a clock time (with
    ``parts``, a part of the day or the day alone will do).

    Args:
        text: one memory's content.
        created: when the memory was written (relative days count from it).
        places: lower-case place name -> address (see :func:`place_names`).
        place: the address when ``text`` names no place (a clause whose place an earlier clause
            named).
        parts: read an event told with no clock time ("at the pharmacy on Saturday morning"):
            it starts at its part of the day's :data:`PART_STARTS` (``"day"``'s for a day named
            alone), with ``part`` set; for typed text read at its edge, where a day said alone
            means an event that day.

    Returns:
        The event; its end is the stated end, or start + ``DEFAULT_MINUTES`` when only a start
        time (or a part of the day) is stated.
    """
    if not places:
        return None
    where = _where(text, places)
    if where is None and place is None:
        return None
    times = stated_times(text)
    part = None
    if times is None:
        if not parts or unread_hour(text):
            return None
        part = stated_part(text) or "day"
        times = PART_STARTS[part], None, []
    t0, t1, spans = times
    day = stated_day(_blank(text, spans), created)
    if day is None:
        return None
    start = datetime.combine(day, t0)
    if t1 is None:
        end = start + timedelta(minutes=DEFAULT_MINUTES)
    else:
        end = datetime.combine(day + timedelta(days=1) if t1 <= t0 else day, t1)
    return StatedEvent(place=places[where.group(1).lower()] if where else str(place), start=start, end=end,
                       part=part)
