"""Reading faults of the one answerer, each on the answer a Smallville run gave before the fix.

Worked out by hand from the records below: Mei Lin's file calls John Lin "my husband" (her
description never says "married"); Isabella told Tom of her own party (so "she", not her name
again); Tom heard of that party twice, worded two ways (one event: told once); Mei's routine
block "cook and eat dinner" has two verbs; Tom's plan at 10:00 is his shift at the market, so a
power cut stops that shift until it is back, and a lottery win is good news that leaves it in place."""

from __future__ import annotations

from datetime import datetime

from town.inflection import gerund
from town.memory.fact import Fact, PlanItem
from town.reading import read_situation
from town.scripted import ScriptedBackend
from town.scripted.interview import kind_of
from town.thinking.questions import AnswerInterview, MemoryView, PlanItemView

NOW = "2023-02-14 10:00:00"
PARTY = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="smallville:Hobbs Cafe",
             start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
SAME_PARTY = Fact(act="be a Valentine's Day party", place="smallville:Hobbs Cafe",
                  start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
TOM = dict(persona="tom_moreno", persona_name="Tom Moreno",
           persona_summary="Tom Moreno, 51. Traits: reserved, practical. Tom Moreno runs the market counter.")
TOM_ROUTINE = (
    PlanItemView(start="00:00", end="07:00", description="sleeping", place="smallville:Moreno house:bedroom:bed"),
    PlanItemView(start="08:00", end="16:00", description="work the market counter",
                 place="smallville:The Willows Market and Pharmacy:store:counter", task="work"),
    PlanItemView(start="19:00", end="22:00", description="watch a ball game on the sofa",
                 place="smallville:Moreno house:living room:sofa"),
)
TOM_PLAN = tuple(PlanItem(start=datetime(2023, 2, 14, h0), end=datetime(2023, 2, 14, h1), description=d, place=p)
                 for h0, h1, d, p in ((0, 7, "sleeping", "smallville:Moreno house:bedroom:bed"),
                                      (8, 16, "work the market counter",
                                       "smallville:The Willows Market and Pharmacy:store:counter"),
                                      (19, 22, "watch a ball game on the sofa",
                                       "smallville:Moreno house:living room:sofa")))
TOM_MEMORIES = (
    MemoryView(id=11, kind="chat", importance=6, created="2023-02-13 09:00:00", fact=PARTY,
               tellers=("Isabella Rodriguez",),
               content="Isabella Rodriguez told me that she is hosting a Valentine's Day party at Hobbs Cafe"),
    MemoryView(id=12, kind="chat", importance=6, created="2023-02-13 12:00:00", fact=SAME_PARTY,
               tellers=("Maria Lopez",),
               content="Maria Lopez told me that there is a Valentine's Day party at Hobbs Cafe"),
    MemoryView(id=13, kind="plan", importance=3, created="2023-02-14 00:00:00", plan_items=TOM_PLAN,
               content="Tom Moreno's plan for Tuesday February 14"),
)
PEOPLE = ("Tom Moreno", "Isabella Rodriguez", "Maria Lopez", "Mei Lin", "John Lin")


def _tom(question: str) -> str:
    return ScriptedBackend().ask(AnswerInterview(**TOM, question=question, memories=TOM_MEMORIES, now=NOW,
                                                 routine=TOM_ROUTINE, people=PEOPLE)).answer


def test_a_hypothetical_is_answered_from_what_its_situation_touches():
    """Before: both began "I'd keep to myself and wait it out quietly" and went on "I'd still try to
    work the market counter": one answer, whatever the situation."""
    assert read_situation("What would you do if the power went out?", [], PEOPLE).affects == ("power",)
    assert read_situation("What would you do if you won the lottery?", [], PEOPLE).good is True
    power = _tom("What would you do if the power went out?")
    lottery = _tom("What would you do if you won the lottery?")
    assert power == ("I'd keep to myself and wait it out quietly; I'm reserved that way. I'd be working the "
                     "market counter at The Willows Market and Pharmacy then; people count on me there, so I'd get "
                     "back to it as soon as the power came back.")
    assert lottery == ("I'd keep it to myself and take my time; I'm reserved that way. With the money, I'd make more "
                       "time for watching a ball game on the sofa. I'd still go and work the market counter at The "
                       "Willows Market and Pharmacy, since people count on me there.")


def test_a_teller_telling_their_own_event_is_said_with_a_pronoun_and_one_event_is_told_once():
    """Before: "I heard it from Isabella directly: Isabella is hosting ..." and then Maria's "there is
    a Valentine's Day party ..." as a second piece of news about the same party."""
    said = _tom("Have you heard any news lately?")
    assert said == ("Maria told me that there is a Valentine's Day party, hosted by Isabella Rodriguez, at Hobbs "
                    "Cafe today from 5pm to 7pm.")
    only_isabella = ScriptedBackend().ask(AnswerInterview(
        **TOM, question="Have you heard any news lately?", memories=TOM_MEMORIES[:1], now=NOW,
        routine=TOM_ROUTINE, people=PEOPLE)).answer
    assert only_isabella == ("Isabella told me that she is hosting a Valentine's Day party at Hobbs Cafe today from "
                             "5pm to 7pm.")


def test_each_coordinated_verb_of_a_plan_item_is_inflected():
    """Before: "cooking and eat dinner"."""
    assert gerund("cook and eat dinner") == "cooking and eating dinner"
    assert gerund("take a shower and get dressed") == "taking a shower and getting dressed"
    assert gerund("have bread and butter") == "having bread and butter"  # a noun after "and" stays


def test_your_husband_is_the_one_the_files_relationships_call_so():
    """Before: "I don't know anyone called your husband." (Mei's description says "her husband
    John Lin" only in the relationships, never "married to")."""
    mei = AnswerInterview(persona="mei_lin", persona_name="Mei Lin", question="How do you feel about your husband?",
                          persona_summary="Mei Lin, 45. Traits: caring, patient. Mei Lin is a philosophy professor.",
                          now=NOW, people=PEOPLE, ties=(("John Lin", "my husband, who runs the pharmacy counter"),),
                          memories=(MemoryView(id=5, kind="chat", importance=4, created="2023-02-14 07:10:00",
                                               content="I talked with John Lin about breakfast."),))
    said = ScriptedBackend().ask(mei).answer
    assert said == "I like John: we talked today."


POSTER = MemoryView(id=14, kind="chat", importance=5, created="2023-02-14 08:00:00", tellers=("Yuriko Yamamoto",),
                    fact=Fact(act="say the election for mayor of Smallville is"),
                    content='Yuriko Yamamoto said to me: "Did you hear? A poster at Town Hall says the election '
                            'for mayor of Smallville is next month."')


def test_a_fact_with_nobody_to_say_it_of_is_not_told():
    """Before: "Yuriko told me that say the election for mayor of Smallville is." (a poster's words,
    read with no person as their subject)."""
    said = ScriptedBackend().ask(AnswerInterview(**TOM, question="How has your day been so far?",
                                                 memories=(*TOM_MEMORIES, POSTER), now=NOW, routine=TOM_ROUTINE,
                                                 people=PEOPLE)).answer
    assert said == "So far today I've talked with Yuriko. Earlier I was working the market counter."


def test_would_you_rather_chooses_between_the_two_places_it_names():
    """Before: "I like watching the news on the sofa best" (the favourite pastime, neither option).
    Tom's plan holds 3 hours at home (the ball game) and none at Hobbs Cafe."""
    said = _tom("Would you rather spend an evening at home or at Hobbs Cafe?")
    assert said == ("I'd rather spend an evening at home: it's part of most of my days, and I hardly ever do "
                    "the other.")


def test_a_teller_quoted_on_their_own_plan_is_retold_with_their_files_pronoun():
    """Before: "Sam told me that they decide to run for mayor of Smallville." (his words were
    quoted, so the memory holds no pronoun; his file says he/him)."""
    sam = MemoryView(id=15, kind="chat", importance=5, created="2023-02-13 08:20:50", tellers=("Sam Moore",),
                     fact=Fact(subject="Sam Moore", act="decide to run for mayor of Smallville"),
                     content='Sam Moore said to me: "You know, I have decided to run for mayor of Smallville."')
    said = ScriptedBackend().ask(AnswerInterview(**TOM, question="Any news?", memories=(sam,), now=NOW,
                                                 routine=TOM_ROUTINE, people=(*PEOPLE, "Sam Moore"),
                                                 pronouns=(("Sam Moore", "he"),))).answer
    assert said == "Sam told me that he has decided to run for mayor of Smallville."


def test_small_talk_about_the_weather_is_answered_in_kind():
    """Before: "Lovely weather today, isn't it?" got "I don't know anything about that." A remark
    with a tag question is small talk: agreed with, never refused."""
    said = _tom("Lovely weather today, isn't it?")
    assert said.startswith("It is, isn't it?")
    assert "don't know" not in said
    assert kind_of("What would you do if it was raining all day?") == "hypothetical"  # a question, not a remark


def test_are_you_x_is_answered_yes_or_no_with_ones_own_name():
    """Before: "Are you Ryan Park?" asked of Ryan got "No, I don't know anything about that." Tom
    is Tom Moreno, and is not Maria Lopez."""
    assert _tom("Are you Tom Moreno?").startswith("Yes, I am Tom Moreno.")
    assert _tom("Are you Maria Lopez?").startswith("No, I am Tom Moreno.")


def test_name_and_work_asked_together_get_both():
    """Before: "What is your name and what do you do?" gave the name only. Tom's file says he runs
    the market counter."""
    assert _tom("What is your name and what do you do?") == "I am Tom Moreno. I run the market counter."


def test_who_is_x_to_you_reads_the_name_without_to_you():
    """Before: "Who is Giorgio Rossi to you?" got "I don't know anyone called Giorgio Rossi to you."
    Tom heard from Maria Lopez of the party, so he knows her by that."""
    said = _tom("Who is Maria Lopez to you?")
    assert "to you" not in said and "don't know anyone" not in said
    assert "Maria" in said


def test_a_meal_asked_about_is_read_from_the_days_plan():
    """Before: "What did you have for breakfast?" got "I don't know" though the plan held it. At
    10:00 Tom's 07:00 breakfast is past and his 12:00 lunch is to come."""
    plan = (PlanItem(start=datetime(2023, 2, 14, 7), end=datetime(2023, 2, 14, 8), description="eat breakfast",
                     place="smallville:Moreno house:kitchen:table"),
            PlanItem(start=datetime(2023, 2, 14, 12), end=datetime(2023, 2, 14, 13), description="have lunch",
                     place="smallville:Hobbs Cafe:cafe:counter"))
    memories = (*TOM_MEMORIES[:2], MemoryView(id=14, kind="plan", importance=3, created="2023-02-14 00:00:00",
                                              plan_items=plan, content="Tom Moreno's plan for Tuesday February 14"))

    def ask(question: str):
        return ScriptedBackend().ask(AnswerInterview(**TOM, question=question, memories=memories, now=NOW,
                                                     routine=TOM_ROUTINE, people=PEOPLE))

    breakfast = ask("What did you have for breakfast?")
    assert breakfast.answer == "At 07:00 I was eating breakfast at Moreno house." and breakfast.evidence == [14]
    assert ask("What will you have for lunch?").answer == "At 12:00 I'll be having lunch at Hobbs Cafe."


def test_one_insight_told_by_more_people_later_is_said_once():
    """Before: "If you could change one thing...?" said the party insight twice, once with "Mei and
    Rajiv told me" and once with four tellers: the same insight, so said once."""
    insights = tuple(MemoryView(id=i, kind="reflection", importance=5, created=c, content=(
        f"The Valentine's Day party on Tuesday, February 14 is what everyone is talking about: {who} told me."))
        for i, c, who in ((21, "2023-02-13 17:00:00", "Maria and Isabella"),
                          (22, "2023-02-14 08:00:00", "John, Mei, Maria and Isabella")))
    said = ScriptedBackend().ask(AnswerInterview(
        **TOM, question="If you could change one thing about Smallville, what would it be?", memories=insights,
        now=NOW, routine=TOM_ROUTINE, people=PEOPLE))
    assert said.answer.count("everyone is talking about") == 1 and said.evidence == [21]


def test_chat_shorthand_is_read_as_the_words_it_stands_for():
    """Before: "So like, wat r u even doing w/ ur life rn lol" got a refusal. Read as "what are you
    even doing with your life right now", it asks of Tom's work: his file says he runs the counter."""
    assert _tom("So like, wat r u even doing w/ ur life rn lol") == "I run the market counter."


def test_a_line_kept_as_said_answers_when_only_it_bears_on_the_thing_asked():
    """Before: "What do you think of the election?" got "I don't know" from a persona who was told
    of a run for mayor in a line kept as said. Only that line names the election, so it is told,
    quoted, without the vocative ", Tom"; the party news does not bear on it."""
    heard = MemoryView(id=15, kind="chat", importance=6, created="2023-02-14 09:30:00",
                       content='Maria Lopez said to me: "I have decided to run for mayor in the local election, Tom."')
    said = ScriptedBackend().ask(AnswerInterview(**TOM, question="What do you think of the election?",
                                                 memories=(*TOM_MEMORIES, heard), now=NOW, routine=TOM_ROUTINE,
                                                 people=PEOPLE))
    assert said.answer == 'Maria Lopez told me: "I have decided to run for mayor in the local election."'
    assert said.evidence == [15]
