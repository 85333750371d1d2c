"""The reader of typed text (:func:`town.reading.read_fact`): what it takes as an open invitation."""

from datetime import datetime

import pytest

from town.reading import read_fact
from town.realise import statement
from town.textevent import find_event, place_names

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
    assert fact_block(fact, event, "Ann") == ("go to Francisco Lopez's open rehearsal of their comedy show at The Rose "
                                              "and Crown Pub")


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


SMALLVILLE_LIKE = {"hobbs cafe": "v:Hobbs Cafe", "library": "v:Oak Hill College:library", "garden": "v:Johnson Park:garden",
                   "harvey oak supply store": "v:Harvey Oak Supply Store"}


@pytest.mark.parametrize("text, own, subject, act, host, place", [
    # the place something is "at", not a place named on the way ("for the library", "on garden tools")
    ("I'm running a fundraiser breakfast for the library at Hobbs Cafe on February 14 from 9am to 10am.", "Sam Moore",
     "Sam Moore", "run a fundraiser breakfast for the library", "Sam Moore", "v:Hobbs Cafe"),
    ("I'm holding a half-price sale on garden tools at Harvey Oak Supply Store tomorrow from 10:30am to 11:30am.",
     "Carmen Ortiz", "Carmen Ortiz", "hold a half-price sale on garden tools", "Carmen Ortiz",
     "v:Harvey Oak Supply Store"),  # "on" before no day keeps the sale's goods
    # a contracted perfect: the verb after "I've"
    ("I've set up an afternoon of lantern-making at Harvey Oak Supply Store on Tuesday from 3pm to 4pm, open to all.",
     "Latoya Williams", "Latoya Williams", "set up an afternoon of lantern-making", "Latoya Williams",
     "v:Harvey Oak Supply Store"),
    # "there will be" a thing, and the one named beside it hosts it
    ("There will be a fundraiser breakfast for the library at Hobbs Cafe on February 14 from 9am to 10am, hosted by "
     "Sam Moore.", "Tom Moreno", None, "be a fundraiser breakfast for the library", "Sam Moore", "v:Hobbs Cafe"),
    ("Can you make it to a fundraiser breakfast for the library at Hobbs Cafe on February 14 from 9am to 10am? Sam "
     "Moore hopes everyone comes.", "Tom Moreno", None, "be a fundraiser breakfast for the library", "Sam Moore",
     "v:Hobbs Cafe"),
    # "I" after the time it is at; a clock time's "am" is no verb; a verb's particle kept
    ("Tomorrow from 9am to 10am I'm hosting a piano recital at Hobbs Cafe; please tell people.", "Sam Moore",
     "Sam Moore", "host a piano recital", "Sam Moore", "v:Hobbs Cafe"),
    ("I've set up a blood drive at Hobbs Cafe on Tuesday from 10:30am to 11:30am, open to all.", "Sam Moore",
     "Sam Moore", "set up a blood drive", "Sam Moore", "v:Hobbs Cafe"),
    ("I'm putting on a potluck lunch at Hobbs Cafe on February 14 from noon to 1pm and I'd love a crowd.", "Sam Moore",
     "Sam Moore", "put on a potluck lunch", "Sam Moore", "v:Hobbs Cafe"),
    # no article before the thing; "coming to"
    ("How about coming to auditions for a radio play at Hobbs Cafe on February 14 from 9am to 10am? Sam Moore is "
     "running them.", "Tom Moreno", None, "be auditions for a radio play", "Sam Moore", "v:Hobbs Cafe"),
    # someone of one's own outside the town does it (not the "I" of the later clause): what there
    # is, told as "there is ..."; the act ends at "behind" the place
    ("My cousin is running a free bike repair stall behind the college library on Thursday from 3pm to 5pm, and I "
     "should bring friends.", "Tom Moreno", None, "be a free bike repair stall", None, "v:Oak Hill College:library"),
    ("Our neighbours are setting up a plant swap near the garden on Saturday from 10am to noon.", "Tom Moreno", None,
     "be a plant swap", None, "v:Johnson Park:garden"),
    ("My friend Sam Moore is hosting a quiz at Hobbs Cafe on Friday at 8pm.", "Tom Moreno", "Sam Moore",
     "host a quiz", "Sam Moore", "v:Hobbs Cafe"),
    # a place does it, its thing without an article: what there is
    ("Tell people Hobbs Cafe is hosting trivia on Saturday at 9pm.", "Tom Moreno", None, "be trivia", None,
     "v:Hobbs Cafe"),
    # meaning to do a thing at a time: the thing done then, not "wanting" then
    ("Sam Moore wants to start a book club at the library next Monday at 6pm.", "Tom Moreno", "Sam Moore",
     "start a book club", "Sam Moore", "v:Oak Hill College:library"),
    ("I've decided to organise a picnic in the garden on Sunday at noon.", "Tom Moreno", "Tom Moreno",
     "organise a picnic", "Tom Moreno", "v:Johnson Park:garden"),
    # what one heard is what is stated (before: the act "hear that Hobbs Cafe will give away ...")
    ("I heard that Hobbs Cafe will give away free coffee on Wednesday morning from 8 to 10.", "Tom Moreno", None,
     "be free coffee", None, "v:Hobbs Cafe"),
    # invited to a thing (before: the act "invite to a karaoke night", no one to say it of)
    ("Everyone is invited to a karaoke night at Hobbs Cafe on Thursday at 9pm!", "Tom Moreno", None,
     "be a karaoke night", None, "v:Hobbs Cafe"),
])
def test_an_event_is_read_with_its_host_and_the_place_it_is_at(text, own, subject, act, host, place):
    """Each sentence of the events benchmark's sets that an earlier reader got wrong, and whispers tried by
    hand, read by hand."""
    fact = read_fact(text, MONDAY, SMALLVILLE_LIKE, ["Sam Moore", "Carmen Ortiz", "Latoya Williams", "Tom Moreno"], own)
    assert (fact.subject, fact.act, fact.host, fact.place) == (subject, act, host, place)


def test_a_hosted_thing_is_said_as_its_hosts_own_and_as_news_to_others():
    """"There will be a breakfast ..., hosted by Sam Moore": Sam says "I am hosting", Tom "there is
    ..., hosted by Sam Moore,", and their plan blocks name the thing, not "be"."""
    from town.realise import statement
    from town.thinking.dayplan import fact_block, fact_event

    fact = read_fact("There will be a fundraiser breakfast at Hobbs Cafe tomorrow from 9am to 10am, hosted by Sam Moore.",
                     MONDAY, SMALLVILLE_LIKE, ["Sam Moore"], "Tom Moreno")
    assert statement(fact, "Sam Moore").startswith("I am hosting a fundraiser breakfast at Hobbs Cafe on Tuesday")
    assert statement(fact, "Tom Moreno").startswith("there is a fundraiser breakfast, hosted by Sam Moore, at Hobbs Cafe")
    event = fact_event(fact, SMALLVILLE_LIKE)
    assert fact_block(fact, event, "Sam Moore") == "host a fundraiser breakfast at Hobbs Cafe"
    assert fact_block(fact, event, "Tom Moreno") == "go to Hobbs Cafe for a fundraiser breakfast"


def test_a_relative_clause_ends_the_act_so_its_own_subject_and_stranded_preposition_stay_out():
    """Sam Moore's persona file says "I will announce my run for mayor to anyone who asks what I
    am up to." Read by hand, the act is "announce one's run for mayor": "who asks what I am up
    to" is a clause of its own, whose "I" (Sam) would be the wrong person in another's memory,
    and an act ending "up to" reads as text broken off (the writing checks reject it); "to
    anyone" without that clause is half a phrase ("Sam announces his run for mayor to anyone"
    was said in chat), so it goes with it."""
    import yaml
    from pydantic import BaseModel

    from town.scenario.load import TOWNS_DIR
    from town.thinking.questions.writing import not_filler

    class Kept(BaseModel):
        act: str

    persona = yaml.safe_load((TOWNS_DIR / "smallville" / "sam_moore.yaml").read_text())
    said = next(m["content"] for m in persona["memories"] if "anyone who asks" in m["content"])
    fact = read_fact(said, MONDAY, PLACES, ["Sam Moore", "Jennifer Moore"], "Sam Moore")
    assert fact is not None and fact.subject == "Sam Moore"
    assert fact.act == "announce one's run for mayor"
    not_filler(None, Kept(act=fact.act), "")  # raises on an act that reads as broken off


def test_only_whom_a_cut_relative_clause_restricts_is_left_out_of_the_act():
    """Read by hand: "to everyone who comes" goes with its clause ("give free coffee"); "to
    Klaus, who ..." is a person and stays; "help anyone who asks" keeps its object (no
    preposition before it: a verb's object is not half a phrase)."""
    names = ["Sam Moore", "Klaus Mueller"]
    assert read_fact("I will give free coffee to everyone who comes by.", MONDAY, PLACES, names,
                     "Sam Moore").act == "give free coffee"
    assert read_fact("I will lend my ladder to Klaus, who asked for it.", MONDAY, PLACES, names,
                     "Sam Moore").act == "lend one's ladder to Klaus"
    assert read_fact("I will help anyone who asks.", MONDAY, PLACES, names, "Sam Moore").act == "help anyone"


def test_a_colon_ends_the_act_before_the_list_it_opens():
    # Isabella's file: the list after the colon is not the act; "red paper hearts" alone was
    # retold second-hand as if it were what she wants.
    fact = read_fact("I want the Valentine's Day party to feel warm: red paper hearts, hot chocolate and music.",
                     datetime(2023, 2, 13, 7), {}, ["Isabella Rodriguez"], "Isabella Rodriguez")
    assert fact is not None and fact.act == "want the Valentine's Day party to feel warm"


def test_an_adverb_between_i_and_the_verb_leaves_the_verb_the_act():
    """Klaus's line "The paper is due at the end of the month and I still need more sources." was
    read as the act "source" ("still need" was passed over for the plural "sources"), and Maria
    passed it on as "he sources"."""
    fact = read_fact("The paper is due at the end of the month and I still need more sources.", MONDAY, PLACES, NAMES,
                     "Tom Moreno")
    assert (fact.subject, fact.act) == ("Tom Moreno", "need more sources")
    fact = read_fact("Isabella Rodriguez still needs more chairs.", MONDAY, PLACES, NAMES, "Tom Moreno")
    assert (fact.subject, fact.act) == ("Isabella Rodriguez", "need more chairs")


def test_an_hour_without_am_or_pm_is_read_beside_a_part_of_the_day():
    """Before: "Remind everyone that the library is showing a film on Friday night at 8." stated
    no time, so no event: its fact was the act "show a film", with no one to say it of."""
    from datetime import time

    from town.textevent import stated_times

    assert stated_times("on Friday night at 8")[:2] == (time(20, 0), None)
    assert stated_times("tomorrow morning at 9:30")[:2] == (time(9, 30), None)
    assert stated_times("at 7 in the evening")[:2] == (time(19, 0), None)
    assert stated_times("on Wednesday morning from 8 to 10")[:2] == (time(8, 0), time(10, 0))
    assert stated_times("this evening from 6 to 8")[:2] == (time(18, 0), time(20, 0))
    for alone in ("at 8", "at 8 o'clock", "at 12 tonight", "I have 3 cats this morning", "from 8 to 10",
                  "this evening from 9 to 7"):
        assert stated_times(alone) is None, alone
    fact = read_fact("Remind everyone that the library is showing a film on Friday night at 8.", MONDAY,
                     SMALLVILLE_LIKE, NAMES, "Tom Moreno")
    assert (fact.act, fact.place, fact.start) == ("be a film", "v:Oak Hill College:library", datetime(2023, 2, 17, 20))


def test_a_building_is_found_by_the_shorter_names_people_call_it():
    """Before: "Tell everyone the market is giving away free flowers on Wednesday morning from 9 to
    11." named no place (only "the willows market and pharmacy" whole), so it was no event and
    weighed 3: told to Tom, it never spread. Worked by hand from the names: "market" is only The
    Willows Market's last word; "college" only Oak Hill College's ("Dorm for Oak Hill College"
    is "dorm"); "house", every family's, says none; a name right before another is that other's
    ("the college library" is the library)."""
    from town.textevent import place_names

    names = place_names(("v:The Willows Market and Pharmacy", "v:Oak Hill College", "v:Oak Hill College:library",
                         "v:Dorm for Oak Hill College", "v:Lin family's house", "v:Moore family's house",
                         "v:The Rose and Crown Pub"))
    assert names["market"] == names["willows market"] == "v:The Willows Market and Pharmacy"
    assert (names["college"], names["dorm"], names["pub"]) == ("v:Oak Hill College", "v:Dorm for Oak Hill College",
                                                              "v:The Rose and Crown Pub")
    assert "house" not in names and "pharmacy" not in names
    fact = read_fact("Tell everyone the market is giving away free flowers on Wednesday morning from 9 to 11.", MONDAY,
                     names, NAMES, "Tom Moreno")
    assert (fact.act, fact.place, fact.start) == ("be free flowers", "v:The Willows Market and Pharmacy",
                                                  datetime(2023, 2, 15, 9))
    stall = read_fact("There is a stall behind the college library on Thursday at 3pm.", MONDAY, names, NAMES)
    assert stall.place == "v:Oak Hill College:library"



