"""The three-persona party run (36 game hours): activity floor, provenance and the party."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime

import pytest

from town.analysis.moments import minutes_at
from town.analysis.provenance import heard_via_conversation
from town.events import EventKind
from town.hearsay import depth
from town.recording import RunReader

PERSONAS = ("isabella_rodriguez", "klaus_mueller", "maria_lopez")
NAMES = {"isabella_rodriguez": "Isabella Rodriguez", "klaus_mueller": "Klaus Mueller",
         "maria_lopez": "Maria Lopez"}


@pytest.fixture(scope="module")
def reader(party_run):
    """A reader on the session's party run."""
    with RunReader(party_run) as r:
        yield r


def test_run_covers_13_feb_0700_to_14_feb_1900(reader):
    """36 game hours at 10 s per tick are ticks 0..12959 (12,960 frames)."""
    assert (reader.first_tick, reader.last_tick) == (0, 12959)
    assert reader.frame(12959)["time"].startswith("2023-02-14 18:59:50")


def test_awake_personas_start_an_action_at_least_every_15_game_minutes(reader):
    """Between two action starts of an awake persona there are at most 90 ticks (15 min)."""
    for pid in PERSONAS:
        actions = reader.events(kinds=[EventKind.ACTION], persona=pid)
        assert len(actions) > 100
        for before, after in zip(actions, actions[1:]):
            if before.data["kind"] == "sleep":
                continue
            assert after.tick - before.tick <= 90, (pid, before.data, after.data)
        assert reader.last_tick - actions[-1].tick <= 90 or actions[-1].data["kind"] == "sleep"


def test_every_decision_and_line_follows_a_retrieval_of_the_same_persona(reader):
    """ACTION.decision and CHAT.retrieval name an earlier RETRIEVAL event of that persona."""
    retrievals = {e.seq: e for e in reader.events(kinds=[EventKind.RETRIEVAL])}
    actions = reader.events(kinds=[EventKind.ACTION])
    chats = reader.events(kinds=[EventKind.CHAT])
    assert actions and chats
    for e, key in [(a, "decision") for a in actions] + [(c, "retrieval") for c in chats]:
        r = retrievals.get(e.data[key])
        assert r is not None, e
        assert r.persona == e.persona and r.seq < e.seq
        # The retrieval's trace is complete: it can be read back with its candidates.
    trace = reader.retrieval(chats[0].data["retrieval"])
    assert trace["candidates"] and trace["n_scored"] >= len(trace["returned"])


def test_each_persona_reflects_and_three_conversations_happen(reader):
    """Each persona reflects at least once; at least 3 conversations take place."""
    reflections = defaultdict(int)
    for e in reader.events(kinds=[EventKind.REFLECTION]):
        reflections[e.persona] += 1
        assert e.data["insights"] and all(i["evidence"] for i in e.data["insights"])
    assert all(reflections[p] >= 1 for p in PERSONAS), dict(reflections)
    assert len(reader.events(kinds=[EventKind.CONVERSATION])) >= 3


#: The seeded memory's wording of the party: place, day and time, as a reader finds them.
STATES_PARTY = re.compile(r"Hobbs Cafe.*(February 14|Tuesday).*5 ?pm to 7 ?pm", re.I | re.S)


def _cited_party_blocks(reader, pid: str) -> list[dict]:
    """Blocks of ``pid``'s 14 Feb day plans at Hobbs Cafe 17:00-19:00 whose evidence is among the
    ids the plan's retrieval returned and includes a memory whose text states the party."""
    texts = {m["id"]: m["content"] for m in reader.memories(pid)}
    out = []
    for e in reader.events(kinds=[EventKind.PLAN], persona=pid):
        if e.data["level"] != "day" or e.data["date"] != "2023-02-14":
            continue
        returned = set(reader.retrieval(e.data["retrieval"])["returned"])
        for item in e.data["items"]:
            if (item["place"].startswith("the_ville:Hobbs Cafe") and item["start"] == "2023-02-14 17:00:00"
                    and item["end"] == "2023-02-14 19:00:00" and item["evidence"]
                    and set(item["evidence"]) <= returned
                    and any(STATES_PARTY.search(texts[i]) for i in item["evidence"])):
                out.append(item)
    return out


def test_party_news_reaches_a_student_who_plans_it_and_comes(reader):
    """Klaus or Maria heard of the party in a conversation (traceable chat + memory), has a
    plan for 14 Feb holding Hobbs Cafe 17:00-19:00 whose PLAN event cites a retrieval that
    returned a memory stating it, and spent >= 30 game minutes in Hobbs Cafe in that window."""
    heard = heard_via_conversation(reader, "party")
    at_party = minutes_at(reader, "the_ville:Hobbs Cafe", datetime(2023, 2, 14, 17), datetime(2023, 2, 14, 19))
    chats = reader.events(kinds=[EventKind.CHAT])
    winners = []
    for pid in ("klaus_mueller", "maria_lopez"):
        for m in heard.get(pid, []):
            speaker, original = m["source"]
            chat = [c for c in chats if c.data["conversation"] == m["conversation"]
                    and c.data["speaker"] == speaker and original in c.data["shared"]]
            assert chat and chat[0].seq < m["seq"], m
            # The memory holds what was said, one level of hearsay: who told it, then the fact it
            # understood, or (no fact understood) the line as said, quoted.
            told, said = f"{NAMES[speaker]} told me that ", f'{NAMES[speaker]} said to me: "'
            assert m["content"].startswith((told, said)) and m["content"].count(" said to me: ") <= 1, m
            assert depth(m["content"]) == m["content"].startswith(told), m
        if heard.get(pid) and _cited_party_blocks(reader, pid) and at_party[pid] >= 30:
            winners.append(pid)
    assert winners, (heard.keys(), at_party)


def test_guests_at_the_party_stay_out_of_the_cafes_kitchen(reader):
    """Guests at Isabella's party "cooked" at the kitchen stove, "checked the fridge" and sat at the
    kitchen prep table of Hobbs Cafe. A guest (neither living nor working there) uses no object of
    a room holding a private one (:func:`town.world.objects.for_guests`): Klaus and Maria act in the
    cafe room only between 17:00 and 19:00; Isabella, its owner, may use her kitchen."""
    for pid in ("klaus_mueller", "maria_lopez"):
        at = [e.data["address"] for e in reader.events(kinds=[EventKind.ACTION], persona=pid)
              if datetime(2023, 2, 14, 17) <= e.time < datetime(2023, 2, 14, 19) and "Hobbs Cafe" in e.data["address"]]
        assert at, pid
        assert not [a for a in at if ":kitchen" in a], (pid, sorted(set(at)))
