"""Reflection's insights are sentences about a person, a place, an event, a talk or an activity,
each resting on two or more retrieved memories that support it (Park et al. 2023 §4.2). Every
expected insight is worked out by hand from its stream and the rules of
town.scripted.insight."""

from __future__ import annotations

from town.thinking.questions import Insights, MemoryView
from town.scripted import ScriptedBackend

PEOPLE = ("Ann Able", "Carmen Ortiz", "Maria Lopez", "Klaus Mueller", "Isabella Rodriguez", "Latoya Williams")
PLACES = ("w:Hobbs Cafe", "w:Hobbs Cafe:cafe", "w:Park", "w:Ann's home", "w:The Rose and Crown Pub", "w:Oak Hill College")
AT_CAFE = "{} is at the counter of the cafe in Hobbs Cafe: order a coffee."
PARTY = ('{} told me: "Isabella Rodriguez told me: "I am planning a Valentine\'s Day party at Hobbs Cafe '
         'tomorrow from 5pm to 7pm.""')


def _insights(*stream, focal: str = "What have I been spending my time on?", now: str = "2023-02-13 12:00:00", ties=(),
              home: str = ""):
    """``stream``: (kind, text, created "HH:MM" on 13 Feb) per memory, ids in order."""
    memories = tuple(MemoryView(id=i, content=text, kind=kind, importance=5, created=f"2023-02-13 {hm}:00")
                     for i, (kind, text, hm) in enumerate(stream))
    q = Insights(persona="ann", persona_name="Ann Able", focal_point=focal, memories=memories,
                 people=PEOPLE, places=PLACES, now=now, ties=ties, home=home)
    return [(i.text, i.evidence) for i in ScriptedBackend().ask(q).insights]


def test_a_person_seen_at_one_place_again_and_again():
    """Three sightings of Carmen at Hobbs Cafe, at 08:10, 09:20 and 10:30 ("3 times so far, first at
    08:10"), all on 13 Feb: one day claims no habit ("most mornings" needs two days:
    tests/mind/test_chat_lines_read_right.py). The park memory supports nothing."""
    assert _insights(("observation", AT_CAFE.format("Carmen Ortiz"), "08:10"),
                     ("observation", AT_CAFE.format("Carmen Ortiz"), "09:20"),
                     ("observation", "The park has new benches.", "09:40"),
                     ("observation", AT_CAFE.format("Carmen Ortiz"), "10:30")) == [
        ("I see Carmen at Hobbs Cafe today: 3 times so far, first at 08:10.", [0, 1, 3])]