@pytest.mark.parametrize("text", [
    "The oven at Hobbs Cafe broke.",  # closed "all day on Wednesday" it is a closure (a test below)
    "The pub is shut tomorrow night for a private function.",
    "Hobbs Cafe is busy.",
])
def test_a_state_of_no_one_at_no_time_makes_no_fact(text):
    """A whisper a user typed was read as the act "break", with no subject, place or time, and
    Isabella answered "What happened to the oven?" with "Break."; "The pub is shut" was said as
    "there is shut". Done by no one of the town, such a text states no act of anyone and no
    thing there is: no fact, and the memory keeps its words."""
    assert read_fact(text, MONDAY, PLACES, NAMES, "Isabella Rodriguez") is None


@pytest.mark.parametrize("text, act", [
    ("There will be a storm tomorrow.", "be a storm"),
    ("There's live music at the pub tonight.", "be live music"),
    ("There is karaoke at Hobbs Cafe on Friday at 9pm.", "be karaoke"),
])
def test_a_thing_there_is_stays_a_fact(text, act):
    """What there is, named by a noun phrase or a word the dictionary lacks, is a fact of no one."""
    fact = read_fact(text, MONDAY, PLACES, NAMES, "Isabella Rodriguez")
    assert fact is not None and fact.subject is None and fact.act == act


def test_an_event_planned_at_its_time_is_hosted_in_the_plan_block():
    """Isabella's own seeded words "I am planning a Valentine's Day party at Hobbs Cafe on February
    14, 2023, from 5pm to 7pm" put "17:00 plan a Valentine's Day party at Hobbs Cafe" in her plan
    for the 14th: at 5pm she hosts it. The fact keeps what was said ("plan ..."); the block is the
    party, for her and for a guest."""
    from town.thinking.dayplan import fact_block, fact_event

    text = "I am planning a Valentine's Day party at Hobbs Cafe on February 14, 2023, from 5pm to 7pm."
    fact = read_fact(text, MONDAY, PLACES, NAMES, "Isabella Rodriguez")
    assert fact is not None and fact.act == "plan a Valentine's Day party"
    event = fact_event(fact, PLACES)
    assert event is not None and event.start == datetime(2023, 2, 14, 17)
    assert fact_block(fact, event, "Isabella Rodriguez") == "host a Valentine's Day party at Hobbs Cafe"
    assert fact_block(fact, event, "Tom Moreno") == "go to Isabella Rodriguez's Valentine's Day party at Hobbs Cafe"


def test_a_block_for_someone_elses_event_is_said_as_it_stands():
    """Smallville's guests said their party block as it was written: "at 17:00 I'll be going to
    Hobbs Cafe (Isabella Rodriguez: host a Valentine's Day party)", and goodbyes cut it at its
    colon: "I need to go to Hobbs Cafe (Isabella Rodriguez at 17:00." Each block, by hand: an
    event made is the host's, a guest goes to it; another act is joined; no one's act is gone to."""
    from town.memory.fact import Fact
    from town.textevent import StatedEvent
    from town.thinking.dayplan import fact_block

    cafe = StatedEvent(place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 18), end=datetime(2023, 2, 14, 19))
    clean = Fact(subject="Isabella Rodriguez", act="deep-clean the kitchen", place="v:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 18), host="Isabella Rodriguez")
    assert fact_block(clean, cafe, "Maria Lopez") == "join Isabella Rodriguez at Hobbs Cafe to deep-clean the kitchen"
    potluck = Fact(subject="Tom Moreno", act="put on a potluck", place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 18),
                   host="Tom Moreno")
    assert fact_block(potluck, cafe, "Maria Lopez") == "go to Tom Moreno's potluck at Hobbs Cafe"
    party = Fact(subject="Maria Lopez", act="throw Klaus Mueller a surprise party", place="v:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 18), host="Maria Lopez")
    assert fact_block(party, cafe, "Isabella Rodriguez") == ("join Maria Lopez at Hobbs Cafe to throw Klaus Mueller a "
                                                             "surprise party")
    run = Fact(subject="Sam Moore", act="run for mayor", place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 18),
               host="Sam Moore")
    assert fact_block(run, cafe, "Maria Lopez") == "join Sam Moore at Hobbs Cafe to run for mayor"


def test_a_thing_opening_a_text_at_a_place_and_time_is_what_there_is():
    """"A travelling circus is setting up in Johnson Park on Wednesday at 4pm" (a whisper no test
    used) was read as the act "be circus is setting up" ("travelling" taken for its verb) and told
    as "there is circus is setting up at Johnson Park". The thing before its verb is what there is;
    a place before its verb is not ("The pub is hosting trivia": trivia)."""
    places = {"johnson park": "v:Johnson Park", "the pub": "v:Pub", "pub": "v:Pub"}
    circus = read_fact("A travelling circus is setting up in Johnson Park on Wednesday at 4pm and tickets are free.",
                       MONDAY, places, NAMES)
    assert circus is not None and circus.act == "be a travelling circus" and circus.subject is None
    assert circus.place == "v:Johnson Park" and circus.start == datetime(2023, 2, 15, 16)
    trivia = read_fact("The pub is hosting trivia on Friday at 8pm.", MONDAY, places, NAMES)
    assert trivia is not None and trivia.act == "be trivia"


VILLE = {"the library": "v:Library", "library": "v:Library", "the common room": "v:Common room",
         "common room": "v:Common room", "the pub": "v:Pub", "pub": "v:Pub"}
CAST = ["Klaus Mueller", "Maria Lopez"]


def test_one_of_ones_own_doing_a_thing_to_one_is_ones_appointment_with_them():
    """Whispered to Klaus, "Your thesis advisor wants to meet you in the library at 3pm tomorrow."
    made no fact (the act "meet me", of no one). It is Klaus's own appointment: he is meeting with
    his advisor then, and says so as "my"."""
    from town.realise import statement

    fact = read_fact("My thesis advisor wants to meet me in the library at 3pm tomorrow.", MONDAY, VILLE, CAST,
                     "Klaus Mueller")
    assert fact is not None and fact.subject == fact.host == "Klaus Mueller"
    assert fact.act == "meet with one's thesis advisor" and fact.start == datetime(2023, 2, 14, 15)
    assert statement(fact, "Klaus Mueller") == "I am meeting with my thesis advisor at Library on Tuesday, February 14 at 3pm"


def test_the_clause_with_the_clock_time_states_the_event_and_an_earlier_clause_names_him():
    """"Klaus has a birthday on Wednesday; I want to throw him a surprise party in the common
    room at 7pm." (to Maria) was read as Klaus "having a birthday" at 7pm in the common room. The
    event is the later clause's, on the earlier clause's day, "him" the one it names. A later
    clause naming no one leaves the first ("It starts at 7pm"), and a later clause's own day wins
    over an earlier one's ("today" ... "on Thursday")."""
    party = read_fact("Klaus has a birthday on Wednesday; I want to throw him a surprise party in the common room "
                      "at 7pm.", MONDAY, VILLE, CAST, "Maria Lopez")
    assert party is not None and (party.subject, party.act) == ("Maria Lopez", "throw Klaus Mueller a surprise party")
    assert party.place == "v:Common room" and party.start == datetime(2023, 2, 15, 19)
    quiz = read_fact("I'm hosting a quiz at the pub on Wednesday. It starts at 7pm.", MONDAY, VILLE, CAST, "Maria Lopez")
    assert quiz is not None and quiz.act == "host a quiz" and quiz.start == datetime(2023, 2, 15, 19)
    group = read_fact("Klaus is tired today. Maria is running a study group at the library on Thursday at 4pm.",
                      MONDAY, VILLE, CAST, "Isabella Rodriguez")
    assert group is not None and group.subject == "Maria Lopez" and group.start == datetime(2023, 2, 16, 16)


def test_an_event_named_without_a_verb_is_what_there_is():
    """"Movie night at the pub, Friday 9pm!" made no fact (no verb): it is what there is."""
    fact = read_fact("Movie night at the pub, Friday 9pm!", MONDAY, VILLE, CAST, "Maria Lopez")
    assert fact is not None and fact.subject is None and fact.act == "be a movie night"  # the article it left out
    assert fact.place == "v:Pub" and fact.start == datetime(2023, 2, 17, 21)
    assert read_fact("The pub, Friday 9pm!", MONDAY, VILLE, CAST, "Maria Lopez") is None
    for text, act in (("Karaoke at the pub, Friday 9pm!", "be karaoke"), ("Live music at the pub, Friday 9pm!",
                      "be live music"), ("Food trucks at the pub, Friday 9pm!", "be food trucks")):  # no article: by hand
        found = read_fact(text, MONDAY, VILLE, CAST, "Maria Lopez")
        assert found is not None and found.act == act, (text, found)


def test_a_headline_with_an_aside_a_bare_hour_and_a_verb_of_its_own_is_read():
    """Whispers no test used, read wrong: "Movie marathon in the dorm common room tonight,
    starting around 9 - I'll make popcorn!" (to Maria) was Maria making popcorn, at no place or
    time; "Jazz trio plays at the Rose and Crown on Tuesday night from 8 til late" and "A food
    truck visits Johnson Park ..." made no fact (a verb other than "is"; "the Rose and Crown"
    unknown for the pub). Worked out by hand: Monday 13 Feb; tonight at 9 is 21:00, Tuesday night
    from 8 is 20:00."""
    places = place_names(("v:Dorm for Oak Hill College", "v:Dorm for Oak Hill College:common room",
                          "v:The Rose and Crown Pub", "v:Johnson Park"))
    marathon = read_fact("Movie marathon in the dorm common room tonight, starting around 9 - I'll make popcorn!",
                         MONDAY, places, CAST, "Maria Lopez")
    assert marathon is not None and (marathon.subject, marathon.act) == (None, "be a movie marathon")
    assert marathon.place == "v:Dorm for Oak Hill College:common room" and marathon.start == datetime(2023, 2, 13, 21)
    jazz = read_fact("Jazz trio plays at the Rose and Crown on Tuesday night from 8 til late", MONDAY, places, CAST,
                     "Isabella Rodriguez")
    assert jazz is not None and (jazz.act, jazz.place) == ("be a jazz trio playing", "v:The Rose and Crown Pub")
    assert jazz.start == datetime(2023, 2, 14, 20) and jazz.end is None
    assert statement(jazz, "Maria Lopez", now=MONDAY).startswith("there is a jazz trio playing at The Rose and Crown")
    buns = read_fact("The bakery sells hot cross buns at Johnson Park on Saturday at 9am", MONDAY, places, CAST)
    assert buns is not None and buns.act == "be the bakery selling hot cross buns"
    assert statement(buns, "Maria Lopez", now=MONDAY).startswith("the bakery is selling hot cross buns")  # the doer first
    hosted = read_fact("Karaoke at the pub on Friday at 9pm. Isabella is running it.", MONDAY, VILLE,
                       [*CAST, "Isabella Rodriguez"], "Maria Lopez")
    assert hosted is not None and (hosted.subject, hosted.act) == ("Isabella Rodriguez", "run karaoke")
    assert read_fact("Everyone comes to the pub at 9pm on Friday", MONDAY, VILLE, CAST, "Maria Lopez") is None


@pytest.mark.parametrize("text, verb", [
    ("I've set up a blood drive at Hobbs Cafe", "set"),  # "I've": the verb after the contraction
    ("I'd love a crowd", "love"),
    ("At 10:30am I'm hosting a quiz", "host"),  # "10:30am" holds no verb "am"
    ("Tomorrow at 8am we are opening the shop", "open"),
])
def test_the_main_verb_is_read_past_a_contraction_and_a_clock_time(text, verb):
    """The reader's verb finder alone (the reader passes "I" before the rest of a first-person
    text, so the events it reads do not show these): worked out by hand."""
    from town.perspective import verb_of

    assert verb_of(text) == verb


def test_a_reason_ends_the_act_and_an_unknown_word_opening_a_thing_is_no_name():
    """"Isabella is cancelling the Valentine's party because she is sick." kept the reason in the
    act ("cancel the Valentine's party because she is sick"); "Karaoke tonight at the pub from
    9pm!" was told "there is Karaoke" (a word the dictionary lacks, capitalised as it opened the
    text). A name's possessive stays capitalised."""
    fact = read_fact("Isabella is cancelling the Valentine's party because she is sick.", MONDAY, VILLE,
                     ["Isabella Rodriguez"], "Tom Moreno")
    assert fact is not None and fact.act == "cancel the Valentine's party"
    karaoke = read_fact("Karaoke tonight at the pub from 9pm!", MONDAY, VILLE, CAST, "Maria Lopez")
    assert karaoke is not None and karaoke.act == "be karaoke"
    dance = read_fact("Valentine's dance at the pub, Friday 8pm!", MONDAY, VILLE, CAST, "Maria Lopez")
    assert dance is not None and dance.act == "be Valentine's dance"


def test_a_call_for_volunteers_after_so_is_the_event_at_its_own_clauses_time():
    """Whispered to Isabella: "The health inspector visits Hobbs Cafe on Wednesday at 10am, so I
    need volunteers to help deep-clean the kitchen on Tuesday evening at 6pm." was told as "I am
    needing volunteers to help deep-clean the kitchen at Hobbs Cafe on Wednesday at 10am": the
    inspector's time, and a call for help in the progressive. The event is the deep-clean, the
    clause after "so" with its own day and time (Tuesday the 14th, 18:00), at the place the first
    clause names, open to anyone who comes."""
    from town.realise import statement

    places = {"hobbs cafe": "v:Hobbs Cafe"}
    fact = read_fact("The health inspector visits Hobbs Cafe on Wednesday at 10am, so I need volunteers to help "
                     "deep-clean the kitchen on Tuesday evening at 6pm.", MONDAY, places, NAMES, "Isabella Rodriguez")
    assert fact is not None and (fact.subject, fact.act) == ("Isabella Rodriguez", "deep-clean the kitchen")
    assert fact.place == "v:Hobbs Cafe" and fact.start == datetime(2023, 2, 14, 18) and fact.open_invitation
    assert statement(fact, "Tom Moreno", now=MONDAY) == ("Isabella Rodriguez is deep-cleaning the kitchen at Hobbs "
                                                         "Cafe tomorrow at 6pm, and everyone is welcome")
    paint = read_fact("We need some helpers to paint the fence at Hobbs Cafe on Saturday at 9am.", MONDAY, places,
                      NAMES, "Tom Moreno")
    assert paint is not None and paint.act == "paint the fence" and paint.open_invitation
    assert paint.start == datetime(2023, 2, 18, 9)


