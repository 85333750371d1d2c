"""Day plans over a whole run: each meal once, and no block sends a persona where it already is.

Smallville, 36 game hours (the session's run, scripted backend): every day plan (PLAN events of
level "day") is read back. Meals are found here by a rule of this test's own, apart from the
planner's: a block eats a meal when an eating word ("eat", "have", "cook", "grab"), or "go to
... for", comes at most three words before the meal's name, and the name is not "... crowd".
By hand from the persona files, Arthur Burton's routine holds breakfast twice ("eat breakfast"
at 09:30, "have a late breakfast at Hobbs Cafe" at 11:00), and Carlos Gomez writes at Hobbs Cafe
until 17:00, when Isabella Rodriguez's party there begins: both occur in every 36 h run.
"""

from __future__ import annotations

import re

import pytest

from town.events import EventKind
from town.recording import RunReader

_EATS = re.compile(r"\b(?:eat|have|cook|grab|go to\b.*\bfor)\s+(?:\S+\s+){0,3}?"
                   r"(breakfast|brunch|lunch|dinner|supper)\b(?!\s+crowd)", re.I)


@pytest.fixture(scope="module")
def day_plans(smallville_run):
    """(persona, date, items) of every day plan of the run, in order."""
    with RunReader(smallville_run) as reader:
        return [(e.persona, e.data["date"], e.data["items"]) for e in reader.events(kinds=[EventKind.PLAN])
                if e.data.get("level") == "day"]


def test_rule_of_this_test_reads_meals_as_a_person_would():
    """The test's own rule, on the routines' own words."""
    eats = {d: (m.group(1) if (m := _EATS.search(d)) else None) for d in (
        "eat breakfast", "cook and eat dinner", "have a late breakfast at Hobbs Cafe", "cook lunch at home",
        "cook sandwiches and soup for the lunch crowd", "open the cafe again after lunch", "have coffee",
        "go to Johnson Park for a potluck lunch")}
    assert eats == {"eat breakfast": "breakfast", "cook and eat dinner": "dinner",
                    "have a late breakfast at Hobbs Cafe": "breakfast", "cook lunch at home": "lunch",
                    "cook sandwiches and soup for the lunch crowd": None, "open the cafe again after lunch": None,
                    "have coffee": None, "go to Johnson Park for a potluck lunch": "lunch"}


def test_no_day_plan_holds_a_meal_twice(day_plans):
    """Over every day plan of the run, no meal is eaten in two blocks of different words (a block
    an event cut in two keeps its words, and is one meal). Arthur Burton's plans keep one
    breakfast, and every persona's plans still hold meals."""
    twice, meals = [], 0
    for pid, day, items in day_plans:
        held: dict[str, set[str]] = {}
        for item in items:
            found = _EATS.search(item["description"])
            if found:
                held.setdefault(found.group(1).lower(), set()).add(item["description"])
        meals += len(held)
        twice += [(pid, day, meal, sorted(words)) for meal, words in held.items() if len(words) > 1]
    assert len(day_plans) >= 2 * 25 and meals >= 2 * len(day_plans)
    assert twice == [], f"{len(twice)} meals held twice, e.g. {twice[:5]}"
    arthur = [[i["description"] for i in items if "breakfast" in i["description"]]
              for pid, _, items in day_plans if pid == "arthur_burton"]
    assert arthur and all(breakfasts == ["eat breakfast"] for breakfasts in arthur)


def test_no_block_sends_a_persona_where_it_already_is(day_plans):
    """No "go to X" block follows a block in X's sector (the place's world and sector), in any
    day plan of the run; Carlos Gomez, at Hobbs Cafe when the party there begins, stays."""
    there = []
    for pid, day, items in day_plans:
        for before, block in zip(items, items[1:]):
            if block["description"].startswith("go to ") and \
                    before["place"].split(":")[:2] == block["place"].split(":")[:2]:
                there.append((pid, day, before["description"], block["description"]))
    assert there == [], f"{len(there)} blocks go where the persona already is, e.g. {there[:5]}"
    assert any(pid == "carlos_gomez" and any(i["description"] == "stay at Isabella Rodriguez's Valentine's Day party at "
                                                                  "Hobbs Cafe" for i in items)
               for pid, _, items in day_plans)
