"""Accuracy and cost of the stated-event parser (``town.textevent.find_event``).

Each phrase below comes with the event a reader works out by hand (place, start, end), read on
Monday 2023-02-13 08:00; ``None`` means the phrase states no event (no place, no day or no
time). Prints a Markdown table (phrase, expected, parsed, ok) and the median microseconds per
call, for docs/event-parsing.md.

Usage::

    .venv/bin/python benchmarks/event_parsing.py
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime

from town.textevent import find_event, place_names

CREATED = datetime(2023, 2, 13, 8, 0)  # a Monday
PLACES = place_names((
    "the_ville:Hobbs Cafe", "the_ville:Hobbs Cafe:cafe", "the_ville:The Rose and Crown Pub",
    "the_ville:The Rose and Crown Pub:pub", "the_ville:Johnson Park", "the_ville:Oak Hill College",
    "the_ville:Oak Hill College:library", "the_ville:Dorm for Oak Hill College:kitchen",
    "the_ville:Isabella Rodriguez's apartment:kitchen",
))
CAFE, PUB, PARK, LIB = ("the_ville:Hobbs Cafe", "the_ville:The Rose and Crown Pub",
                        "the_ville:Johnson Park", "the_ville:Oak Hill College:library")

#: (phrase, expected (place, "MM-DD HH:MM", "MM-DD HH:MM") or None), worked out by hand.
TABLE: tuple[tuple[str, tuple[str, str, str] | None], ...] = (
    ("I am planning a Valentine's Day party at Hobbs Cafe on February 14, 2023, from 5pm to 7pm.",
     (CAFE, "02-14 17:00", "02-14 19:00")),
    ("I am organising a board-game morning at The Rose and Crown Pub tomorrow from 10am to noon; "
     "everyone is welcome", (PUB, "02-14 10:00", "02-14 12:00")),
    ("Party at Hobbs Cafe on Tuesday, February 14 from 5pm to 7pm.", (CAFE, "02-14 17:00", "02-14 19:00")),
    ("Lunch at Hobbs Cafe on Tuesday at noon.", (CAFE, "02-14 12:00", "02-14 13:00")),
    ("A meeting at Johnson Park 17:00-19:00 on February 14.", (PARK, "02-14 17:00", "02-14 19:00")),
    ("Quiz night at the Rose and Crown Pub tonight at 8pm.", (PUB, "02-13 20:00", "02-13 21:00")),
    ("A reading group meets at the library on Wednesday from 3 pm to 4:30 pm.",
     (LIB, "02-15 15:00", "02-15 16:30")),
    ("Come to Hobbs Cafe today between 2pm and 4pm for free cake.", (CAFE, "02-13 14:00", "02-13 16:00")),
    ("Let's meet at Johnson Park on Friday at 9:30am.", (PARK, "02-17 09:30", "02-17 10:30")),
    ("Breakfast at Hobbs Cafe tomorrow 8-9am.", (CAFE, "02-14 08:00", "02-14 09:00")),
    ("A concert at Oak Hill College on Feb 16 from 19:00 to 21:00.",
     ("the_ville:Oak Hill College", "02-16 19:00", "02-16 21:00")),
    ("Karaoke at The Rose and Crown Pub on Saturday from 9pm until midnight.",
     (PUB, "02-18 21:00", "02-19 00:00")),
    ("Hobbs Cafe hosts a poetry evening on 15 February at 6pm.", (CAFE, "02-15 18:00", "02-15 19:00")),
    ("The chess club meets at the library next Thursday at 4pm.", (LIB, "02-23 16:00", "02-23 17:00")),
    ("Yoga in Johnson Park this evening from 6 to 7pm.", (PARK, "02-13 18:00", "02-13 19:00")),
    ("Picnic at Johnson Park the day after tomorrow at 1pm.", (PARK, "02-15 13:00", "02-15 14:00")),
    ("Study session at the library on Monday 10am to 12pm.", (LIB, "02-13 10:00", "02-13 12:00")),
    ("Open mic at the pub on February 17 at 8:30 pm.", (PUB + ":pub", "02-17 20:30", "02-17 21:30")),
    ("Cake tasting at the cafe tomorrow at 3 p.m.", (CAFE + ":cafe", "02-14 15:00", "02-14 16:00")),
    ("Dance at Hobbs Cafe in two days from 7pm to 10pm.", (CAFE, "02-15 19:00", "02-15 22:00")),
    ("Lecture at Oak Hill College on 2023-02-14 at 11:00.",
     ("the_ville:Oak Hill College", "02-14 11:00", "02-14 12:00")),
    ("Trivia at The Rose and Crown Pub on Feb. 14th from 8pm to 10pm.", (PUB, "02-14 20:00", "02-14 22:00")),
    ("A run around Johnson Park on the 14th at 7am.", (PARK, "02-14 07:00", "02-14 08:00")),
    ("Valentine's Day party at Hobbs Cafe from 5pm to 7pm.", None),  # no day named
    ("I want the party to feel warm: red paper hearts, hot chocolate and music.", None),
    ("Hobbs Cafe opens at 8am and closes at 8pm every day.", None),
    ("There is a party tomorrow at 5pm.", None),  # no place
    ("I will see Klaus at the party on Tuesday.", None),
    ("The espresso machine at the cafe needs descaling this week.", None),
    ("Maria Lopez always orders an oat-milk latte.", None),
    ("I am meeting friends at the kitchen tomorrow at 6pm.", None),  # which kitchen?
    ("Klaus Mueller is reading at the library.", None),
    ("A sign on the door of Hobbs Cafe says it will close tomorrow morning for renovation.", None),
    ("I slept until 9am at home today.", None),
)


def _fmt(event) -> tuple[str, str, str] | None:
    if event is None:
        return None
    return event.place, f"{event.start:%m-%d %H:%M}", f"{event.end:%m-%d %H:%M}"


def _show(e) -> str:
    return "none" if e is None else f"{e[0].split(':', 1)[1]} {e[1]}–{e[2][-5:]}"


def main() -> None:
    """Print the accuracy table and the median cost per call."""
    ok = 0
    print("| phrase | expected | parsed | ok |\n|---|---|---|---|")
    for phrase, expected in TABLE:
        got = _fmt(find_event(phrase, CREATED, PLACES))
        ok += got == expected
        print(f"| {phrase} | {_show(expected)} | {_show(got)} | {'yes' if got == expected else 'NO'} |")
    print(f"\n{ok}/{len(TABLE)} correct ({100 * ok / len(TABLE):.0f}%)")
    find_event(TABLE[0][0], CREATED, PLACES)  # warm the calendar and the place pattern
    times = []
    for _ in range(5):
        for phrase, _ in TABLE:
            t = time.perf_counter()
            find_event(phrase, CREATED, PLACES)
            times.append(time.perf_counter() - t)
    print(f"median {statistics.median(times) * 1e6:.0f} µs per call, "
          f"max {max(times) * 1e6:.0f} µs ({len(times)} calls)")


if __name__ == "__main__":
    main()