@pytest.mark.parametrize("phrase, third, ing, past", [
    ("deep-clean the kitchen", "deep-cleans the kitchen", "deep-cleaning the kitchen", "deep-cleaned the kitchen"),
    ("re-paint the fence", "re-paints the fence", "re-painting the fence", "re-painted the fence"),
    ("clean the kitchen", "cleans the kitchen", "cleaning the kitchen", "cleaned the kitchen"),
])
def test_a_hyphenated_verb_is_inflected_in_its_last_part(phrase, third, ing, past):
    """Worked by hand: only the part after the last hyphen takes the ending."""
    from town.inflection import gerund, in_past, third_singular

    verb, _, rest = phrase.partition(" ")
    assert f"{third_singular(verb)} {rest}" == third
    assert gerund(phrase) == ing
    assert in_past(f"I will {phrase}") == f"I {past}"


def test_what_one_tells_others_is_what_its_that_clause_states():
    """Smallville's seeded "I should remind my regulars that the Valentine's Day party at Hobbs
    Cafe starts at 5pm today." was read as Isabella "reminding their regulars that the
    Valentine's Day party" at 5pm, told on and planned as that ("stay at Hobbs Cafe (Isabella
    Rodriguez: remind their regulars that ...)"). What is stated is the that-clause: the party at
    5pm, a thing there is. So for an imperative ("Remember to tell Klaus that ..."), and "told"."""
    places = {"hobbs cafe": "v:Hobbs Cafe", "the pub": "v:Pub"}
    party = read_fact("I should remind my regulars that the Valentine's Day party at Hobbs Cafe starts at 5pm today.",
                      datetime(2023, 2, 14, 12), places, NAMES, "Isabella Rodriguez")
    assert party is not None and (party.subject, party.act) == (None, "be the Valentine's Day party")
    assert party.place == "v:Hobbs Cafe" and party.start == datetime(2023, 2, 14, 17)
    quiz = read_fact("Remember to tell Tom that I'm hosting a quiz at the pub on Friday at 7pm.", MONDAY, places,
                     NAMES, "Isabella Rodriguez")
    assert quiz is not None and (quiz.subject, quiz.act) == ("Isabella Rodriguez", "host a quiz")
    assert quiz.start == datetime(2023, 2, 17, 19)


def test_headings_shorthand_a_bare_range_and_a_kind_of_owner_are_read():
    """More whispers no test used, in Smallville's words: "Hey, the farmers market is moving ..."
    was "be hey"; "Reminder: town hall meeting about the new bike lanes, ..." was "be reminder";
    "... tmrw 3pm" had no day; "2-4" beside "afternoon" no time; "the co-living space" (the
    artist's) no place; "Wanna grab dinner" was a thing named "a wanna grab dinner". Worked out by
    hand from Monday 13 Feb."""
    places = place_names(("s:Johnson Park", "s:Town Hall", "s:Oak Hill College", "s:Oak Hill College:library",
                          "s:Artist's co-living space", "s:The Rose and Crown Pub", "s:The Rose and Crown Pub:pub"))
    market = read_fact("Hey, the farmers market is moving to Saturday mornings at Johnson Park starting this week, 8 to "
                       "noon.", MONDAY, places, CAST, "Maria Lopez")
    assert market is not None and (market.act, market.place) == ("be the farmers market", "s:Johnson Park")
    assert (market.start, market.end) == (datetime(2023, 2, 18, 8), datetime(2023, 2, 18, 12))
    meeting = read_fact("Reminder: town hall meeting about the new bike lanes, Wednesday 6:30pm", MONDAY, places, CAST)
    assert meeting is not None and meeting.act == "be a town hall meeting about the new bike lanes"
    assert (meeting.place, meeting.start) == ("s:Town Hall", datetime(2023, 2, 15, 18, 30))
    chess = read_fact("there's a chess tournament at the library tmrw 3pm", MONDAY, places, CAST)
    assert chess is not None and chess.start == datetime(2023, 2, 14, 15)
    pottery = read_fact("I'm teaching a free pottery class at the co-living space this Sunday afternoon 2-4", MONDAY,
                        places, CAST, "Maria Lopez")
    assert pottery is not None and pottery.place == "s:Artist's co-living space"
    assert (pottery.start, pottery.end) == (datetime(2023, 2, 19, 14), datetime(2023, 2, 19, 16))
    dinner = read_fact("Wanna grab dinner at the pub at 7 tonight?", MONDAY, places, CAST, "Maria Lopez")
    assert dinner is not None and "wanna" not in dinner.act and dinner.start == datetime(2023, 2, 13, 19)


@pytest.mark.parametrize("text, past", [
    ("it clashes with restocking the shelf, but I want to be there",
     "it clashed with restocking the shelf, but I wanted to be there"),
    ("I need to study", "I needed to study"), ("I can come", "I can come"), ("they like the party", "they liked the party"),
    ("I am free then", "I was free then"),
])
def test_a_reason_is_put_in_the_past_with_its_verbs_after_i(text, past):
    """"Yes, I went to the chess tournament ..., because it clashed with ..., but I want to be
    there" (a decision's reason said after the event): each verb after I, we, you or they goes
    into the past as well, not a modal ("I can"). By hand."""
    from town.inflection import in_past
    assert in_past(text) == past


def test_on_ends_an_act_only_before_a_day():
    """Klaus's whispered "I'm giving a short talk on housing policy at the library tomorrow at
    11am" was told as "a short talk" (its topic cut at "on"); "on" before a day still ends the act.
    By hand."""
    places = {"the library": "v:Library", "library": "v:Library", "hobbs cafe": "v:Hobbs Cafe"}
    talk = read_fact("I'm giving a short talk on housing policy at the library tomorrow at 11am", MONDAY, places,
                     CAST, "Klaus Mueller")
    assert talk is not None and talk.act == "give a short talk on housing policy"
    party = read_fact("Maria is hosting a party on Tuesday at 5pm at Hobbs Cafe", MONDAY, places, CAST)
    assert party is not None and party.act == "host a party" and party.start == datetime(2023, 2, 14, 17)
    sale = read_fact("There is a sale on garden tools at Hobbs Cafe on Friday at 9am", MONDAY, places, CAST)
    assert sale is not None and statement(sale, "Maria Lopez", now=MONDAY).startswith("there is a sale on garden tools")


def test_ones_own_someone_named_before_we_is_who_one_does_it_with():
    """Maria's whispered "My cousin Ana is visiting on Wednesday; we're having lunch at Hobbs Cafe
    at 12:30" was told as "I am having lunch at Hobbs Cafe ... Would you like to come?": the cousin
    lost, and a lunch with her offered to all. By hand: the lunch is with her cousin Ana, private."""
    places = {"hobbs cafe": "v:Hobbs Cafe"}
    lunch = read_fact("My cousin Ana is visiting on Wednesday; we're having lunch at Hobbs Cafe at 12:30", MONDAY,
                      places, CAST, "Maria Lopez")
    assert lunch is not None and lunch.act == "have lunch with one's cousin Ana" and lunch.private
    assert lunch.start == datetime(2023, 2, 15, 12, 30)
    taken = read_fact("My cousin is visiting on Wednesday; I'm taking her to lunch at Hobbs Cafe at 12:30pm", MONDAY,
                      places, CAST, "Maria Lopez")
    assert taken is not None and taken.act == "take one's cousin to lunch"


def test_a_named_teller_a_possessed_place_and_an_open_call_are_read():
    """Smallville whispers no test used: "Jennifer told me the art club meets ..." was Jennifer
    "telling me the art club meets"; "... at his apartment Friday 7pm" (Carlos's) and "in my room"
    had no place; "volunteers welcome" and "paella for everyone" were no open invitation. By hand
    from Monday 13 Feb."""
    places = place_names(("s:Dorm:common room", "s:Dorm", "s:Apartments:Carlos Gomez's apartment", "s:Apartments",
                          "s:Dorm:Maria Lopez's room", "s:Johnson Park"))
    cast = [*CAST, "Carlos Gomez", "Jennifer Moore"]
    club = read_fact("Jennifer told me the art club meets in the dorm common room on Thursday at 6pm", MONDAY, places,
                     cast, "Maria Lopez")
    assert club is not None and (club.subject, club.act) == (None, "be the art club meeting")
    assert club.start == datetime(2023, 2, 16, 18)
    paella = read_fact("Carlos is cooking paella for everyone at his apartment Friday 7pm, bring drinks", MONDAY, places,
                       cast, "Maria Lopez")
    assert paella is not None and paella.place == "s:Apartments:Carlos Gomez's apartment" and paella.open_invitation
    games = read_fact("I'm having a games night in my room tomorrow at 8pm", MONDAY, places, cast, "Maria Lopez")
    assert games is not None and games.place == "s:Dorm:Maria Lopez's room"
    assert statement(games, "Maria Lopez", now=MONDAY) == "I am having a games night at my room tomorrow at 8pm"
    clean = read_fact("I'm organising a clean-up of Johnson Park this Sunday from 10am to noon - volunteers welcome",
                      MONDAY, places, cast, "Maria Lopez")
    assert clean is not None and clean.open_invitation


def test_casual_typing_reads_as_the_event_it_states():
    """A new user's whispers: "yo theres a board game night in the dorm common room tonight around
    8pm, bring snacks if u can" became "there is a yo theres a board game night"; "so apparently
    theres a chili cook-off at Oak Hill College on wednesday afternoon like 2ish" made no time.
    By hand from Monday 13 Feb: 20:00 today; Wednesday 14:00."""
    places = place_names(("v:Dorm", "v:Dorm:common room", "v:Oak Hill College"))
    games = read_fact("yo theres a board game night in the dorm common room tonight around 8pm, bring snacks if u can",
                      MONDAY, places, CAST, "Klaus Mueller")
    assert games is not None and (games.act, games.start) == ("be a board game night", datetime(2023, 2, 13, 20))
    chili = read_fact("so apparently theres a chili cook-off at Oak Hill College on wednesday afternoon like 2ish",
                      MONDAY, places, CAST, "Isabella Rodriguez")
    assert chili is not None and (chili.act, chili.place) == ("be a chili cook-off", "v:Oak Hill College")
    assert chili.start == datetime(2023, 2, 15, 14)


def test_an_organisers_event_a_clubs_doing_and_a_range_of_bare_hours_are_read():
    """Whispers no test used (the_ville, 2026-12-07): "Heads up - the college is holding a blood
    drive in the library on Tuesday between 10 and 2, donors get free cookies" was read as nothing
    (its hours bare, so Maria retold it word for word and Isabella quoted her); "The town council
    is organising a cleanup at Johnson Park ..." was "there is the town council"; "The art club is
    meeting ..." was "there is the art club"; "Study group for the sociology midterm meets ..." was
    nothing; "The choir of Oak Hill sings ..." was "the choir is of Oak Hill singing". By hand from
    Monday 13 Feb, 08:00."""
    places = place_names(("v:Oak Hill College:library", "v:Oak Hill College", "v:Johnson Park", "v:Hobbs Cafe",
                          "v:Dorm:common room", "v:Dorm"))
    blood = read_fact("Heads up - the college is holding a blood drive in the library on Tuesday between 10 and 2, "
                      "donors get free cookies", MONDAY, places, CAST)
    assert blood is not None and (blood.act, blood.place) == ("be a blood drive", "v:Oak Hill College:library")
    assert (blood.start, blood.end) == (datetime(2023, 2, 14, 10), datetime(2023, 2, 14, 14))
    sale = read_fact("Bake sale at Hobbs Cafe on Friday from 2 to 5", MONDAY, places, CAST)
    assert sale is not None and (sale.start, sale.end) == (datetime(2023, 2, 17, 14), datetime(2023, 2, 17, 17))
    noon = read_fact("Bake sale at Hobbs Cafe on Friday from 12 to 3", MONDAY, places, CAST)
    assert noon is not None and (noon.start, noon.end) == (datetime(2023, 2, 17, 12), datetime(2023, 2, 17, 15))
    # 8 to 11 is a morning's or an evening's; a score is no time
    assert read_fact("Open mic at Hobbs Cafe on Friday from 8 to 11", MONDAY, places, CAST) is None
    assert read_fact("The match ended 3-2 at Hobbs Cafe on Friday", MONDAY, places, CAST) is None
    cleanup = read_fact("The town council is organising a cleanup at Johnson Park on Saturday at 9am", MONDAY, places,
                        CAST)
    assert cleanup is not None and (cleanup.act, cleanup.place) == ("be a cleanup", "v:Johnson Park")
    assert statement(cleanup, "Maria Lopez", now=MONDAY) == "there is a cleanup at Johnson Park on Saturday at 9am"
    club = read_fact("The art club is meeting in the common room tomorrow at 6pm", MONDAY, places, CAST)
    assert club is not None and club.act == "be the art club meeting"
    assert statement(club, "Maria Lopez", now=MONDAY).startswith("the art club is meeting at the common room")
    circus = read_fact("A travelling circus is setting up at Johnson Park tomorrow at 3pm", MONDAY, places, CAST)
    assert circus is not None and circus.act == "be a travelling circus"
    # Smallville's "St. Patrick's style folk night" was "there is a St": a title's full stop ends no sentence
    folk = read_fact("Hobbs Cafe is throwing a St. Patrick's style folk night this Thursday, live fiddle from 8pm",
                     MONDAY, places, CAST)
    assert folk is not None and folk.act == "be a St Patrick's style folk night"
    # what a thing is for follows its doing; a definite thing's phrase is whole before "is"
    group = read_fact("Study group for the sociology midterm meets in the library on Thursday, 4 to 6pm, bring your notes",
                      MONDAY, places, CAST)
    assert group is not None and group.act == "be a study group meeting for the sociology midterm"
    assert statement(group, "Maria Lopez", now=MONDAY) == (
        "there is a study group meeting for the sociology midterm at the library of Oak Hill College on Thursday from "
        "4pm to 6pm")
    # "omg Klaus's band is playing at the pub tmrw night at 9!!" (Maria) was Klaus "playing": his band is kept
    band = read_fact("Klaus's band is playing at Hobbs Cafe tomorrow at 9pm", MONDAY, places, CAST, "Maria Lopez")
    assert band is not None and (band.subject, band.act, band.host) == ("Klaus Mueller", "play with one's band",
                                                                         "Klaus Mueller")
    assert statement(band, "Maria Lopez", now=MONDAY, pronoun="he") == (
        "Klaus Mueller is playing with his band at Hobbs Cafe tomorrow at 9pm")
    choir = read_fact("The choir of Oak Hill sings at Hobbs Cafe on Friday at 7pm", MONDAY, places, CAST)
    assert choir is not None
    assert statement(choir, "Maria Lopez", now=MONDAY) == "the choir of Oak Hill is singing at Hobbs Cafe on Friday at 7pm"


