"""What people are seen doing is what they do, in their own role, over whole runs.

Smallville and the_ville, 36 game hours each (scripted backend, the session's runs). An object
used two ways (the vocabulary's staff use and guest use, ``town.world.objects``: a counter is
served at by staff and ordered at by guests) must be used, and seen used, in the way of the
person's own role there. The role is read here from the persona files' backgrounds, apart from
the engine's rule (which reads routines): whoever "owns" or "runs" a place is its staff, anyone
else a guest. By hand from those files: Smallville's Hobbs Cafe is Isabella Rodriguez's, The Rose
and Crown Pub Arthur Burton's, Harvey Oak Supply Store Carmen Ortiz's, The Willows Market and
Pharmacy John Lin's and Tom Moreno's; the_ville's Hobbs Cafe Isabella Rodriguez's.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

import pytest
import yaml

from town.events import EventKind
from town.recording import RunReader
from town.world.objects import act_of, use_of

REPO = Path(__file__).resolve().parents[2]

#: place -> its staff, worked out by hand from the persona files (the module's docstring).
STAFF = {
    "smallville": {"Hobbs Cafe": {"isabella_rodriguez"}, "The Rose and Crown Pub": {"arthur_burton"},
                   "Harvey Oak Supply Store": {"carmen_ortiz"},
                   "The Willows Market and Pharmacy": {"john_lin", "tom_moreno"}},
    "the_ville": {"Hobbs Cafe": {"isabella_rodriguez"}},
}

#: "Maria Lopez is ordering at the counter (buy coffee) at the counter of the cafe in Hobbs Cafe."
_SEEN = re.compile(r"^(?P<name>.+?) is (?P<doing>.+) at the (?P<object>[^:]+?) of the (?P<arena>.+?) in (?P<sector>.+)\.$")


def _staff_by_reading(town: str) -> dict[str, set[str]]:
    """place -> personas whose background says they own or run it (the files, read again)."""
    out: dict[str, set[str]] = {}
    for path in sorted((REPO / "personas" / town).glob("*.yaml")):
        spec = yaml.safe_load(path.read_text())
        if not isinstance(spec, dict) or "background" not in spec:
            continue
        for place in STAFF[town]:
            if re.search(rf"\b(?:owns|runs)\b[^.]*\b{re.escape(place)}\b", spec["background"]):
                out.setdefault(place, set()).add(path.stem)
    return out


def _role_fault(pid: str, sector: str, obj: str, said: str, town: str, *, ongoing: bool) -> str | None:
    """Why ``said`` (a step's words, or its ongoing form when ``ongoing``) at ``obj`` in
    ``sector`` is another role's act for ``pid``, or None."""
    use = use_of(obj)
    staff = STAFF[town].get(sector)
    if not use.guest or staff is None:
        return None  # one use for everyone, or a place nobody works at (a home)
    mine, theirs = (use.doing, use.guest_doing) if ongoing else (use.verb, use.guest)
    if pid not in staff:
        mine, theirs = theirs, mine
    if said.startswith(theirs) and not said.startswith(mine):
        return f"{pid} ({'staff' if pid in staff else 'a guest'} at {sector}): {said!r} is the other role's"
    return None


@pytest.fixture(scope="module", params=["smallville", "the_ville"])
def run(request):
    """(town, reader) of the session's 36 h run of that town."""
    path = request.getfixturevalue("smallville_run" if request.param == "smallville" else "party_run")
    with RunReader(path) as reader:
        yield request.param, reader


def test_the_staff_table_is_what_the_persona_files_say():
    """The hand-made table of who works where is what the backgrounds say ("owns", "runs")."""
    for town in STAFF:
        assert _staff_by_reading(town) == STAFF[town]


def test_no_one_is_seen_doing_another_roles_act_nor_anything_but_their_own(run):
    """Every observation of another persona (after tick 0: perception) says what that persona's
    own action was as the tick began (its last ACTION before the tick): the same object and place,
    and the ongoing form of that action's own verb (the staff's or the guest's, never the object's
    other use); and none says a guest serves, brews, washes up or rings up purchases at a place it
    does not work at, nor its staff orders or pays at their own counter."""
    town, reader = run
    actions: dict[str, list] = {}
    for e in reader.events(kinds=[EventKind.ACTION]):
        actions.setdefault(e.persona, []).append(e)
    ticks = {pid: [e.tick for e in acts] for pid, acts in actions.items()}
    seen = faults = 0
    problems: list[str] = []
    for e in reader.events(kinds=[EventKind.MEMORY]):
        m = e.data
        if m["kind"] != "observation" or e.tick == 0 or m.get("subject") in (None, e.persona):
            continue
        other = m["subject"]
        i = bisect.bisect_left(ticks[other], e.tick) - 1
        assert i >= 0, f"{m['content']!r}: {other} had no action before tick {e.tick}"
        action = actions[other][i].data
        _, sector, arena, obj = action["address"].split(":")
        seen += 1
        written = f" is at the {obj} of the {arena} in {sector}: {act_of(action['description'])}."
        if m["content"].endswith(written):  # a step in words the vocabulary did not write
            continue
        said = _SEEN.match(m["content"])
        if said is None or (said["object"], said["arena"], said["sector"]) != (obj, arena, sector):
            problems.append(f"tick {e.tick}: {m['content']!r} is not {other}'s {action}")
            continue
        use = use_of(obj)
        verb = next((v for v in (use.verb, use.guest) if v and action["description"].startswith(v)), None)
        if verb is not None:
            own = use.doing if verb == use.verb else use.guest_doing
            if not said["doing"].startswith(own):
                problems.append(f"tick {e.tick}: {m['content']!r} but {other} does {action['description']!r}")
        fault = _role_fault(other, sector, obj, said["doing"], town, ongoing=True)
        if fault:
            faults += 1
            problems.append(f"tick {e.tick}: {m['content']!r}: {fault}")
    assert seen > (200 if town == "smallville" else 20)
    assert not problems, f"{len(problems)} of {seen} observations ({faults} of another role), e.g. {problems[:5]}"


def test_no_one_does_another_roles_act(run):
    """No ACTION of the run is the other role's use of a two-use object: a guest never serves at,
    brews at, washes up at or rings up at a place it does not work at; the staff never order or
    pay at their own. Each role's acts occur (the check is not empty)."""
    town, reader = run
    problems, used = [], set()
    for e in reader.events(kinds=[EventKind.ACTION]):
        address = e.data["address"]
        if e.data["kind"] != "do" or address.count(":") != 3:
            continue
        sector, obj = address.split(":")[1], address.split(":")[3]
        fault = _role_fault(e.persona, sector, obj, e.data["description"], town, ongoing=False)
        if fault:
            problems.append(f"tick {e.tick}: {fault}")
        elif use_of(obj).guest and sector in STAFF[town]:
            used.add("staff" if e.persona in STAFF[town][sector] else "guest")
    assert used == {"staff", "guest"}
    assert not problems, f"{len(problems)} actions of another role, e.g. {problems[:5]}"