def test_a_place_where_several_people_are_met():
    """Maria and Klaus each seen at Hobbs Cafe at 14:00 and 16:00 (14:30, 16:30): two visits each,
    over an hour apart: one insight about the place (their sightings, each one's in turn), then
    Maria's two times there (the first seen)."""
    assert _insights(("observation", AT_CAFE.format("Maria Lopez"), "14:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "14:30"),
                     ("observation", AT_CAFE.format("Maria Lopez"), "16:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "16:30")) == [
        ("Hobbs Cafe is where I keep running into Maria and Klaus.", [0, 2, 1, 3]),
        ("I see Maria at Hobbs Cafe today: 2 times so far, first at 14:00.", [0, 2])]


def test_people_met_on_one_visit_or_ones_household_are_not_kept_running_into():
    """Found (Smallville, 36 h): "Town Hall is where I keep running into ..." after one visit, and
    Mei Lin's "Oak Hill College is where I keep running into Eddy and Wolfgang" (Eddy: "my son").
    Maria and Klaus each seen twice within 20 minutes (14:00, 14:20; 14:05, 14:25): one visit each,
    nothing. Seen on two visits each, but Klaus is Ann's son: not the place; Maria's two times are.
    Found too: Rajiv's "I see Francisco at Artist's co-living space ...", their shared home: with
    Hobbs Cafe Ann's home, nothing."""
    assert _insights(("observation", AT_CAFE.format("Maria Lopez"), "14:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "14:05"),
                     ("observation", AT_CAFE.format("Maria Lopez"), "14:20"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "14:25")) == [("Nothing stands out to me yet.", [0])]
    assert _insights(("observation", AT_CAFE.format("Maria Lopez"), "14:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "14:30"),
                     ("observation", AT_CAFE.format("Maria Lopez"), "16:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "16:30"),
                     ties=(("Klaus Mueller", "my son, who studies music theory"),)) == [
        ("I see Maria at Hobbs Cafe today: 2 times so far, first at 14:00.", [0, 2])]
    assert _insights(("observation", AT_CAFE.format("Maria Lopez"), "14:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "14:30"),
                     ("observation", AT_CAFE.format("Maria Lopez"), "16:00"),
                     ("observation", AT_CAFE.format("Klaus Mueller"), "16:30"),
                     home="Hobbs Cafe") == [("Nothing stands out to me yet.", [0])]


_LATOYA = 'I talked with Latoya Williams: Latoya said "{}"'
#: Five talks with Latoya an hour apart, each a line of small talk or one whose words recur as no
#: topic: "along", "way", "come", "thanks", "I'll", and "Crown Pub", "Hill College" (pieces of names).
_SMALL_TALKS = (_LATOYA.format("I might go along on Tuesday, February 14, Ann. Good to know"),
                _LATOYA.format("By the way, I'm on my way to The Rose and Crown Pub, Ann"),
                _LATOYA.format("Sounds lovely, I'll come on Tuesday, Ann. Thanks for telling me"),
                _LATOYA.format("I'll see you at The Rose and Crown Pub at 19:00. Come along, Ann!"),
                _LATOYA.format("Thanks, I'll pass by Oak Hill College on my way, Ann"))


def test_a_talk_topic_is_a_thing_talked_about_not_a_word_of_small_talk_or_a_piece_of_a_name():
    """Found (Smallville, 36 h): "Latoya and I keep ending up talking about the along." ("the way",
    "the come", "the thanks", "the i'll and the sounds", "the Crown Pub", "the Hill College").
    The five talks above tell no topic: a topic is a noun standing after a determiner ("along",
    "come", "thanks", "I'll" are no nouns; "way" is no topic; "Crown", "Pub", "Hill", "College" are
    words of places' names) in a statement that is no small talk. Three talks more: "the
    Valentine's Day party" told at 15:00 and 17:00 (ids 5, 7); 16:00's is a question (6)."""
    assert _insights(*(("chat", t, f"{10 + i}:00") for i, t in enumerate(_SMALL_TALKS)),
                     now="2023-02-13 20:00:00") == [("Nothing stands out to me yet.", [0])]
    party = (_LATOYA.format("I am bringing a cake to the Valentine's Day party at Hobbs Cafe, Ann"),
             _LATOYA.format("Isn't the Valentine's Day party lovely? What's new with you, Ann?"),
             _LATOYA.format("I am baking for the Valentine's Day party, Ann"))
    assert _insights(*(("chat", t, f"{10 + i}:00") for i, t in enumerate(_SMALL_TALKS + party)),
                     now="2023-02-13 20:00:00") == [
        ("Latoya and I keep ending up talking about the Valentine's Day party.", [5, 7])]


def test_an_event_everyone_is_talking_about():
    """Isabella's party, heard from Maria (10:00) and from Klaus (11:00), on 14 Feb (tomorrow at
    noon on the 13th). Two tellers: everyone; one teller: that teller keeps telling me."""
    assert _insights(("chat", PARTY.format("Maria Lopez"), "10:00"), ("chat", PARTY.format("Klaus Mueller"), "11:00"),
                     focal="What do I know about the party?") == [
        ("Isabella's Valentine's Day party tomorrow is what everyone is talking about: Klaus and Maria told me.", [0, 1])]
    assert _insights(("chat", PARTY.format("Maria Lopez"), "10:00"), ("chat", PARTY.format("Maria Lopez"), "11:00")) == [
        ("Maria keeps telling me about Isabella's Valentine's Day party tomorrow.", [0, 1])]
    # the day after the party it is news no more
    assert _insights(("chat", PARTY.format("Maria Lopez"), "10:00"), ("chat", PARTY.format("Klaus Mueller"), "11:00"),
                     now="2023-02-15 09:00:00")[0][1] == [0]


def test_talk_with_a_person_that_keeps_coming_back_to_one_topic():
    """Three memories of talk with Maria; "streaming" is the one topic word in two of them (0, 1)."""
    assert _insights(("chat", "I talked with Maria Lopez: her streaming channel on Twitch.", "10:00"),
                     ("chat", 'Maria Lopez told me: "I am streaming tonight at nine."', "11:00"),
                     ("chat", "I talked with Maria Lopez: the weather.", "12:00")) == [
        ("Whenever Maria and I talk, we end up on streaming.", [0, 1])]


def test_an_activity_of_ones_own():
    assert _insights(("observation", "I read a book about music history in my armchair.", "20:00"),
                     ("observation", "I read the newspaper at breakfast.", "07:30")) == [
        ("I have been reading a lot lately.", [0, 1])]


def test_nothing_rests_on_one_memory():
    """One memory of each kind: no insight; the answer cites one id, so reflection writes nothing."""
    one = _insights(("observation", AT_CAFE.format("Carmen Ortiz"), "08:10"),
                    ("chat", PARTY.format("Maria Lopez"), "10:00"),
                    ("chat", "I talked with Klaus Mueller: his paper on gentrification.", "11:00"),
                    ("observation", "I read a book about music history in my armchair.", "20:00"))
    assert one == [("Nothing stands out to me yet.", [0])]


def test_an_insight_already_thought_is_not_thought_again():
    """A retrieved reflection saying the same thing: the rule has nothing new."""
    assert _insights(("observation", AT_CAFE.format("Carmen Ortiz"), "08:10"),
                     ("observation", AT_CAFE.format("Carmen Ortiz"), "09:20"),
                     ("reflection", "I see Carmen at Hobbs Cafe most mornings.", "10:00")) == [
        ("Nothing stands out to me yet.", [0])]


def test_the_focal_points_subject_comes_first():
    """Both a sighting pattern (Carmen) and a party pattern; asked about the party, the party first."""
    stream = (("observation", AT_CAFE.format("Carmen Ortiz"), "08:10"),
              ("observation", AT_CAFE.format("Carmen Ortiz"), "09:20"),
              ("chat", PARTY.format("Maria Lopez"), "10:00"), ("chat", PARTY.format("Klaus Mueller"), "11:00"))
    assert [t for t, _ in _insights(*stream, focal="What do I know about the party?")] == [
        "Isabella's Valentine's Day party tomorrow is what everyone is talking about: Klaus and Maria told me.",
        "I see Carmen at Hobbs Cafe today: 2 times so far, first at 08:10."]
    assert [t for t, _ in _insights(*stream, focal="How do I feel about Carmen Ortiz?")][0] == (
        "I see Carmen at Hobbs Cafe today: 2 times so far, first at 08:10.")


def test_a_talk_topic_that_is_a_thing_takes_the_article_and_yesterdays_insight_counts_as_thought():
    """"paper" in both talks with Klaus (not "tomorrow": the calendar is no topic). The party
    insight already thought yesterday ("... tomorrow ...") is not thought again today."""
    assert _insights(("chat", "I talked with Klaus Mueller: his paper, due tomorrow.", "10:00"),
                     ("chat", 'Klaus Mueller told me: "My paper is nearly done, tomorrow I send it."', "11:00")) == [
        ("Klaus and I always seem to get onto the paper.", [0, 1])]
    thought = ("reflection", "Isabella's Valentine's Day party tomorrow is what everyone is talking about.", "09:00")
    assert _insights(thought, ("chat", PARTY.format("Maria Lopez"), "10:00"),
                     ("chat", PARTY.format("Klaus Mueller"), "11:00"), now="2023-02-14 08:00:00")[0][0] == (
        "Nothing stands out to me yet.")


def test_an_insight_held_in_other_words_is_not_new():
    """Held: "I see Carmen at Hobbs Cafe most afternoons." (topic words see, carmen, hobbs, cafe,
    most, afternoons). Two morning sightings would say "I see Carmen at Hobbs Cafe most mornings:
    2 times so far.", which shares 5 of the held one's 6 words (at least four in five): the same
    insight in other words, so nothing new."""
    assert _insights(("observation", AT_CAFE.format("Carmen Ortiz"), "08:10"),
                     ("observation", AT_CAFE.format("Carmen Ortiz"), "09:20"),
                     ("reflection", "I see Carmen at Hobbs Cafe most afternoons.", "10:00")) == [
        ("Nothing stands out to me yet.", [0])]


def test_two_people_in_a_town_word_the_same_kind_of_insight_their_own_way():
    """Smallville, 36 h (2026-12-07): three personas reflected the one sentence "Isabella and I keep
    ending up talking about the Valentine's Day party.", and four of 36 reflections were repeats.
    A talk insight's wording is one of three, by a checksum of the pair's names (zlib.crc32 of
    "Ann Able|Klaus Mueller" is 2 mod 3, of "Maria Lopez|Klaus Mueller" 0): the same two talks
    with Klaus, held by Ann and by Maria, read differently, and each the same every run."""
    talks = (MemoryView(id=0, kind="chat", importance=4, created="2023-02-13 10:00:00",
                        content="I talked with Klaus Mueller: his paper on gentrification."),
             MemoryView(id=1, kind="chat", importance=4, created="2023-02-13 11:00:00",
                        content='Klaus Mueller told me: "My paper on gentrification is nearly done."'))

    def said(me: str) -> list[str]:
        q = Insights(persona="p", persona_name=me, focal_point="What have I been spending my time on?",
                     memories=talks, people=PEOPLE, places=PLACES, now="2023-02-13 12:00:00")
        return [i.text for i in ScriptedBackend().ask(q).insights]

    assert said("Ann Able") == ["Klaus and I always seem to get onto the paper on gentrification."]
    assert said("Maria Lopez") == ["Klaus and I keep ending up talking about the paper on gentrification."]