def test_an_event_told_by_a_day_or_a_part_of_a_day_keeps_its_place_and_day():
    """Whispers no test used (the_ville, 2026-12-07): "We're holding a bake sale at the pharmacy on
    Saturday morning" was read as "hold a bake sale", with no place and no day (no clock time was
    said), so it was retold as "I hold a bake sale" and planned by no one. Told by a part of the
    day, an event starts at that part's usual hour (:data:`town.textevent.PART_STARTS`) and is said
    by its part, never by that hour; a day alone starts at 10am and is said by its day. An hour that
    is not read ("from 8 to 11": morning or evening) is no part of a day; a state ("closed all day")
    and a day phrase ("yesterday") are no act's words. By hand from Monday 13 Feb, 08:00."""
    places = place_names(("v:The Willows Market and Pharmacy", "v:The Willows Market and Pharmacy:pharmacy",
                          "v:Hobbs Cafe", "v:The Rose and Crown Pub", "v:Oak Hill College:library"))
    sale = read_fact("We're holding a bake sale at the pharmacy on Saturday morning", MONDAY, places, NAMES,
                     "Isabella Rodriguez")
    assert sale is not None and (sale.subject, sale.act, sale.place, sale.start, sale.end, sale.part) == (
        "Isabella Rodriguez", "hold a bake sale", "v:The Willows Market and Pharmacy:pharmacy",
        datetime(2023, 2, 18, 10), None, "morning")
    assert statement(sale, "Tom Moreno") == ("Isabella Rodriguez is holding a bake sale at The Willows Market and "
                                             "Pharmacy on Saturday, February 18 in the morning")
    assert statement(sale, "Tom Moreno", now=MONDAY).endswith("Pharmacy on Saturday morning")
    tonight = read_fact("Karaoke at the pub tonight, come sing badly with us", MONDAY, places, NAMES)
    assert tonight is not None and (tonight.act, tonight.start, tonight.part) == (
        "be karaoke", datetime(2023, 2, 13, 19), "evening")
    assert statement(tonight, "Tom Moreno", now=MONDAY) == "there is karaoke at The Rose and Crown Pub this evening"
    day = read_fact("I'm hosting a bake sale at the pharmacy tomorrow", MONDAY, places, NAMES, "Isabella Rodriguez")
    assert day is not None and (day.start, day.part) == (datetime(2023, 2, 14, 10), "day")
    assert statement(day, "Isabella Rodriguez", now=MONDAY) == (
        "I am hosting a bake sale at The Willows Market and Pharmacy tomorrow")
    afternoon = read_fact("Chess at the library tomorrow afternoon", MONDAY, places, NAMES)
    assert afternoon is not None and statement(afternoon, "Tom Moreno", now=MONDAY) == (
        "there is chess at the library of Oak Hill College tomorrow afternoon")
    assert read_fact("Open mic at Hobbs Cafe on Friday from 8 to 11", MONDAY, places, NAMES) is None
    assert find_event("Open mic at Hobbs Cafe on Friday from 8 to 11", MONDAY, places, parts=True) is None
    closed = read_fact("The library is closed all day Wednesday", MONDAY, places, NAMES)  # a closure, no event
    assert closed is not None and closed.closed and closed.start.date() == datetime(2023, 2, 15).date()
    went = read_fact("I went to Hobbs Cafe yesterday", MONDAY, places, NAMES, "Isabella Rodriguez")
    assert went is not None and went.act == "go to Hobbs Cafe" and went.start == datetime(2023, 2, 12, 10)


def test_an_invitation_to_ones_own_thing_is_one_having_it():
    """"Come to my birthday drinks at the pub on Thursday at 9pm", whispered to Isabella, was
    "there are my birthday drinks", retold by Klaus as his own ("there are my birthday drinks");
    one's own thing asked to is one having it: Isabella is having her birthday drinks, and she hosts."""
    places = place_names(("v:The Rose and Crown Pub", "v:Hobbs Cafe"))
    drinks = read_fact("Come to my birthday drinks at the pub on Thursday at 9pm", MONDAY, places, NAMES,
                       "Isabella Rodriguez")
    assert drinks is not None and (drinks.subject, drinks.act, drinks.host, drinks.start) == (
        "Isabella Rodriguez", "have one's birthday drinks", "Isabella Rodriguez", datetime(2023, 2, 16, 21))
    assert statement(drinks, "Tom Moreno", pronoun="she") == (
        "Isabella Rodriguez is having her birthday drinks at The Rose and Crown Pub on Thursday, February 16 at 9pm")
    party = read_fact("Would you like to come to my party at Hobbs Cafe tomorrow at 5pm?", MONDAY, places, NAMES,
                      "Isabella Rodriguez")
    assert party is not None and party.act == "have one's party" and not party.question


@pytest.mark.parametrize("said, start", [
    ("on the 14th at noon", datetime(2023, 2, 14, 12)),  # an ordinal day: this month's
    ("on the 3rd at 5pm", datetime(2023, 3, 3, 17)),  # the 3rd is past on the 13th: next month's
    ("on the 1st of March at 2pm", datetime(2023, 3, 1, 14)),
    ("the day after tomorrow at 1pm", datetime(2023, 2, 15, 13)),  # parsedatetime read "after tomorrow"
    ("tomorrow at half past ten in the morning", datetime(2023, 2, 14, 10, 30)),
    ("on Wednesday at half past four", datetime(2023, 2, 15, 16, 30)),  # 1 to 6, no part of day: the afternoon
    ("on Wednesday at a quarter to six", datetime(2023, 2, 15, 17, 45)),
    ("on Friday at a quarter past eight in the evening", datetime(2023, 2, 17, 20, 15)),
    ("at seven tonight", datetime(2023, 2, 13, 19)),
    ("at ten o'clock tomorrow morning", datetime(2023, 2, 14, 10)),
    ("on Thursday at six thirty pm", datetime(2023, 2, 16, 18, 30)),
    ("on Friday at 4:30", datetime(2023, 2, 17, 16, 30)),  # not 4:30 at night
    ("tomorrow morning at 6:30", datetime(2023, 2, 14, 6, 30)),
])
def test_a_time_said_in_words_and_a_day_by_its_ordinal_are_read(said, start):
    """A tester's whispers (the_ville, 2026-12-07): "I'm playing a concert at Johnson Park on the 14th
    at noon", "... tomorrow at half past ten in the morning" and "a book swap at Johnson Park on
    Wednesday at half past four" were read with no day or no time, so even the host never went,
    and the news was passed on as "he plays a concert". Each start worked out by hand from Monday
    13 Feb 2023, 08:00."""
    places = place_names(("v:Johnson Park",))
    fact = read_fact(f"I'm playing a concert at Johnson Park {said}", MONDAY, places, NAMES, "Tom Moreno")
    assert fact is not None and (fact.act, fact.place, fact.start, fact.part) == (
        "play a concert", "v:Johnson Park", start, None)


def test_a_time_said_in_words_that_could_be_morning_or_evening_is_no_time():
    """"half past seven" with no part of the day is 7:30 in the morning or the evening: no time, and
    no day alone stands in for it (the event is not put at 10am)."""
    places = place_names(("v:Johnson Park",))
    fact = read_fact("I'm playing a concert at Johnson Park on February 24 at half past seven", MONDAY, places,
                     NAMES, "Tom Moreno")
    assert fact is not None and (fact.start, fact.part) == (None, None)


def test_a_guest_goes_to_a_performance_and_does_not_perform_it():
    """Klaus's whispered concert was in Maria's day plan as "join Klaus Mueller at Johnson Park to
    play a concert" (as if she played): a performance, like a party, is gone to."""
    from town.thinking.dayplan import fact_block, fact_event

    places = place_names(("v:Johnson Park",))
    fact = read_fact("I'm playing a concert at Johnson Park on the 14th at 6pm", MONDAY, places,
                     ["Klaus Mueller", "Maria Lopez"], "Klaus Mueller")
    assert fact is not None
    event = fact_event(fact, places)
    assert event is not None
    assert fact_block(fact, event, "Maria Lopez") == "go to Klaus Mueller's concert at Johnson Park"
    assert fact_block(fact, event, "Klaus Mueller") == "play a concert at Johnson Park"


def test_lets_a_reminder_and_every_week_are_read():
    """Whispers no test used (the_ville, 2026-12-07): "Let's all meet at the pub at 8 tonight to
    watch the game" was "there is Let's all meet"; "Reminder that the book club meets at the
    library on Tuesday at 7pm" was nothing; "The library book club meets every Tuesday at 7pm" was
    "the library book club is meeting every". By hand from Monday 13 Feb, 08:00: "let's" is one's
    own plan ("let's all": everyone's welcome), a meeting is its point, a reminder's "that" opens
    what is stated, and "every Tuesday" ends the act (the next Tuesday is read)."""
    places = place_names(("v:The Rose and Crown Pub", "v:Oak Hill College:library", "v:Johnson Park"))
    game = read_fact("Let's all meet at the pub at 8 tonight to watch the game", MONDAY, places, NAMES,
                     "Isabella Rodriguez")
    assert game is not None and (game.subject, game.act, game.start, game.invited) == (
        "Isabella Rodriguez", "watch the game", datetime(2023, 2, 13, 20), ("everyone",))
    picnic = read_fact("Let's have a picnic in Johnson Park on Sunday at noon", MONDAY, places, NAMES, "Isabella Rodriguez")
    assert picnic is not None and (picnic.subject, picnic.act, picnic.invited) == ("Isabella Rodriguez", "have a picnic", ())
    club = read_fact("Reminder that the book club meets at the library on Tuesday at 7pm", MONDAY, places, NAMES)
    assert club is not None and (club.act, club.start) == ("be the book club meeting", datetime(2023, 2, 14, 19))
    weekly = read_fact("The library book club meets every Tuesday at 7pm", MONDAY, places, NAMES)
    assert weekly is not None and weekly.act == "be the library book club meeting"


def test_a_part_of_the_day_said_of_a_day_wins_over_a_things_name():
    """"I'm hosting a poetry night at Hobbs Cafe on Wednesday evening" was held as Wednesday's
    night (the "night" of "poetry night" came first) and told as "on Wednesday night"; the hour of
    "a poetry night on Wednesday morning at 9" was read as 9pm. By hand: the part said of a day
    wins; a thing's name alone still says it ("movie night on Friday" is the night's)."""
    places = place_names(("v:Hobbs Cafe",))
    poetry = read_fact("I'm hosting a poetry night at Hobbs Cafe on Wednesday evening", MONDAY, places, NAMES,
                       "Tom Moreno")
    assert poetry is not None and (poetry.start, poetry.part) == (datetime(2023, 2, 15, 19), "evening")
    early = read_fact("I'm hosting a poetry night at Hobbs Cafe on Wednesday morning at 9", MONDAY, places, NAMES,
                      "Tom Moreno")
    assert early is not None and early.start == datetime(2023, 2, 15, 9)
    movie = read_fact("Movie night at Hobbs Cafe on Friday", MONDAY, places, NAMES)
    assert movie is not None and (movie.start, movie.part) == (datetime(2023, 2, 17, 20), "night")


