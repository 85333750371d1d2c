"""The reader of typed text (:func:`town.reading.read_fact`): what it takes as an open invitation."""

from datetime import datetime

import pytest

from town.reading import read_fact

PLACES = {"hobbs cafe": "v:Hobbs Cafe"}
NAMES = ["Isabella Rodriguez", "Tom Moreno"]
MONDAY = datetime(2023, 2, 13, 8)


@pytest.mark.parametrize("tail, open_", [
    ("and I want to invite everyone.", True),   # the seeded party's own words
    ("anyone can come.", True),
    ("everyone is welcome.", True),
    ("it is open to all.", True),
    ("and I will invite all of my friends.", False),  # named guests, not everyone
    ("and I will invite my sister.", False),
    ("everyone knows the cafe.", False),
])
def test_an_open_invitation_is_read_in_its_usual_words_and_only_those(tail, open_):
    """Each sentence, read by hand: only the ones inviting everyone are open invitations."""
    fact = read_fact(f"I am planning a quiz at Hobbs Cafe tomorrow from 5pm to 7pm, {tail}", MONDAY, PLACES, NAMES,
                     "Isabella Rodriguez")
    assert fact is not None and fact.place == "v:Hobbs Cafe" and fact.start == datetime(2023, 2, 14, 17)
    assert fact.open_invitation is open_


def test_a_first_person_possessive_is_kept_as_the_subjects_and_said_in_each_holders_person():
    """"my comedy show", announced by Francisco, is his own: the fact keeps "one's"; he says "my",
    a listener told by him says "his" (his pronoun), one told by someone else "their" (no pronoun
    known), and a plan block says it of its persona ("their")."""
    from town.realise import heard, statement
    from town.thinking.dayplan import fact_block, fact_event

    places = {"the rose and crown pub": "v:The Rose and Crown Pub"}
    fact = read_fact("I'm running an open rehearsal of my comedy show at The Rose and Crown Pub tomorrow from noon "
                     "to 1pm.", MONDAY, places, ["Francisco Lopez"], "Francisco Lopez")
    assert fact is not None and fact.act == "run an open rehearsal of one's comedy show"
    assert statement(fact, "Francisco Lopez").startswith("I am running an open rehearsal of my comedy show at")
    assert heard(fact, [("Francisco Lopez", MONDAY)], "Ann", pronoun="he").startswith(
        "Francisco Lopez told me that he is running an open rehearsal of his comedy show at")
    assert heard(fact, [("Tom", MONDAY)], "Ann", pronoun="he").startswith(
        "Tom told me that Francisco Lopez is running an open rehearsal of their comedy show at")
    event = fact_event(fact, places)
    assert event is not None
    assert fact_block(fact, event, "Ann") == "go to The Rose and Crown Pub (Francisco Lopez: run an open rehearsal of " \
                                             "their comedy show)"


@pytest.mark.parametrize("text, own, subject, act, question", [
    # the benchmark's question phrasing: "it" is what the invitation asks one to come to
    ("Would you like to come to a poetry reading at Hobbs Cafe tomorrow from 3pm to 4pm? Ayesha Khan is hosting it "
     "and everyone is welcome.", "Tom Moreno", "Ayesha Khan", "host a poetry reading", False),
    ("Will you come to a bake sale for the food bank at Hobbs Cafe on Tuesday from 10:30am to 11:30am? Tom Moreno is "
     "organising it.", "Ayesha Khan", "Tom Moreno", "organise a bake sale for the food bank", False),
    # no one named: there is such a thing; and it stays a question
    ("Would you like to come to a quiz at Hobbs Cafe tomorrow at 7pm?", "Tom Moreno", None, "be a quiz", True),
])
def test_an_invitation_put_as_a_question_is_read_as_what_it_invites_to(text, own, subject, act, question):
    """Worked out by hand from each sentence: who hosts, what the thing is, and whether it asks."""
    fact = read_fact(text, MONDAY, PLACES, ["Ayesha Khan", "Tom Moreno"], own)
    assert (fact.subject, fact.act, fact.question, fact.place) == (subject, act, question, "v:Hobbs Cafe")


def test_a_start_alone_is_kept_without_a_made_up_end():
    """"at 7pm" states a start only: the fact has no end, and the realiser says "at 7pm"."""
    from town.realise import statement

    fact = read_fact("Would you like to come to a quiz at Hobbs Cafe tomorrow at 7pm?", MONDAY, PLACES, [], "Tom Moreno")
    assert fact.start == datetime(2023, 2, 14, 19) and fact.end is None
    assert statement(fact, "Tom Moreno") == "there is a quiz at Hobbs Cafe on Tuesday, February 14 at 7pm"
