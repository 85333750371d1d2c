"""town.realise: a memory's English written from its fields. Expected sentences are worked out by
hand from the rules in the module's docstring (person, tense, days, names, pronouns)."""

from datetime import datetime

from town.hearsay import depth
from town.memory.fact import Fact
from town.realise import asked, heard, place_name, quoted, statement

VIGIL = Fact(subject="Isabella Rodriguez", act="hold a candlelight vigil", place="the_ville:Johnson Park",
             start=datetime(2023, 2, 14, 19), end=datetime(2023, 2, 14, 20), host="Isabella Rodriguez",
             invited=("everyone",))
MON = datetime(2023, 2, 13, 9)


def test_a_heard_event_names_its_teller_once_then_her_pronoun_with_an_absolute_day():
    assert heard(VIGIL, [("Isabella Rodriguez", MON)], "Klaus Mueller", pronoun="she") == (
        "Isabella Rodriguez told me that she is holding a candlelight vigil at Johnson Park on Tuesday, "
        "February 14 from 7pm to 8pm, and everyone is welcome.")


def test_passed_on_it_is_one_level_deep_and_its_days_are_said_from_the_moment_of_speaking():
    """Maria heard it from Isabella after Ada told Isabella: the first teller only is named;
    said on Monday the 14th is "tomorrow", said on Wednesday it "was" "yesterday"."""
    tellers = [("Maria Lopez", MON), ("Ada", MON)]
    ahead = heard(VIGIL, tellers, "Klaus Mueller", now=MON)
    assert ahead == ("Maria Lopez told me that Isabella Rodriguez is holding a candlelight vigil at Johnson Park "
                     "tomorrow from 7pm to 8pm, and everyone is welcome.")
    assert depth(ahead) == 1
    assert heard(VIGIL, tellers, "Klaus Mueller", now=datetime(2023, 2, 15, 9)) == (
        "Maria Lopez told me that Isabella Rodriguez was holding a candlelight vigil at Johnson Park "
        "yesterday from 7pm to 8pm, and everyone was welcome.")


def test_the_holders_own_fact_is_in_the_first_person_and_facts_without_time_in_the_present():
    assert statement(VIGIL, "Isabella Rodriguez") == (
        "I am holding a candlelight vigil at Johnson Park on Tuesday, February 14 from 7pm to 8pm, "
        "and everyone is welcome")
    paper = Fact(subject="Klaus Mueller", act="write a research paper")
    assert statement(paper, "Maria Lopez") == "Klaus Mueller writes a research paper"
    assert statement(paper, "Klaus Mueller") == "I write a research paper"
    jazz = Fact(act="be a jazz night", place="w:The Pub", start=datetime(2023, 2, 13, 20))
    assert heard(jazz, [], "Ann Able") == "There is a jazz night at The Pub on Monday, February 13 at 8pm."
    noon = Fact(subject="Ann Able", act="invite Bob", start=datetime(2023, 2, 13, 12), end=datetime(2023, 2, 13, 13, 30),
                invited=("Bob Brown",))
    assert statement(noon, "Bob Brown") == "Ann Able is inviting Bob on Monday, February 13 from noon to 1:30pm, and I am invited"


def test_a_room_is_said_as_part_of_its_building_unless_the_building_or_its_own_name_says_it():
    """Before: "there is a free bike repair stall at library" (the address's last part alone)."""
    assert place_name("the_ville:Oak Hill College:library") == "the library of Oak Hill College"
    assert place_name("the_ville:Hobbs Cafe:cafe") == "Hobbs Cafe"
    assert place_name("the_ville:Dorm for Oak Hill College:Klaus Mueller's room") == "Klaus Mueller's room"
    assert place_name("the_ville:Johnson Park") == "Johnson Park"
    stall = Fact(act="be a free bike repair stall", place="the_ville:Oak Hill College:library",
                 start=datetime(2023, 2, 16, 15), end=datetime(2023, 2, 16, 17))
    assert statement(stall, "Klaus Mueller", now=MON) == ("there is a free bike repair stall at the library of Oak Hill "
                                                          "College on Thursday from 3pm to 5pm")


def test_what_there_is_agrees_with_its_noun():
    """Before: "there is free flu shots at ..."; a thing told with "the" is said as itself, not
    "there is the pub quiz ..." (a fresh user counted eight in one Smallville run)."""
    shots = Fact(act="be free flu shots", place="w:Pharmacy", start=datetime(2023, 2, 15, 10), end=datetime(2023, 2, 15, 14))
    assert statement(shots, "Ann Able").startswith("there are free flu shots at Pharmacy on Wednesday")
    assert statement(Fact(act="be the news", place="w:Pub", start=datetime(2023, 2, 15, 10)), "Ann Able").startswith(
        "the news is at Pub on Wednesday")
    assert statement(Fact(act="be the free flu shots", place="w:Pharmacy", start=datetime(2023, 2, 15, 10),
                          host="Ann Able"), "Bob Brown") == (
        "the free flu shots, hosted by Ann Able, are at Pharmacy on Wednesday, February 15 at 10am")
    assert statement(Fact(act="be the news"), "Ann Able") == "there is the news"  # no place, no time: nothing to be at


def test_a_line_with_no_fact_is_quoted_as_said():
    line = "We are starting a running club; you should join us!"
    assert quoted("Klaus Mueller", line) == 'Klaus Mueller said to me: "We are starting a running club; you should join us!"'
    assert asked("Klaus Mueller", " Are you coming? ") == "Klaus Mueller asked me: Are you coming?"


def test_a_scripted_speaker_passes_a_heard_event_on_from_its_fields_not_its_words():
    """Klaus retells what Maria told him: the view's words are deliberately other words, so the
    line can only come from the fact and the first teller; said on 13 Feb, the 14th is "tomorrow"."""
    from town.scripted.reply import retell
    from town.thinking.views import MemoryView

    view = MemoryView(id=1, content="Words that are not read back.", kind="chat", importance=6,
                      created="2023-02-13 08:00:00", fact=VIGIL, tellers=("Maria Lopez", "Ada"))
    assert retell(view, MON, "Klaus Mueller") == (
        "Maria told me that Isabella Rodriguez is holding a candlelight vigil at Johnson Park tomorrow "
        "from 7pm to 8pm, and everyone is welcome.")


def test_a_teller_telling_their_own_event_is_named_once_then_a_pronoun():
    """Ayesha tells her own poetry reading: "she" with her pronoun, "they are" (verb agreeing)
    without one, never "Ayesha told me that Ayesha is ..."."""
    from datetime import datetime as dt

    from town.memory.fact import Fact
    from town.realise import heard

    fact = Fact(subject="Ayesha Khan", act="host a poetry reading", place="v:Hobbs Cafe", start=dt(2023, 2, 14, 15),
                end=dt(2023, 2, 14, 16), host="Ayesha Khan")
    told_on = dt(2023, 2, 13, 9)
    assert heard(fact, [("Ayesha", told_on)], "Tom Moreno") == (
        "Ayesha told me that they are hosting a poetry reading at Hobbs Cafe on Tuesday, February 14 from 3pm to 4pm.")
    assert heard(fact, [("Ayesha Khan", told_on)], "Tom Moreno", pronoun="she") == (
        "Ayesha Khan told me that she is hosting a poetry reading at Hobbs Cafe on Tuesday, February 14 from 3pm to 4pm.")
    assert heard(fact, [("Jane", told_on)], "Tom Moreno", pronoun="she") == (
        "Jane told me that Ayesha Khan is hosting a poetry reading at Hobbs Cafe on Tuesday, February 14 from 3pm to 4pm.")