def test_an_invitation_and_a_call_for_volunteers_are_read():
    """Whispers no test used (Smallville, 2026-12-07): "Sam Moore invites everyone to a campaign
    barbecue ..." was "inviting everyone to a campaign barbecue ..., and everyone is welcome";
    "Volunteers needed: we're painting the supply store ..." was open to no one. A sign that says
    a place will close (the_ville's news, worded so) stays no fact. By hand from Monday 13 Feb, 08:00."""
    places = place_names(("v:Johnson Park", "v:Harvey Oak Supply Store", "v:Oak Hill College:library"))
    names = ["Sam Moore", "Tom Moreno"]
    barbecue = read_fact("Sam Moore invites everyone to a campaign barbecue at Johnson Park on Saturday at 1pm",
                         MONDAY, places, names)
    assert barbecue is not None and (barbecue.subject, barbecue.act, barbecue.invited) == (
        "Sam Moore", "host a campaign barbecue", ("everyone",))
    mine = read_fact("I'm inviting everyone to my housewarming at Johnson Park on Sunday at 2pm", MONDAY, places,
                     names, "Sam Moore")
    assert mine is not None and mine.act == "host one's housewarming"
    paint = read_fact("Volunteers needed: we're painting the supply store on Wednesday starting at 9am", MONDAY,
                      places, names, "Sam Moore")
    assert paint is not None and paint.invited == ("everyone",) and paint.start == datetime(2023, 2, 15, 9)
    sign = read_fact("A sign on the door of Harvey Oak Supply Store says it will close tomorrow morning for "
                     "renovation.", MONDAY, places, names)
    assert sign is not None and (sign.act, sign.closed, sign.place) == ("close", True, "v:Harvey Oak Supply Store")


def test_a_noun_after_a_determiner_a_written_notice_and_there_are_read():
    """Whispers no test used (2026-12-07): "Town hall debate with the other candidates ..." was
    read as nothing ("candidates" taken for a verb, "the" before it); "Debate night with the
    candidates for mayor" was said "the candidating"; "A sign on the door of the supply store says
    it will close tomorrow" was "there is a sign on the door saying it will close of the supply
    store"; what a poster says is the event; "giving a talk ... there" said its place twice. By
    hand from Monday 13 Feb, 08:00."""
    from town.perspective import verb_of

    assert verb_of("Town hall debate with the other candidates") is None
    assert verb_of("Maria calls her friends") == "call"
    places = place_names(("v:Hobbs Cafe", "v:Harvey Oak Supply Store", "v:Oak Hill College:library"))
    debate = read_fact("Town hall debate with the other candidates at Hobbs Cafe on Thursday at 7pm", MONDAY, places,
                       CAST)
    assert debate is not None and (debate.act, debate.place, debate.start) == (
        "be a town hall debate with the other candidates", "v:Hobbs Cafe", datetime(2023, 2, 16, 19))
    night = read_fact("Debate night with the candidates for mayor at Hobbs Cafe on Friday at 6pm", MONDAY, places,
                      CAST)
    assert night is not None and night.act == "be a debate night with the candidates for mayor"
    sign = read_fact("A sign on the door of the supply store says it will close tomorrow", MONDAY, places, CAST)
    assert sign is not None and (sign.act, sign.place, sign.closed) == ("close", "v:Harvey Oak Supply Store", True)
    slam = read_fact("A poster at the library says there's a poetry slam on Friday at 7pm", MONDAY, places, CAST)
    assert slam is not None and (slam.act, slam.place, slam.start) == (
        "be a poetry slam", "v:Oak Hill College:library", datetime(2023, 2, 17, 19))
    talk = read_fact("A flyer at Hobbs Cafe says that Klaus Mueller is giving a talk on gentrification there on "
                     "Monday at 6pm", MONDAY, places, CAST)
    assert talk is not None and (talk.subject, talk.act, talk.place) == (
        "Klaus Mueller", "give a talk on gentrification", "v:Hobbs Cafe")


def test_an_event_called_off_moved_or_told_with_emoji_is_read_as_it_now_stands():
    """A fresh user's whispers (2026-12-07): "omg the karaoke night at the pub tonight is cancelled
    lol 🎤❌ ngl kinda gutted" was "There is 🎤❌ ngl kinda gutted at The Rose and Crown Pub", planned
    by all three; "the pub quiz moved from Tuesday to Thursday" was planned on Tuesday; "postponed
    until next Friday" was "There is until". By hand from Monday 13 Feb, 08:00 (next Friday: the
    24th, as parsedatetime reads it)."""
    from town.memory.fact import Fact
    from town.realise import statement

    places = place_names(("v:The Rose and Crown Pub:pub", "v:Hobbs Cafe", "v:Oak Hill College:library"))
    karaoke = read_fact("omg the karaoke night at the pub tonight is cancelled lol 🎤❌ ngl kinda gutted", MONDAY,
                        places, CAST, "Maria Lopez")
    assert karaoke == Fact(act="be the karaoke night", place="v:The Rose and Crown Pub:pub",
                           start=datetime(2023, 2, 13, 19), part="evening", cancelled=True)
    assert statement(karaoke, "Klaus Mueller", now=MONDAY) == (
        "the karaoke night at The Rose and Crown Pub this evening is cancelled")
    party = read_fact("I've decided to cancel the Valentine's Day party, I'm just too exhausted this week.", MONDAY,
                      places, CAST, "Maria Lopez")
    assert party == Fact(act="be the Valentine's Day party", host="Maria Lopez", cancelled=True)
    assert statement(party, "Maria Lopez") == "I have called off the Valentine's Day party"
    assert statement(party, "Klaus Mueller") == "the Valentine's Day party is cancelled"
    talk = read_fact("Klaus Mueller cancelled his talk at the library tomorrow", MONDAY, places, CAST)
    assert talk is not None and (talk.act, talk.host, talk.place, talk.start.date()) == (
        "be the talk", "Klaus Mueller", "v:Oak Hill College:library", datetime(2023, 2, 14).date())
    quiz = read_fact("heads up, the pub quiz moved from Tuesday to Thursday, same time 8pm", MONDAY, places, CAST)
    assert quiz is not None and (quiz.act, quiz.start, quiz.cancelled) == (
        "be the pub quiz", datetime(2023, 2, 16, 20), False)
    later = read_fact("The quiz at the pub has been postponed until next Friday.", MONDAY, places, CAST)
    assert later is not None and (later.act, later.start.date()) == ("be the quiz", datetime(2023, 2, 24).date())
    piece = read_fact("I'm playing my piano piece 🎹🔥 at the pub on Tuesday at 8pm", MONDAY, places, CAST,
                      "Maria Lopez")
    assert piece is not None and piece.act == "play one's piano piece"


def test_a_cancellation_calls_off_the_event_it_names_and_no_other():
    """:meth:`Fact.calls_off`, by hand: its thing's words (articles aside) all in the event's act,
    at the event's building and on its day where it says them."""
    from town.memory.fact import Fact

    party = Fact(subject="Isabella Rodriguez", act="plan a Valentine's Day party", place="v:Hobbs Cafe:cafe",
                 start=datetime(2023, 2, 14, 17), host="Isabella Rodriguez")
    off = Fact(act="be the Valentine's Day party", host="Isabella Rodriguez", cancelled=True)
    assert off.calls_off(party)
    assert not off.calls_off(Fact(act="be a birthday party", place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 17)))
    assert Fact(act="be the party", place="v:Hobbs Cafe", cancelled=True).calls_off(party)
    assert not Fact(act="be the party", place="v:The Pub", cancelled=True).calls_off(party)
    assert not Fact(act="be the party", place="v:Hobbs Cafe", start=datetime(2023, 2, 15, 10), part="day",
                    cancelled=True).calls_off(party)
    assert not Fact(act="be the Valentine's Day party").calls_off(party)  # no cancellation
    assert Fact.from_dict(off.to_dict()) == off
    with pytest.raises(Exception, match="fact.cancelled"):
        Fact.from_dict({**off.to_dict(), "cancelled": "yes"})


def test_a_place_closed_is_read_as_a_closure_of_its_day_or_from_its_hour():
    """A fresh user's whispers (2026-12-07): "Hobbs Cafe will be closed all day tomorrow for a deep
    clean" was read as nothing, so Isabella brewed coffee there all day and hosted her party in
    it; "The Willows Market is closing early on Tuesday at 3pm" left Tom restocking until 17:00.
    By hand from Monday 13 Feb, 08:00: a closure is the place named before its words, all the day
    named, or from its hour; a habit ("every day") and a closing of no day are none."""
    from town.memory.fact import Fact
    from town.realise import statement

    places = place_names(("v:Hobbs Cafe", "v:The Willows Market and Pharmacy", "v:The Rose and Crown Pub:pub",
                          "v:Oak Hill College:library"))
    cafe = read_fact("Hobbs Cafe will be closed all day tomorrow for a deep clean, so no lunch service.", MONDAY,
                     places, CAST, "Isabella Rodriguez")
    assert cafe == Fact(act="close", place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 10), part="day", closed=True)
    assert statement(cafe, "Klaus Mueller", now=MONDAY) == "Hobbs Cafe is closed all day tomorrow"
    early = read_fact("The Willows Market is closing early on Tuesday at 3pm for stocktaking, tell the regulars.",
                      MONDAY, places, CAST)
    assert early == Fact(act="close", place="v:The Willows Market and Pharmacy", start=datetime(2023, 2, 14, 15),
                         closed=True)
    assert statement(early, "Klaus Mueller", now=MONDAY) == "The Willows Market and Pharmacy closes early tomorrow at 3pm"
    shut = read_fact("The pub is shut", MONDAY, places, CAST)
    assert shut is not None and (shut.place, shut.start.date(), shut.part) == (
        "v:The Rose and Crown Pub:pub", MONDAY.date(), "day")
    assert read_fact("Hobbs Cafe opens at 8am and closes at 8pm every day.", MONDAY, places, CAST) is None
    assert read_fact("Hobbs Cafe is closed every Sunday.", MONDAY, places, CAST) is None  # its hours, no closure
    assert read_fact("Hobbs Cafe will be closed", MONDAY, places, CAST) is None
    oven = read_fact("The oven at Hobbs Cafe broke, so the cafe will be closed all day on Wednesday; tell the regulars.",
                     MONDAY, places, CAST, "Isabella Rodriguez")
    assert oven is not None and (oven.place, oven.start, oven.closed) == ("v:Hobbs Cafe", datetime(2023, 2, 15, 10), True)
    library = read_fact("The library will be closed tomorrow for a staff training day", MONDAY, places, CAST)
    assert library is not None and library.place == "v:Oak Hill College:library"
    tuesday = datetime(2023, 2, 14)
    assert cafe.closes("v:Hobbs Cafe:cafe:counter", tuesday.replace(hour=7, minute=30), tuesday.replace(hour=8))
    assert not cafe.closes("v:Hobbs Cafe:cafe:counter", MONDAY, MONDAY.replace(hour=9))  # the day before
    assert not library.closes("v:Oak Hill College:classroom", tuesday.replace(hour=9), tuesday.replace(hour=10))
    assert early.closes("v:The Willows Market and Pharmacy:store", tuesday.replace(hour=14), tuesday.replace(hour=17))
    assert not early.closes("v:The Willows Market and Pharmacy:store", tuesday.replace(hour=9), tuesday.replace(hour=12))
    party = Fact(subject="Isabella Rodriguez", act="host a party", place="v:Hobbs Cafe", start=tuesday.replace(hour=17))
    assert cafe.undoes(party) and not early.undoes(party)
    assert Fact.from_dict(cafe.to_dict()) == cafe
    with pytest.raises(Exception, match="fact.closed"):
        Fact(act="close", closed=True)


def test_an_event_off_a_place_closed_in_short_and_a_reopening_are_read():
    """Whispers no test used (2026-12-07): "Sorry folks, tonight's quiz at the pub is off" was "there
    is sorry folks"; "the pub's closed today" was nothing; "Hobbs Cafe is open again from tomorrow"
    was "there is open again"; "Unfortunately Maria's birthday dinner ... has been cancelled" kept
    "unfortunately" in its name; "I'm off to the pub tonight at 8pm" was "I am being at". By hand
    from Monday 13 Feb, 08:00."""
    places = place_names(("v:The Rose and Crown Pub:pub", "v:Hobbs Cafe"))
    quiz = read_fact("Sorry folks, tonight's quiz at the pub is off", MONDAY, places, CAST)
    assert quiz is not None and (quiz.act, quiz.cancelled, quiz.part) == ("be the quiz", True, "evening")
    shut = read_fact("the pub's closed today for a private event", MONDAY, places, CAST)
    assert shut is not None and (shut.closed, shut.start.date()) == (True, MONDAY.date())
    assert read_fact("Hobbs Cafe is open again from tomorrow", MONDAY, places, CAST) is None
    assert read_fact("The party is back on!", MONDAY, places, CAST) is None
    dinner = read_fact("Unfortunately Maria's birthday dinner at Hobbs Cafe on Friday has been cancelled", MONDAY,
                       places, CAST)
    assert dinner is not None and dinner.act == "be Maria's birthday dinner"
    off = read_fact("I'm off to the pub tonight at 8pm", MONDAY, places, CAST, "Klaus Mueller")
    assert off is not None and off.act == "go to the pub"
    assert read_fact("The heating is off at the library", MONDAY, places, CAST) is None


