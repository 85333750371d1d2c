"""The residents of a generated town: households, occupations, routines and relationships.

Names come from Faker (several Latin-script locales, seeded); everything else is drawn with one
``random.Random`` so a seed gives the same town. Each resident has a role that decides its
workplace and the shape of its day:

- ``student``: classes and the library at a college, evenings at the pub or at home;
- ``staff``: a shift at a cafe, pub, market, bookshop or pharmacy (pub staff work late);
- ``office``: a desk at an office from nine to five;
- ``baker``: a night worker at a bakery, asleep in the day;
- ``retiree``: the park, the market, the cafe and the sofa.

Routines use only places of the resident's own home, its workplace and the town's public places,
so every routine place is reachable on the generated map.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from ..names import look_alike_keys
from .townmap import WORKPLACE_KINDS, Lot

__all__ = ["Resident", "make_residents", "routine_for", "describe", "LOCALES"]

#: Faker locales the names are drawn from (Latin script, so every name has initials).
LOCALES = ("en_US", "en_GB", "es_MX", "it_IT", "de_DE", "fr_FR", "pt_BR", "pl_PL", "nl_NL", "sv_SE")

_TRAITS = ("friendly", "curious", "shy", "talkative", "patient", "ambitious", "cheerful", "careful",
           "generous", "stubborn", "thoughtful", "funny", "organised", "restless", "kind", "quiet",
           "outgoing", "practical", "dreamy", "proud", "honest", "anxious", "calm", "witty")
_EMOJI = {"student": "📚", "office": "💼", "baker": "🥖", "retiree": "🌷", "cafe": "☕", "pub": "🍺",
          "market": "🛒", "bookshop": "📖", "pharmacy": "💊"}
_JOB = {"cafe": "a barista at {place}", "pub": "a bartender at {place}", "market": "a shop assistant at {place}",
        "bookshop": "a bookseller at {place}", "pharmacy": "a pharmacist at {place}",
        "office": "an office clerk at {place}", "baker": "a night baker at {place}",
        "student": "a student at {place}", "retiree": "retired"}


@dataclass
class Resident:
    """One generated persona before it is written to its file.

    Attributes:
        id: persona id (file stem), ``[a-z0-9_]+``.
        name: full name.
        age: years.
        role: student | staff | office | baker | retiree.
        home: the house lot; bed: the resident's bed address there.
        work: the workplace lot (None for retirees).
        traits: three adjectives.
        relationships: (other id, description).
    """

    id: str
    name: str
    age: int
    role: str
    home: Lot
    bed: str
    work: Lot | None
    traits: tuple[str, ...]
    relationships: list[tuple[str, str]] = field(default_factory=list)


def _slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_name.lower()).strip("_") or "resident"


def _block(start: str, end: str, activity: str, place: str, task: str | None = None) -> dict[str, Any]:
    block = {"start": start, "end": end, "activity": activity, "place": place}
    if task:
        block["task"] = task
    return block


def routine_for(r: Resident, public: dict[str, Lot], rng: random.Random) -> list[dict[str, Any]]:
    """The resident's usual day, 00:00-24:00, from its role, home, workplace and public places.

    Args:
        r: the resident.
        public: the nearest-by-index public places: "cafe", "pub", "market", "park" lots.
        rng: draws small variations (evening choices).

    Returns:
        Routine blocks as written in a persona file.
    """
    h, w = r.home.places, (r.work.places if r.work else {})
    cafe, pub, market, park = (public[k].places for k in ("cafe", "pub", "market", "park"))
    evening = rng.choice([("relax on the sofa", h["sofa"]), ("have a drink with friends", pub["tables"]),
                          ("take a walk in the park", park["lawn"])])
    bed, kind = r.bed, r.work.kind if r.work else "retiree"
    if r.role == "baker":
        return [_block("00:00", "06:00", "bake bread for the morning", w["oven"], "bake bread"),
                _block("06:00", "07:00", "sell the first loaves at the counter", w["counter"], "sell bread"),
                _block("07:00", "15:00", "sleeping", bed),
                _block("15:00", "16:00", "eat a late breakfast", h["dining table"], "have breakfast"),
                _block("16:00", "18:00", "take a walk in the park", park["lawn"]),
                _block("18:00", "19:00", "buy groceries", market["grocery shelves"], "buy groceries"),
                _block("19:00", "21:00", "cook and eat dinner", h["stove"], "cook dinner"),
                _block("21:00", "22:00", "relax on the sofa", h["sofa"]),
                _block("22:00", "24:00", "prepare the dough", w["flour shelves"], "prepare dough")]
    if r.role == "staff" and kind == "pub":
        return [_block("00:00", "01:00", "close the pub and wipe the bar", w["bar"], "close the pub"),
                _block("01:00", "09:00", "sleeping", bed),
                _block("09:00", "10:00", "eat breakfast", h["dining table"], "have breakfast"),
                _block("10:00", "12:00", "take a walk in the park", park["benches"]),
                _block("12:00", "13:00", "have lunch at the cafe", cafe["tables"], "have lunch"),
                _block("13:00", "15:00", "relax on the sofa", h["sofa"]),
                _block("15:00", "16:00", "buy groceries", market["grocery shelves"], "buy groceries"),
                _block("16:00", "24:00", "pour drinks at the bar", w["bar"], "serve drinks")]
    if r.role == "retiree":
        return [_block("00:00", "07:00", "sleeping", bed),
                _block("07:00", "08:00", "eat breakfast", h["dining table"], "have breakfast"),
                _block("08:00", "10:00", "tend the garden in the park", park["garden"], "tend the garden"),
                _block("10:00", "11:00", "buy groceries", market["grocery shelves"], "buy groceries"),
                _block("11:00", "12:30", "have coffee with neighbours at the cafe", cafe["tables"]),
                _block("12:30", "13:30", "cook and eat lunch", h["stove"], "cook lunch"),
                _block("13:30", "17:00", "read on the sofa", h["sofa"]),
                _block("17:00", "18:00", "sit on a bench in the park", park["benches"]),
                _block("18:00", "19:00", "cook and eat dinner", h["stove"], "cook dinner"),
                _block("19:00", "21:30", "relax on the sofa", h["sofa"]),
                _block("21:30", "24:00", "sleeping", bed)]
    if r.role == "student":
        return [_block("00:00", "07:30", "sleeping", bed),
                _block("07:30", "08:30", "eat breakfast", h["dining table"], "have breakfast"),
                _block("08:30", "12:00", "attend classes", w["student desks"], "attend class"),
                _block("12:00", "13:00", "have lunch at the cafe", cafe["tables"], "have lunch"),
                _block("13:00", "16:00", "study in the library", w["study tables"], "study"),
                _block("16:00", "18:00", "meet friends in the park", park["lawn"]),
                _block("18:00", "19:00", "cook and eat dinner", h["stove"], "cook dinner"),
                _block("19:00", "23:00", *evening),
                _block("23:00", "24:00", "sleeping", bed)]
    # day staff of a cafe, market, bookshop or pharmacy, and office workers
    desk = {"cafe": "coffee machine", "market": "checkout", "bookshop": "counter", "pharmacy": "counter",
            "office": "desks"}[kind]
    task = {"cafe": "brew coffee", "market": "serve customers", "bookshop": "serve customers",
            "pharmacy": "serve customers", "office": "work at the desk"}[kind]
    lunch = (w["tables"], "have lunch at work") if kind == "cafe" else (cafe["tables"], "have lunch at the cafe")
    return [_block("00:00", "06:30", "sleeping", bed),
            _block("06:30", "07:30", "eat breakfast", h["dining table"], "have breakfast"),
            _block("07:30", "12:00", f"work at the {desk}", w[desk], task),
            _block("12:00", "13:00", lunch[1], lunch[0], "have lunch"),
            _block("13:00", "17:00", f"work at the {desk}", w[desk], task),
            _block("17:00", "18:00", "buy groceries", market["grocery shelves"], "buy groceries"),
            _block("18:00", "19:00", "cook and eat dinner", h["stove"], "cook dinner"),
            _block("19:00", "22:00", *evening),
            _block("22:00", "24:00", "sleeping", bed)]


def _roles(n: int, rng: random.Random) -> list[str]:
    """Roles for ``n`` residents: about a quarter students, a sixth retirees, a few bakers."""
    weights = {"student": 0.25, "retiree": 0.17, "baker": 0.05, "staff": 0.23, "office": 0.30}
    roles = [role for role, share in weights.items() for _ in range(round(share * n))]
    while len(roles) < n:
        roles.append("office")
    rng.shuffle(roles)
    return roles[:n]


def make_residents(n: int, rng: random.Random, faker_seed: int) -> tuple[list[Resident], list[Lot]]:
    """Draw ``n`` residents, their households and the workplaces that employ them.

    Returns:
        (residents sorted by id, lots: houses and workplaces, parks and public places included).

    Raises:
        ValueError: if ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"a town needs at least one resident, got {n}")
    fake = Faker(list(LOCALES))
    fake.seed_instance(faker_seed)
    lots: list[Lot] = []
    used_names: set[str] = set()

    def lot(kind: str, label: str) -> Lot:
        name = label
        while name in used_names:
            name = f"{label} {len(used_names)}"
        used_names.add(name)
        made = Lot(kind=kind, name=name)
        lots.append(made)
        return made

    def many(kind: str, count: int, label) -> list[Lot]:
        return [lot(kind, label()) for _ in range(max(1, count))]

    surname = fake.last_name
    shops = {"cafe": many("cafe", n // 60, lambda: f"Cafe {surname()}"),
             "pub": many("pub", n // 80, lambda: f"The {surname()} Arms"),
             "market": many("market", n // 80, lambda: f"{surname()} Market"),
             "bookshop": many("bookshop", n // 250, lambda: f"{surname()} Books"),
             "pharmacy": many("pharmacy", n // 250, lambda: f"{surname()} Pharmacy")}
    many("park", n // 100, lambda: f"{fake.street_name()} Park")
    staff_slots = [w for kind, ws in shops.items() for w in ws for _ in range(WORKPLACE_KINDS[kind]["staff"])]
    rng.shuffle(staff_slots)
    # Shop staff beyond the shops' places work in offices instead.
    roles, hired = [], 0
    for role in _roles(n, rng):
        if role == "staff":
            hired += 1
            role = "staff" if hired <= len(staff_slots) else "office"
        roles.append(role)
    counts = {r: roles.count(r) for r in ("student", "baker", "office")}
    colleges = many("college", -(-counts["student"] // 60), lambda: f"{surname()} College") if counts["student"] else []
    offices = (many("office", -(-counts["office"] // WORKPLACE_KINDS["office"]["staff"]),
                    lambda: f"{surname()} Offices") if counts["office"] else [])
    bakeries = (many("bakery", -(-counts["baker"] // WORKPLACE_KINDS["bakery"]["staff"]),
                     lambda: f"{surname()}'s Bakery") if counts["baker"] else [])

    people: list[Resident] = []
    ids: set[str] = set()
    taken_keys: set[str] = set()
    next_office = next_college = next_bakery = 0
    remaining = list(roles)
    while remaining:
        size = min(len(remaining), rng.choice((1, 1, 2, 2, 2, 3, 3, 4)))
        family = fake.last_name()
        house = lot("house", f"{fake.building_number()} {fake.street_name()}")
        house.beds = size
        for k in range(size):
            role = remaining.pop()
            name = f"{fake.first_name()} {family}"
            while look_alike_keys(name) & taken_keys:  # no two names a reader could mistake
                name = f"{fake.first_name()} {family}"
            taken_keys.update(look_alike_keys(name))
            pid = base = _slug(name)
            while pid in ids:
                pid = f"{base}_{len(ids)}"
            ids.add(pid)
            if role == "student":
                work, age = colleges[next_college % len(colleges)], rng.randint(18, 26)
                next_college += 1
            elif role == "retiree":
                work, age = None, rng.randint(66, 88)
            elif role == "baker":
                work, age = bakeries[next_bakery // WORKPLACE_KINDS["bakery"]["staff"]], rng.randint(24, 60)
                next_bakery += 1
            elif role == "staff":
                work, age = staff_slots.pop(), rng.randint(19, 64)
            else:
                work, age = offices[next_office // WORKPLACE_KINDS["office"]["staff"]], rng.randint(23, 64)
                next_office += 1
            people.append(Resident(id=pid, name=name, age=age, role=role, home=house,
                                   bed=f"bed {k + 1}", work=work, traits=tuple(rng.sample(_TRAITS, 3))))
    _relate(people, rng)
    return sorted(people, key=lambda p: p.id), lots


def _relate(people: list[Resident], rng: random.Random) -> None:
    """Households know each other, co-workers know up to three colleagues, and everyone has friends."""
    by_home: dict[str, list[Resident]] = {}
    by_work: dict[str, list[Resident]] = {}
    for p in people:
        by_home.setdefault(p.home.name, []).append(p)
        if p.work is not None:
            by_work.setdefault(p.work.name, []).append(p)
    for p in people:
        known: dict[str, str] = {}
        for other in by_home[p.home.name]:
            if other is not p:
                known[other.id] = f"lives with me at {p.home.name}"
        if p.work is not None:
            mates = [o for o in by_work[p.work.name] if o is not p and o.id not in known]
            for other in rng.sample(mates, min(3, len(mates))):
                place = p.work.name
                known[other.id] = (f"studies with me at {place}" if p.role == "student"
                                   else f"works with me at {place}")
        for other in rng.sample(people, min(2, len(people))):
            if other is not p and other.id not in known:
                known[other.id] = "a friend I meet now and then"
        p.relationships = sorted(known.items())


def describe(r: Resident) -> dict[str, Any]:
    """The persona-file fields that describe who the resident is (background, lifestyle, emoji)."""
    kind = r.work.kind if r.work else "retiree"
    job = _JOB["baker" if r.role == "baker" else "student" if r.role == "student" else kind]
    job = job.format(place=r.work.name if r.work else "")
    first = r.name.split()[0]
    lifestyle = {
        "baker": f"{first} bakes through the night, sleeps from 7am to 3pm and spends the evening at home.",
        "student": f"{first} goes to bed around 11pm and gets up around 7:30am for classes.",
        "retiree": f"{first} goes to bed around 9:30pm, gets up at 7am and likes the park in the morning.",
    }.get(r.role, f"{first} goes to bed around 10pm and gets up around 6:30am.")
    if r.role == "staff" and kind == "pub":
        lifestyle = f"{first} works at the pub until 1am and sleeps until 9am."
    return {
        "emoji": _EMOJI["baker" if r.role == "baker" else "student" if r.role == "student"
                        else "office" if r.role == "office" else kind],
        "background": f"{r.name} is {r.age} years old and {job}. {first} lives at {r.home.name}.",
        "lifestyle": lifestyle,
    }