def test_a_cancellation_typed_in_slang_or_passed_on_by_a_third_is_read_and_matched():
    """A fresh user's whispers (2026-12-07): "ugh, gotta cancel the valentines party, the cafe's
    boiler broke" and "isabellas party tmrw is cancelld" were no cancellation; "Maria just texted me
    that Isabella called off her Valentine's Day party" made Maria its doer. By hand: each is a
    cancellation, and each calls off Isabella's "host a Valentine's Day party" (a possessive or a
    plural typed either way, the host's first name among its words)."""
    from town.memory.fact import Fact

    places = place_names(("v:Hobbs Cafe:cafe",))
    party = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="v:Hobbs Cafe:cafe",
                 start=datetime(2023, 2, 14, 17), host="Isabella Rodriguez")
    ugh = read_fact("ugh, gotta cancel the valentines party, the cafe's boiler broke 😩", MONDAY, places,
                    ["Isabella Rodriguez"], "Isabella Rodriguez")
    assert ugh is not None and (ugh.cancelled, ugh.host) == (True, "Isabella Rodriguez") and ugh.calls_off(party)
    typo = read_fact("isabellas party tmrw is cancelld, shes sick", MONDAY, places, ["Isabella Rodriguez"])
    assert typo is not None and typo.cancelled and typo.calls_off(party)
    texted = read_fact("Maria just texted me that Isabella called off her Valentine's Day party", MONDAY, places,
                       ["Isabella Rodriguez", "Maria Lopez"], "Klaus Mueller")
    assert texted is not None and texted.host == "Isabella Rodriguez" and texted.calls_off(party)


def test_an_event_moved_is_read_with_its_new_time_and_its_mover():
    """My own whispers (2026-12-07): "I've postponed the party until Friday" was "postpone the party
    until" (no day), "Isabella has moved her party to Wednesday" "move her party to", "Maria's study
    group is moved to tomorrow at 4pm" nothing, and "the quiz ... moved from Tuesday to Thursday"
    a new quiz beside Tuesday's. By hand from Monday 13 Feb, 08:00: a move is its thing at its new
    day and time (a day alone: the day's usual start, told by the day), its mover its host."""
    from town.memory.fact import Fact

    places = place_names(("v:The Rose and Crown Pub:pub", "v:Hobbs Cafe"))
    mine = read_fact("I've postponed the party until Friday", MONDAY, places, CAST, "Isabella Rodriguez")
    assert mine == Fact(act="be the party", start=datetime(2023, 2, 17, 10), part="day", host="Isabella Rodriguez",
                        moved=True)
    cast = [*CAST, "Isabella Rodriguez"]
    hers = read_fact("Isabella has moved her party to Wednesday", MONDAY, places, cast, "Klaus Mueller")
    assert hers == Fact(act="be the party", start=datetime(2023, 2, 15, 10), part="day", host="Isabella Rodriguez",
                        moved=True)
    back = read_fact("Isabella pushed the party back to Friday at 5pm", MONDAY, places, cast, "Klaus Mueller")
    assert back == Fact(act="be the party", start=datetime(2023, 2, 17, 17), host="Isabella Rodriguez", moved=True)
    group = read_fact("Maria's study group is moved to tomorrow at 4pm", MONDAY, places, CAST, "Klaus Mueller")
    assert group == Fact(act="be the study group", start=datetime(2023, 2, 14, 16), host="Maria Lopez", moved=True)
    quiz = read_fact("The quiz at the pub moved from Tuesday to Thursday at 8pm", MONDAY, places, CAST)
    assert quiz == Fact(act="be the quiz", place="v:The Rose and Crown Pub:pub", start=datetime(2023, 2, 16, 20),
                        moved=True)
    assert statement(quiz, "Klaus Mueller", now=MONDAY) == \
        "the quiz has been moved: it is now at The Rose and Crown Pub on Thursday at 8pm"
    assert statement(mine, "Isabella Rodriguez", now=MONDAY) == "I have moved the party: it is now on Friday"
    assert statement(group, "Klaus Mueller", now=MONDAY) == \
        "Maria Lopez's study group has been moved: it is now tomorrow at 4pm"
    assert statement(group, "Klaus Mueller", now=MONDAY, subject_as="she") == \
        "her study group has been moved: it is now tomorrow at 4pm"
    on_the_day = datetime(2023, 2, 16, 9)  # on its new day it is the event itself
    assert statement(quiz, "Klaus Mueller", now=on_the_day) == "the quiz is at The Rose and Crown Pub today at 8pm"
    assert read_fact("Klaus is moving to Berlin on Friday", MONDAY, places, CAST) is None  # his act: no event moved
    assert Fact.from_dict(quiz.to_dict()) == quiz
    with pytest.raises(Exception, match="fact.moved"):
        Fact(act="be the quiz", moved=True)  # moved to nowhere and no time
    with pytest.raises(Exception, match="fact.moved"):
        Fact(act="be the quiz", start=MONDAY, moved="yes")


def test_a_move_calls_off_its_event_at_the_old_time_and_holds_it_at_the_new_one():
    """:meth:`Fact.calls_off`, :meth:`Fact.moved_event` and :meth:`Fact.placed` for a move, by hand:
    Isabella's party (Hobbs Cafe, Tuesday 14 Feb 17:00-19:00) moved "to Wednesday" is off on
    Tuesday and on Wednesday 17:00-19:00 at Hobbs Cafe (a day alone keeps its hours); moved "to
    Friday at 6pm", Friday 18:00-20:00 (its two hours kept); a move to where it already is, or of
    another thing, calls nothing off."""
    from town.memory.fact import Fact

    party = Fact(subject="Isabella Rodriguez", act="plan a Valentine's Day party", place="v:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
    wednesday = Fact(act="be the Valentine's Day party", start=datetime(2023, 2, 15, 10), part="day",
                     host="Isabella Rodriguez", moved=True)
    assert wednesday.calls_off(party)
    moved = wednesday.moved_event(party)
    assert (moved.place, moved.start, moved.end, moved.part, moved.act) == (
        "v:Hobbs Cafe", datetime(2023, 2, 15, 17), datetime(2023, 2, 15, 19), None, "plan a Valentine's Day party")
    assert not wednesday.calls_off(moved)  # where it now is
    friday = Fact(act="be the party", start=datetime(2023, 2, 17, 18), moved=True)
    assert friday.moved_event(party).end == datetime(2023, 2, 17, 20)
    assert not Fact(act="be the party", start=datetime(2023, 2, 14, 17), moved=True).calls_off(party)
    assert not Fact(act="be the quiz", start=datetime(2023, 2, 17, 18), moved=True).calls_off(party)
    placed = wednesday.placed([party])
    assert placed == Fact(act="be the Valentine's Day party", place="v:Hobbs Cafe", start=datetime(2023, 2, 15, 17),
                          end=datetime(2023, 2, 15, 19), host="Isabella Rodriguez", moved=True)
    assert statement(placed, "Isabella Rodriguez", now=MONDAY) == \
        "I have moved the Valentine's Day party: it is now at Hobbs Cafe on Wednesday from 5pm to 7pm"
    assert wednesday.placed([]) == wednesday  # no event held: as it is


def test_slang_openings_a_question_answered_after_it_and_a_shop_shutting_down_are_read():
    """A fresh user's whispers (2026-12-07), each read wrong before: "gonna organise a bake sale at
    johnson park tmrw mornin" was "there is organise a bake sale"; "Wanna come fix the broken bench
    in Johnson Park with me on the 14th at 3pm?" "there is want to come fix"; "Is the hike in
    Johnson Park on the 14th at 9am? I heard it was." "I am hearing it was"; "my book club meets at
    teh libary tommorow at 4pm" had no place or day; "the Willows Market is shutting down for good
    next Monday" was "there is down for good". By hand from Monday 13 Feb, 08:00."""
    from town.memory.fact import Fact

    places = place_names(("v:Johnson Park", "v:Oak Hill College:library", "v:The Willows Market and Pharmacy",
                          "v:The Rose and Crown Pub:pub"))
    sale = read_fact("gonna organise a bake sale at johnson park tmrw mornin, cookies r $2 each", MONDAY, places, CAST,
                     "Maria Lopez")
    assert sale == Fact(subject="Maria Lopez", act="organise a bake sale", place="v:Johnson Park",
                        start=datetime(2023, 2, 14, 10), host="Maria Lopez", part="morning")  # $2: the cookies
    bench = read_fact("Wanna come fix the broken bench in Johnson Park with me on the 14th at 3pm?", MONDAY, places, CAST,
                      "Klaus Mueller")
    assert bench == Fact(subject="Klaus Mueller", act="fix the broken bench", place="v:Johnson Park",
                         start=datetime(2023, 2, 14, 15), host="Klaus Mueller", invited=("everyone",))
    hike = read_fact("Is the hike in Johnson Park on the 14th at 9am? I heard it was.", MONDAY, places, CAST, "Maria Lopez")
    assert hike == Fact(act="be the hike", place="v:Johnson Park", start=datetime(2023, 2, 14, 9), question=True)
    club = read_fact("my book club meets at teh libary tommorow at 4pm, bring snacks!!", MONDAY, places, CAST, "Maria Lopez")
    assert club is not None and (club.place, club.start) == ("v:Oak Hill College:library", datetime(2023, 2, 14, 16))
    market = read_fact("Rumour has it the Willows Market is shutting down for good next Monday.", MONDAY, places, CAST)
    assert market == Fact(act="close", place="v:The Willows Market and Pharmacy", start=datetime(2023, 2, 20, 10),
                          part="day", closed=True)
    pub = read_fact("I'm going to the pub tomorrow at 8pm", MONDAY, places, CAST, "Maria Lopez")
    assert pub is not None and pub.act == "go to the pub"  # a place gone to, no act after "going to"


def test_what_a_thing_costs_is_kept_said_and_answered():
    """A fresh user's questions (2026-12-07): "How much is the entry for the pub quiz?" of a quiz
    whispered "entry is $5", and "how much does it cost?" of a yoga class "only $3", were answered
    without the price: no field held it. By hand from Monday 13 Feb, 08:00: the price as said
    ("bucks" as dollars), told with the event, and answered of the thing asked only."""
    from dataclasses import replace

    from town.memory.fact import Fact
    from town.reading import price_of

    places = place_names(("v:Johnson Park", "v:The Rose and Crown Pub:pub"))
    yoga = read_fact("Yoga class in Johnson Park next Monday at 7am, only $3, tell everyone", MONDAY, places, CAST)
    assert yoga == Fact(act="be a yoga class", place="v:Johnson Park", start=datetime(2023, 2, 20, 7), price="$3")
    reading = read_fact("I'm hosting a poetry reading at the pub tomorrow afternoon, tickets are ten bucks.", MONDAY,
                        places, CAST, "Maria Lopez")
    assert reading is not None and reading.price == "ten dollars"
    assert [price_of(t) for t in ("cookies r $2 each", "£3.50 a head", "entry is free", "free entry", "a free concert",
                                  "12 quid", "only $3", "fruit is $1 a pound, entry is $2", "$10 entry")] == [
        None, "£3.50 a head", "free", "free", None, "12 pounds", "$3", "$2", "$10"]
    assert statement(yoga, "Klaus Mueller", now=MONDAY) == \
        "there is a yoga class at Johnson Park on February 20 at 7am, and it costs $3"
    assert statement(replace(yoga, invited=("everyone",), price="free"), "Klaus Mueller", now=MONDAY) == \
        "there is a yoga class at Johnson Park on February 20 at 7am, it's free, and everyone is welcome"
    assert Fact.from_dict(yoga.to_dict()) == yoga
    with pytest.raises(Exception, match="fact.price"):
        Fact(act="be a yoga class", price=" $3")


def test_a_noun_ending_in_ss_is_no_verb_of_a_headline():
    """Seen in a Smallville run (2026-12-07): "I've postponed my art class at the library until
    Friday at 4pm" was told as "Jennifer Moore's art classing ... has been moved"; "the yoga class
    at the park on Friday" was "the yoga classing". By hand: "class" ends in "ss", no verb's -s;
    "meets" and "plays" still are."""
    places = place_names(("v:Oak Hill College:library", "v:Johnson Park", "v:The Rose and Crown Pub:pub"))
    for text, act in (("the yoga class at the park on Friday at 4pm", "be the yoga class"),
                      ("I've postponed my art class at the library until Friday at 4pm", "be the art class"),
                      ("The art club meets at the library on Friday at 4pm", "be the art club meeting"),
                      ("A jazz trio plays at the pub on Friday at 9pm", "be a jazz trio playing")):
        fact = read_fact(text, MONDAY, places, CAST, "Maria Lopez")
        assert fact is not None and fact.act == act, (text, fact)


def test_a_move_of_place_and_a_postponement_to_no_day_are_read():
    """A fresh user's second round (2026-12-07): "change of plans, the Valentine's Day party is
    moving to Johnson Park, same day, same time" was read as nothing (everyone went to Hobbs Cafe),
    and "the valentines party has been postponed til next week" too (she hosted it on Tuesday).
    By hand: a move of place alone, its hours those of the party its holder knows; put off to no
    day said is called off for now; a move's price is said with it."""
    from dataclasses import replace

    from town.memory.fact import Fact

    places = place_names(("v:Johnson Park", "v:Hobbs Cafe"))
    move = read_fact("change of plans, the Valentine's Day party is moving to Johnson Park, same day, same time",
                     MONDAY, places, CAST, "Isabella Rodriguez")
    assert move == Fact(act="be the Valentine's Day party", place="v:Johnson Park", moved=True)
    party = Fact(subject="Isabella Rodriguez", act="plan a Valentine's Day party", place="v:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
    placed = move.placed([party])
    assert placed == Fact(act="be the Valentine's Day party", place="v:Johnson Park", start=datetime(2023, 2, 14, 17),
                          end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez", moved=True)
    assert placed.calls_off(party) and not placed.calls_off(placed.moved_event(party))
    assert statement(placed, "Isabella Rodriguez", now=MONDAY) == \
        "I have moved the Valentine's Day party: it is now at Johnson Park tomorrow from 5pm to 7pm"
    later = read_fact("the valentines party has been postponed til next week, not enough RSVPs", MONDAY, places, CAST)
    assert later == Fact(act="be the valentines party", cancelled=True)
    assert read_fact("The quiz is postponed until further notice", MONDAY, places, CAST).cancelled
    assert statement(replace(placed, price="$5"), "Klaus Mueller", now=MONDAY).endswith(
        "tomorrow from 5pm to 7pm, and it costs $5")


def test_a_move_to_a_part_of_a_day_of_an_event_not_placed_is_read():
    """A fresh user's second round (2026-12-07): "the chess club has been rescheduled to friday
    evening" was read as nothing (Klaus, told it, said "I don't know anything about that"). By hand
    from Monday 13 Feb, 08:00: moved to Friday 17 Feb, the evening's usual 19:00, told by its part."""
    from town.memory.fact import Fact

    places = place_names(("v:Oak Hill College:library",))
    club = read_fact("the chess club has been rescheduled to friday evening", MONDAY, places, CAST, "Maria Lopez")
    assert club == Fact(act="be the chess club", start=datetime(2023, 2, 17, 19), part="evening", moved=True)
    assert statement(club, "Klaus Mueller", now=MONDAY) == "the chess club has been moved: it is now on Friday evening"
    there = read_fact("the chess club at the library has been rescheduled to friday evening", MONDAY, places, CAST)
    assert there is not None and (there.place, there.start) == ("v:Oak Hill College:library", datetime(2023, 2, 17, 19))


def test_a_road_closed_beside_a_place_a_feeling_and_ones_own_early_closing_are_read():
    """A fresh user's third round (2026-12-07): "the main road by the park is closed tomorrow ..."
    was read as Johnson Park closed, and spread so; "the library at Oak Hill College is closed"
    closed the whole college; "You feel exhausted and want to close the cafe early tonight" was an
    event Isabella invited people to ("Would you like to come?"). By hand from Monday 13 Feb,
    08:00: no closure of a place the closed thing is only beside; the library alone; Isabella's
    own closure of her cafe from the evening's 19:00, said by her as her doing; a feeling alone
    at no place and time."""
    from town.memory.fact import Fact

    places = place_names(("v:Johnson Park", "v:Oak Hill College", "v:Oak Hill College:library", "v:Hobbs Cafe:cafe"))
    for text in ("Heads up, the main road by the park is closed tomorrow from 8am to 5pm for roadworks, take the "
                 "back way.", "the bridge on the road to Oak Hill College is closed all day Wednesday for repairs"):
        assert read_fact(text, MONDAY, places, CAST, "Klaus Mueller") is None, text
    library = read_fact("The library at Oak Hill College is closed tomorrow.", MONDAY, places, CAST)
    assert library is not None and (library.place, library.closed) == ("v:Oak Hill College:library", True)
    park = read_fact("Johnson Park is closed tomorrow", MONDAY, places, CAST)
    assert park is not None and (park.place, park.closed) == ("v:Johnson Park", True)
    early = read_fact("I feel exhausted and want to close the cafe early tonight.", MONDAY, places, CAST,
                      "Isabella Rodriguez")
    assert early == Fact(act="close", place="v:Hobbs Cafe:cafe", start=datetime(2023, 2, 13, 19), part="evening",
                         host="Isabella Rodriguez", closed=True)
    assert statement(early, "Isabella Rodriguez", now=MONDAY) == "I am closing Hobbs Cafe early this evening"
    assert statement(early, "Klaus Mueller", now=MONDAY) == "Hobbs Cafe is closed this evening"
    passed = read_fact("I passed my physics exam with an A and want to celebrate at the cafe tomorrow at 8pm with "
                       "everyone", MONDAY, places, CAST, "Maria Lopez")  # said "I am passing my physics exam ..."
    assert passed is not None and (passed.act, passed.start) == ("celebrate", datetime(2023, 2, 14, 20))
    assert passed.invited == ("everyone",)  # "with everyone": all are asked
    feeling = read_fact("I feel like throwing a party tonight at the cafe", MONDAY, places, CAST, "Isabella Rodriguez")
    assert feeling is not None and (feeling.start, feeling.place) == (None, None)


def test_tickets_a_price_after_a_day_proceeds_and_a_move_to_a_bare_hour_are_read():
    """The same round: "Tickets for the Saturday concert at Johnson Park cost 12 dollars each" was
    told "there are tickets for the at Johnson Park"; "... moved to Saturday morning, 9 to noon,
    all proceeds go to the animal shelter" moved the animal shelter; "moved from tues to weds at
    6" kept no day. By hand from Monday 13 Feb: the concert on Saturday 18 Feb (the day's usual
    10:00) at its price, its day not said twice; the bake sale moved; Wednesday 15 Feb, its hour
    not read ("at 6": morning or evening) and the day kept."""
    from town.memory.fact import Fact

    places = place_names(("v:Johnson Park", "v:Oak Hill College:library"))
    concert = read_fact("Tickets for the Saturday concert at Johnson Park cost 12 dollars each.", MONDAY, places, CAST)
    assert concert == Fact(act="be the concert", place="v:Johnson Park", start=datetime(2023, 2, 18, 10), part="day",
                           price="12 dollars each")
    assert statement(concert, "Klaus Mueller", now=MONDAY) == \
        "the concert is at Johnson Park on Saturday, and it costs 12 dollars each"
    costs = read_fact("The concert at Johnson Park on Saturday costs 12 dollars.", MONDAY, places, CAST)
    assert costs is not None and (costs.act, costs.price) == ("be the concert", "12 dollars")
    sale = read_fact("The bake sale at the library got moved to Saturday morning, 9 to noon, all proceeds go to the "
                     "animal shelter.", MONDAY, places, CAST)
    assert sale is not None and (sale.act, sale.start, sale.moved) == ("be the bake sale", datetime(2023, 2, 18, 9), True)
    club = read_fact("yo the book club thing got moved from tues to weds at 6, same place (the library)", MONDAY,
                     places, CAST)
    assert club is not None and club.moved and club.start is not None and club.start.date() == datetime(2023, 2, 15).date()


def test_a_debt_to_the_teller_a_secret_plan_and_a_morning_closure_are_said_right():
    """The same round: Isabella's whisper "Klaus owes me 20 dollars for the coffee beans he
    borrowed" was told on as "Klaus Mueller owes me 20 dollars" (Maria remembered a debt to
    herself), "Klaus is secretly planning to move to Berlin" was "I be secretly planning" in
    Klaus's words, and the sign "will close tomorrow morning" left the market open before 10:00
    (Isabella walked there at 07:00). By hand: the debt is to Isabella, "me" in her words only;
    "I am" for its subject; the market closed from the morning's start to the day's end."""
    from town.memory.fact import Fact

    owes = read_fact("Klaus owes me 20 dollars for the coffee beans he borrowed", MONDAY, {}, CAST + ["Isabella Rodriguez"],
                     "Isabella Rodriguez")
    assert owes == Fact(subject="Klaus Mueller", act="owe Isabella Rodriguez 20 dollars for the coffee beans he borrowed")
    assert statement(owes, "Isabella Rodriguez") == "Klaus Mueller owes me 20 dollars for the coffee beans he borrowed"
    assert statement(owes, "Maria Lopez") == \
        "Klaus Mueller owes Isabella Rodriguez 20 dollars for the coffee beans he borrowed"
    secret = read_fact("Klaus is secretly planning to move to Berlin after graduation", MONDAY, {}, CAST)
    assert secret is not None
    assert statement(secret, "Klaus Mueller") == "I am secretly planning to move to Berlin after graduation"
    sign = read_fact("A sign on the door of The Willows Market says it will close tomorrow morning for renovation.",
                     MONDAY, place_names(("v:The Willows Market",)), CAST)
    assert sign is not None and sign.part == "morning"
    tuesday = datetime(2023, 2, 14)
    assert sign.closes("v:The Willows Market", tuesday.replace(hour=7), tuesday.replace(hour=8))
    assert sign.closes("v:The Willows Market", tuesday.replace(hour=15), tuesday.replace(hour=16))
    assert not sign.closes("v:The Willows Market", MONDAY.replace(hour=20), MONDAY.replace(hour=21))


def test_a_wage_is_no_cost_and_a_thing_called_off_takes_no_place_from_its_own_name():
    """The same round: "... hiring a part-time assistant ..., $15 an hour" was told "and it costs
    $15 an hour"; "The farmers market this Saturday is cancelled because of the storm forecast"
    was told of The Willows Market ("market" is a name of it). By hand: no price beside words of
    paid work; the market called off on Saturday 18 Feb at no place said."""
    from town.reading import price_of

    assert price_of("The library is hiring a part-time assistant, $15 an hour, apply by Friday") is None
    assert price_of("The pottery workshop costs $15 an hour", "be the pottery workshop") == "$15 an hour"
    places = place_names(("v:The Willows Market and Pharmacy", "v:Johnson Park"))
    off = read_fact("The farmers market this Saturday is cancelled because of the storm forecast.", MONDAY, places, CAST)
    assert off is not None and (off.act, off.place, off.cancelled) == ("be the farmers market", None, True)
    assert off.start is not None and off.start.date() == datetime(2023, 2, 18).date()
    there = read_fact("The farmers market at Johnson Park this Saturday is cancelled.", MONDAY, places, CAST)
    assert there is not None and there.place == "v:Johnson Park"


def test_a_state_before_closing_early_a_salutation_and_a_slang_whisper_in_the_second_person_are_read():
    """A fresh user's fourth round (2026-12-07): "You are worn out and are thinking of closing the
    store early tonight" (Tom) and "You're really tired and might shut the cafe at 6 tonight"
    (Isabella) were events their people were invited to, and 18 people came to the store; "Dear
    Mrs Lin, please note the parents' evening ... has been rescheduled ..." was told "Dear Mrs Lin
    has been moved"; "lol ur dog got loose again" was kept as "Lol ur dog ..." (the listener's
    dog); "You find out you passed your exam" was "I find out me passed". By hand from Monday 13
    Feb, 08:00: closures of the store from the evening's 19:00 and of the cafe at 18:00, both the
    whisperer's doing; the parents' evening moved to Wednesday 15 Feb at 16:00; the whisper in the
    persona's own words ("My dog got loose again"); "I passed"."""
    from town.perspective import inner_voice
    from town.reading import spelled_out

    places = place_names(("v:Harvey Oak Supply Store", "v:Hobbs Cafe:cafe", "v:Oak Hill College"))
    store = read_fact(inner_voice("You are worn out and are thinking of closing the store early tonight."), MONDAY,
                      places, CAST, "Maria Lopez")
    assert store is not None and (store.closed, store.place, store.start, store.host) == (
        True, "v:Harvey Oak Supply Store", datetime(2023, 2, 13, 19), "Maria Lopez")
    cafe = read_fact(inner_voice("You're really tired and might shut the cafe at 6 tonight."), MONDAY, places, CAST,
                     "Maria Lopez")
    assert cafe is not None and (cafe.closed, cafe.place, cafe.start) == (True, "v:Hobbs Cafe:cafe",
                                                                          datetime(2023, 2, 13, 18))
    moved = read_fact("Dear Mrs Lin, please note the parents' evening at Oak Hill College has been rescheduled from "
                      "Tuesday at 3 pm to Wednesday at 4 pm.", MONDAY, places, CAST)
    assert moved is not None and (moved.act, moved.moved, moved.start) == ("be the parents' evening", True,
                                                                           datetime(2023, 2, 15, 16))
    assert inner_voice(spelled_out("lol ur dog got loose again this morning, u need ppl to look out for it")) == \
        "My dog got loose again this morning, I need people to look out for it"
    assert inner_voice("You find out you passed your physics exam.") == "I find out I passed my physics exam."
    assert inner_voice("You need someone to help you carry boxes.") == "I need someone to help me carry boxes."


def test_the_passive_and_a_place_opening_late_are_read():
    """The same round: "You have been offered a job as head baker ..." was told "she offers a job
    as head baker", "I was invited to a wedding" was "I invite to a wedding"; "The Oak Hill
    College library will open late tomorrow, at 11 a.m. instead of 8 a.m., owing to a staff
    meeting" became "stay at library for the staff meeting" at 11:00 in two plans. By hand from
    Monday 13 Feb, 08:00: the passive kept ("has been offered", "is invited"); the library closed
    on Tuesday 14 Feb until 11:00, told as opening late, open from then."""
    from town.memory.fact import Fact

    offered = read_fact("I have been offered a job as head baker at a bakery in Oakridge", MONDAY, {}, CAST,
                        "Maria Lopez")
    assert offered is not None and offered.act == "have been offered a job as head baker"
    assert statement(offered, "Klaus Mueller") == "Maria Lopez has been offered a job as head baker"
    invited = read_fact("I was invited to a wedding", MONDAY, {}, CAST, "Maria Lopez")
    assert invited is not None and statement(invited, "Maria Lopez") == "I am invited to a wedding"
    places = place_names(("v:Oak Hill College", "v:Oak Hill College:library"))
    late = read_fact("The Oak Hill College library will open late tomorrow, at 11 a.m. instead of 8 a.m., owing to a "
                     "staff meeting.", MONDAY, places, CAST)
    assert late == Fact(act="close", place="v:Oak Hill College:library", start=datetime(2023, 2, 14),
                        end=datetime(2023, 2, 14, 11), closed=True)
    assert statement(late, "Klaus Mueller", now=MONDAY) == "the library of Oak Hill College opens late tomorrow, at 11am"
    tuesday = datetime(2023, 2, 14)
    assert late.closes("v:Oak Hill College:library:study table", tuesday.replace(hour=8), tuesday.replace(hour=9))
    assert not late.closes("v:Oak Hill College:library:study table", tuesday.replace(hour=11), tuesday.replace(hour=12))


def test_an_act_told_as_done_is_said_in_the_past_in_each_holders_person():
    """A fresh user's fifth round: "I just adopted a kitten named Biscuit" was passed on as "she
    adopts a kitten named Biscuit"; "You finished your research paper yesterday" was answered "Yes.
    I finish my research paper."; "Klaus quit his job" was no fact at all, and "Klaus sold his
    bike" held by Klaus was "I sell his bike". By hand: the simple past for a past or a perfect,
    in each holder's person and possessive; not for a decision about a time to come ("decided to
    throw a party ... on Friday": the party is to come) nor a past wish ("wanted to host a party
    ... yesterday": the past is the wanting's, not the party's), nor a stall set up on a day ahead, nor "I
    quit my job" with nothing saying when (its past is its present form). In Smallville "I lost my
    grey wool scarf somewhere in Johnson Park this morning" was "I am losing my grey wool scarf
    ... Would you like to come?": done earlier the same day, it is no event to go to."""
    from town.memory.fact import Fact
    from town.mind.understand import fact_of, fact_view
    from town.thinking.answers import HeardAnswer

    cast = ["Isabella Rodriguez", *CAST]
    kitten = read_fact("I just adopted a kitten named Biscuit", MONDAY, {}, cast, "Isabella Rodriguez")
    assert kitten is not None and kitten.done and kitten.act == "adopt a kitten named Biscuit"
    assert statement(kitten, "Maria Lopez") == "Isabella Rodriguez adopted a kitten named Biscuit"
    assert statement(kitten, "Isabella Rodriguez", now=MONDAY) == "I adopted a kitten named Biscuit"
    thesis = read_fact("Maria has finished her thesis", MONDAY, {}, cast)
    assert thesis is not None and thesis.done
    assert statement(thesis, "Klaus Mueller") == "Maria Lopez finished her thesis"
    assert statement(thesis, "Maria Lopez") == "I finished my thesis"
    quit_ = read_fact("Klaus quit his job", MONDAY, {}, cast)
    assert quit_ is not None and quit_.done and statement(quit_, "Klaus Mueller") == "I quit my job"
    painted = read_fact("I've finished my painting", MONDAY, {}, cast, "Isabella Rodriguez")
    assert painted is not None and statement(painted, "Klaus Mueller", pronoun="she") == \
        "Isabella Rodriguez finished her painting"
    met = read_fact("Klaus met her at the library yesterday", MONDAY, {}, cast)
    assert met is not None and statement(met, "Klaus Mueller") == "I met her"  # "her" before no noun: no "my"
    for text, own in (("Klaus decided to throw a party at Hobbs Cafe on Friday at 7pm", None),
                      ("Isabella wanted to host a party at Hobbs Cafe yesterday at 5pm", None),  # wanted, not held
                      ("Maria set up a stall at Hobbs Cafe on Friday at 9am", None),
                      ("I quit my job", "Klaus Mueller"), ("I was invited to a wedding", "Maria Lopez")):
        fact = read_fact(text, MONDAY, PLACES, cast, own)
        assert fact is not None and not fact.done, text
    last_week = read_fact("I quit my job last week", MONDAY, {}, cast, "Klaus Mueller")
    assert last_week is not None and last_week.done
    scarf = read_fact("I lost my grey wool scarf somewhere in Johnson Park this morning, I hope someone finds it",
                      MONDAY, place_names(("v:Johnson Park",)), cast, "Maria Lopez")
    assert scarf is not None and scarf.done and scarf.start == datetime(2023, 2, 13, 10)  # this morning, done by now
    assert statement(scarf, "Maria Lopez") == "I lost my grey wool scarf somewhere at Johnson Park on Monday, " \
        "February 13 in the morning"
    from town.thinking.dayplan import events_on
    from town.thinking.views import MemoryView
    lost = MemoryView(id=1, kind="whisper", importance=6, created="2023-02-13 08:00:00", fact=scarf, content="...")
    assert events_on([lost], MONDAY.date(), place_names(("v:Johnson Park",)), "Maria Lopez") == []  # no event to go to
    assert Fact.from_dict(kitten.to_dict()) == kitten
    assert not Fact.from_dict({k: v for k, v in kitten.to_dict().items() if k != "done"}).done  # an older run's
    # the scripted speaker's dialogue act carries it to the listener's fact
    heard = fact_of(HeardAnswer(importance=3, act=kitten.act, subject=kitten.subject or "",
                                done=fact_view(kitten).done), {}, "Maria Lopez")
    assert heard is not None and heard.done


def test_a_secret_a_name_typed_in_lower_case_a_typed_face_and_a_cancellation_with_no_subject_are_read():
    """A fresh user's fifth round: "Secret - i'm going to ask klaus out at the pub tomorrow night at
    9. don't tell ANYONE 🤫" (Maria) was told to Klaus himself, "There is ask klaus out at The Rose
    and Crown Pub tomorrow at 9pm"; "hobbs cafe is closd tmrw afternoon ..." was "there is closd at
    Hobbs Cafe"; "Cancelled the valentines party :( i've come down with the flu" (Isabella) was
    her flu alone, and the party went ahead. By hand from Monday 13 Feb, 08:00: Maria's own
    asking-out on Tuesday at 21:00, told in confidence, "Klaus" read as his name; the cafe closed
    on Tuesday from the afternoon; the party called off by its host; "i" written "I" and a typed
    face a sentence's end. Told plainly, or only "secretly" done, nothing is a secret. "I'm pregnant!!
    but don't tell anyone yet, it's a secret" (Jennifer, in Smallville) was told on as "she is a
    secret": the asking is no part of what is stated."""
    from town.memory.fact import Fact
    from town.reading import cased_names, spelled_out

    cast = ["Isabella Rodriguez", *CAST]
    places = place_names(("v:The Rose and Crown Pub", "v:Hobbs Cafe"))
    asking = read_fact("Secret - i'm going to ask klaus out at the pub tomorrow night at 9. don't tell ANYONE 🤫",
                       MONDAY, places, cast, "Maria Lopez")
    assert asking == Fact(subject="Maria Lopez", act="ask Klaus out", place="v:The Rose and Crown Pub",
                          start=datetime(2023, 2, 14, 21), host="Maria Lopez", secret=True)
    for text in ("I'm going to ask Klaus out at the pub tomorrow at 9pm",
                 "I'm secretly planning a surprise party for Klaus at Hobbs Cafe on Friday at 6pm"):
        plain = read_fact(text, MONDAY, places, cast, "Maria Lopez")
        assert plain is not None and not plain.secret, text
    between = read_fact("Between us, I'm planning a surprise party for Klaus at Hobbs Cafe on Friday at 6pm",
                        MONDAY, places, cast, "Maria Lopez")
    assert between is not None and between.secret and between.act == "plan a surprise party for Klaus"
    closed = read_fact("hobbs cafe is closd tmrw afternoon cuz the coffee machine broke lol", MONDAY, places, cast)
    assert closed == Fact(act="close", place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 14), part="afternoon",
                          closed=True)
    off = read_fact("Cancelled the valentines party :( i've come down with the flu", MONDAY, places, cast,
                    "Isabella Rodriguez")
    party = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="v:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), host="Isabella Rodriguez")
    assert off is not None and off.cancelled and off.host == "Isabella Rodriguez" and off.calls_off(party)
    assert spelled_out("Cancelled the party :( i've got the flu :)") == "Cancelled the party. I've got the flu"
    assert spelled_out(":) meet at 10:00, ok so i'll go") == "meet at 10:00, ok so I'll go"
    pregnant = read_fact("I'm pregnant!! but don't tell anyone yet, it's a secret", MONDAY, places, cast, "Maria Lopez")
    assert pregnant == Fact(subject="Maria Lopez", act="be pregnant", secret=True)  # the asking left out
    assert cased_names("tell klaus mueller and maria", cast) == "tell Klaus Mueller and Maria"
    assert cased_names("the marias' klausy", cast) == "the marias' klausy"  # not inside other words


def test_a_sale_lasting_until_a_day_and_you_after_an_asking_auxiliary_are_read():
    """A fresh user's fifth round, in Smallville: "Everything at Harvey Oak Supply Store is 30% off
    until Wednesday, paints included." was retold dozens of times as "There is 30% off until at
    Harvey Oak Supply Store on Wednesday!"; "MILK IS NOW $5 A GALLON AT THE WILLOWS, can u believe
    it" was kept as "can me believe it". By hand: 30% off at the store, with no day (it lasts
    until Wednesday: nothing happens on Wednesday), and "can I believe it"."""
    from town.memory.fact import Fact
    from town.perspective import inner_voice
    from town.reading import spelled_out

    places = place_names(("s:Harvey Oak Supply Store",))
    sale = read_fact("Everything at Harvey Oak Supply Store is 30% off until Wednesday, paints included.", MONDAY,
                     places, CAST, "Maria Lopez")
    assert sale == Fact(act="be 30% off", place="s:Harvey Oak Supply Store")
    assert statement(sale, "Klaus Mueller") == "there is 30% off at Harvey Oak Supply Store"
    assert inner_voice(spelled_out("MILK IS NOW $5 A GALLON AT THE WILLOWS, can u believe it")) == \
        "MILK IS NOW $5 A GALLON AT THE WILLOWS, can I believe it"
    assert inner_voice("Did you hear? you won the raffle") == "Did I hear? I won the raffle"
    assert inner_voice("Klaus will meet you at the pub") == "Klaus will meet me at the pub"


def test_the_doers_own_place_is_said_with_their_possessive():
    """A fresh user's fifth round: Klaus, asked "Who invited you to dinner?", said "Isabella told me
    that she was hosting a private dinner at Isabella Rodriguez's apartment". By hand: "at her
    apartment" when she is said by her pronoun; her full name without one; "my apartment" for
    herself."""
    from town.memory.fact import Fact

    dinner = Fact(subject="Isabella Rodriguez", act="host a private dinner", place="v:Isabella Rodriguez's apartment",
                  start=datetime(2023, 2, 14, 20), host="Isabella Rodriguez", invited=("Klaus Mueller",))
    assert statement(dinner, "Klaus Mueller", subject_as="she").startswith(
        "she is hosting a private dinner at her apartment on Tuesday")
    assert statement(dinner, "Klaus Mueller", pronoun="she").startswith(
        "Isabella Rodriguez is hosting a private dinner at her apartment")
    assert statement(dinner, "Maria Lopez").startswith(
        "Isabella Rodriguez is hosting a private dinner at Isabella Rodriguez's apartment")
    assert statement(dinner, "Isabella Rodriguez").startswith("I am hosting a private dinner at my apartment")


def test_a_place_closed_until_a_day_and_a_comma_left_by_shorthand_are_read():
    """A fresh user's sixth round: "Johnson Park is closed until Friday because they're repaving
    the paths." was "Johnson Park is closed all day on Friday" (Klaus walked to its pond that
    evening and answered "Is Johnson Park open today?" with "Yes, as far as I know."); "study
    group tmrw at 3 is off lol, prof got sick" was told "... is off , prof got sick". By hand
    from Monday 13 Feb, 08:00: closed from then until Friday 17 Feb 00:00 (Tuesday evening
    closed, Friday open), told "closed until Friday"; "is off, prof got sick"."""
    from town.memory.fact import Fact
    from town.reading import spelled_out

    places = place_names(("v:Johnson Park",))
    shut = read_fact("Johnson Park is closed until Friday because they're repaving the paths.", MONDAY, places, CAST)
    assert shut == Fact(act="close", place="v:Johnson Park", start=MONDAY, end=datetime(2023, 2, 17), closed=True)
    assert shut.closes("v:Johnson Park:pond", datetime(2023, 2, 14, 17), datetime(2023, 2, 14, 18))
    assert not shut.closes("v:Johnson Park:pond", datetime(2023, 2, 17, 17), datetime(2023, 2, 17, 18))
    assert statement(shut, "Maria Lopez", now=datetime(2023, 2, 14, 9)) == "Johnson Park is closed until Friday"
    assert spelled_out("study group tmrw at 3 is off lol, prof got sick") == \
        "study group tomorrow at 3 is off, prof got sick"


def test_a_past_on_a_weekday_is_the_week_gone_and_what_a_lost_thing_held_is_no_price():
    """A fresh user's sixth round: "Isabella got married on Sunday at the park", told on Monday,
    would be "is getting married ... on Sunday" (the coming one); "got married last Sunday" kept
    "last" in the act; "I lost my wallet at Johnson Park yesterday, it had $200 in it" was told
    "..., and it cost $200". By hand from Monday 13 Feb, 08:00: the Sunday before, 12 Feb, told
    "yesterday"; no price on a thing done."""
    places = place_names(("v:Johnson Park",))
    cast = ["Isabella Rodriguez", *CAST]
    for text in ("Isabella got married on Sunday at the park", "Isabella got married last Sunday at the park"):
        wed = read_fact(text, MONDAY, places, cast, "Maria Lopez")
        assert wed is not None and wed.done and wed.act == "get married" and wed.start == datetime(2023, 2, 12, 10), text
        assert statement(wed, "Maria Lopez", now=MONDAY) == "Isabella Rodriguez got married at Johnson Park yesterday"
    coming = read_fact("Isabella is getting married on Sunday at the park", MONDAY, places, cast, "Maria Lopez")
    assert coming is not None and not coming.done and coming.start == datetime(2023, 2, 19, 10)
    wallet = read_fact("I lost my wallet at Johnson Park yesterday, it had $200 in it", MONDAY, places, cast,
                       "Maria Lopez")
    assert wallet is not None and wallet.done and wallet.price is None
