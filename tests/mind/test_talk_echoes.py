"""A conversation that says a thing twice, found in a 30-hour the_ville run with a whisper no test
used ("The health inspector visits Hobbs Cafe on Wednesday at 10am, so I need volunteers to help
deep-clean the kitchen on Tuesday evening at 6pm.", to Isabella):

- Maria: "How lovely, Isabella! Hey, did you hear? A sign on the door of The Willows Market and
  Pharmacy says it will close today for renovation!" Isabella: "Maria, did you hear? The Willows
  Market and Pharmacy is closed!": a line opening with a reaction was not read as news, so the
  listener told the same news back instead of saying she knew;
- Klaus: "Hey, I still have to borrow a book on urban change at 13:00, Maria." ... Klaus: "Take
  care, Maria. I need to borrow a book on urban change at 13:00.": the goodbye named the plan item
  the speaker had told two lines before (only the partner's last line was compared); and "You
  know, at 19:00 I'll be having a pint at The Rose and Crown Pub, Maria." ... "Let's catch up
  again soon, Maria. I need to have a pint at The Rose and Crown Pub at 19:00." (six words in a
  row were compared, and a name's words do not count in a run).
"""

from __future__ import annotations

import random
from datetime import datetime

from dataclasses import replace

import pytest

from town.scripted import voice
from town.scripted.reply import is_news
from town.scripted.talk import closing, next_line
from town.memory.fact import Fact
from town.thinking.questions import MemoryView, NextLine

SIGN = MemoryView(id=16, kind="observation", importance=5, created="2023-02-13 09:00:00",
                  content="A sign on the door of The Willows Market and Pharmacy says it will close tomorrow morning "
                          "for renovation.")
MARIA = ("How lovely, Isabella! Hey, did you hear? A sign on the door of The Willows Market and Pharmacy says it will "
         "close today for renovation!")


def test_a_line_opening_with_a_reaction_that_goes_on_to_tell_is_news():
    """By hand: the reaction alone is no news, nor a reaction then a question; the reaction then a
    statement of five words or more is."""
    assert is_news(MARIA)
    assert not is_news("How lovely, Isabella!")
    assert not is_news("That's great, Maria! What are you busy with these days?")
    assert is_news("Good luck with it, Maria! By the way, I am writing a research paper on gentrification.")
    for accepted in ("Count me in tomorrow, Isabella! I'm glad you told me.", "I'll be there today, Sam! I wouldn't "
                     "miss it.", "I think I'll go today, Tom. I am glad you told me."):  # an answer's thanks: no news
        assert not is_news(accepted), accepted


def test_every_phrase_of_small_talk_opens_as_small_talk_and_a_lead_in_does_not():
    """Each greeting, goodbye, reaction, answer to an invitation or to "how are you" the voice
    says, its slots filled, is no news; a statement after a lead-in alone ("Hey, ", "Well, ") is."""
    phrases = (voice.HELLOS + voice.GREETINGS_AGAIN_TODAY + voice.GREETINGS_AGAIN + voice.GREETINGS_KNOWN
               + voice.GREETINGS_NEW + voice.CLOSINGS + (voice.LAST_GOODBYE, voice.NOTHING_NEW) + voice.WELL
               + voice.AGREED + voice.BACK_AGAIN + voice.KNOWN_FROM + voice.KNOWN + sum(voice.REACTIONS.values(), ())
               + voice.ACCEPTS + voice.RELAYED_ACCEPTS + voice.DECLINES_CLASH + voice.DECLINES)
    slots = dict(first="Maria", hello="Good morning", part="morning", since="Monday", name=", Maria", teller="Klaus",
                 thing="to the party ", when="today")
    for phrase in phrases:
        line = phrase.format(**slots)
        assert not is_news(line), line
        if not line.startswith(("Maria", "Hey ")):  # "Maria! Back again?", "Hey Maria!": a name, a lead-in word
            assert voice.opens_small_talk(line), line
    for lead in ("Hey, ", "Well, ", "So, ", "You know, ", "Guess what: ", "By the way, ", "Just so you know, "):
        assert is_news(f"{lead}the bakery on Main Street closes early tomorrow."), lead


@pytest.mark.parametrize("seed", range(10))
def test_news_the_listener_already_holds_is_met_with_i_know_even_after_a_reaction(seed):
    """Isabella saw the sign herself: she says she heard ("Yes, I heard about that too",
    "I know, ..."), and tells nothing back."""
    q = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Traits: friendly",
                 listener="maria_lopez", listener_name="Maria Lopez", memories=(SIGN,), now="2023-02-14 08:10:20",
                 history=(("Isabella Rodriguez", "Hello there, Maria."), ("Maria Lopez", MARIA)), seed=seed)
    line = next_line(q).line
    assert line.startswith(("Yes, I heard", "I know")), line
    assert "Willows" not in line


def test_a_goodbye_does_not_name_the_plan_item_the_speaker_told_earlier_in_the_talk():
    """Klaus's plan has "13:00 borrow a book on urban change" an hour ahead: the goodbye names it
    unless a line of the talk already did, his own included, not only the partner's last."""
    plan = MemoryView(id=4, kind="plan", importance=3, created="2023-02-14 00:00:00",
                      content="Klaus Mueller's plan for Tuesday February 14: 12:00 eat lunch; "
                              "13:00 borrow a book on urban change")
    now = datetime(2023, 2, 14, 12, 2)
    talk = ["Good afternoon, Klaus!", "Hey, I still have to borrow a book on urban change at 13:00, Maria.",
            "I'm well, thanks. I still have to study for the physics exam at 13:00."]
    fresh = closing("Maria", [plan], now, random.Random(3))
    assert fresh.endswith("I need to borrow a book on urban change at 13:00.")
    for seed in range(10):
        again = closing("Maria", [plan], now, random.Random(seed), talk)
        assert "urban change" not in again, again


def test_a_goodbye_does_not_name_the_plan_item_told_in_other_words():
    """The pub item's words all stand in Klaus's earlier line ("having a pint at The Rose and
    Crown Pub"): the goodbye names the item after it instead, or none."""
    plan = MemoryView(id=5, kind="plan", importance=3, created="2023-02-13 00:00:00",
                      content="Klaus Mueller's plan for Monday February 13: 19:00 have a pint at The Rose and Crown "
                              "Pub; 20:00 read a book at home")
    now = datetime(2023, 2, 13, 18, 5)
    talk = ["Hello again, Klaus!", "You know, at 19:00 I'll be having a pint at The Rose and Crown Pub, Maria. "
            "And how are things with you?"]
    assert closing("Maria", [plan], now, random.Random(3)).endswith("I need to have a pint at The Rose and Crown Pub "
                                                                      "at 19:00.")
    assert closing("Maria", [plan], now, random.Random(3), talk).endswith("I need to read a book at home at 20:00.")


def test_ones_own_memory_of_what_the_listener_said_is_not_told_back_to_them():
    """Maria saw the sign herself, and Klaus told her of it the day before (his line, kept): her
    own sight, in other words, is not news to him, while it is to Isabella."""
    from town.embedding import HashingEmbedder
    from town.memory import MemoryKind, MemoryRecord, MemoryStream
    from town.mind.converse import _tellable
    from town.persona import Persona
    from town.scenario import load_scenario

    spec = next(s for s in load_scenario("the_ville").personas if s.id == "maria_lopez")
    maria = Persona(spec, MemoryStream(spec.id, HashingEmbedder(dim=16)))
    maria.knows_told("klaus_mueller", "That's great to hear, Maria! You know, did you hear? A sign on the door of "
                                      "The Willows Market and Pharmacy says it will close tomorrow for renovation!")
    sight = MemoryRecord(id=17, persona="maria_lopez", kind=MemoryKind.OBSERVATION, importance=5,
                         created=datetime(2023, 2, 13, 9), last_accessed=datetime(2023, 2, 13, 9),
                         content=SIGN.content)
    assert _tellable(maria, "klaus_mueller", "Klaus Mueller", [sight]) == []
    assert _tellable(maria, "isabella_rodriguez", "Isabella Rodriguez", [sight]) == [sight]


def test_news_is_known_from_the_whole_retrieval_but_not_from_the_line_just_heard():
    """Maria had told the sign to Isabella's partner before, so it is not among what she may tell
    (``memories``), yet she holds it (``recalled``): she says she knows. The partner's line
    itself, kept the moment it was heard ("Klaus Mueller said to me: ..."), is no earlier news:
    held alone, it is met as news."""
    klaus = "Hey Maria, did you hear? A sign on the door of The Willows Market and Pharmacy says it will close today!"
    heard = MemoryView(id=30, kind="chat", importance=5, created="2023-02-14 09:05:10", tellers=("Klaus Mueller",),
                       content=f'Klaus Mueller said to me: "{klaus}"')

    def line(recalled) -> str:
        q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary="Traits: friendly",
                     listener="klaus_mueller", listener_name="Klaus Mueller", memories=(), recalled=recalled,
                     now="2023-02-14 09:05:10", history=(("Maria Lopez", "Good morning, Klaus!"),
                                                         ("Klaus Mueller", klaus)), seed=2)
        return next_line(q).line

    assert line((SIGN, heard)).startswith(("Yes, I heard", "I know"))
    assert not line((heard,)).startswith(("Yes, I heard", "I know"))


def test_no_line_echoes_an_earlier_line_of_the_talk():
    """A whole exchange of the fake model (the scripted rule) was cut by its own check: Maria's
    second "Fingers crossed, Klaus!" echoed her "Fingers crossed, Klaus! Well, I have a physics
    exam ...". Over 40 seeds, no line she says echoes a line said before (the exchange's rule)."""
    from town.thinking.questions.write_conversation import echoes

    history = (("Klaus Mueller", "Hi Maria, good morning."),
               ("Maria Lopez", "Guess what: I stream games from my dorm room most evenings, Klaus."),
               ("Klaus Mueller", "What good news, Maria! Well, I am writing a research paper on gentrification."),
               ("Maria Lopez", "Fingers crossed, Klaus! Well, I have a physics exam next week and need to study."),
               ("Klaus Mueller", "Fingers crossed, Maria! Did you hear? The paper is due at the end of the month."))
    said = set()
    for seed in range(40):
        q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary="Traits: friendly",
                     listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 07:33:00",
                     history=history, seed=seed)
        line = next_line(q).line
        said.add(line)
        assert not any(echoes(line, before) for _, before in history), line
    assert len(said) > 1


@pytest.mark.parametrize("seed", range(20))
def test_a_clause_with_its_own_mark_keeps_it_after_the_name(seed):
    """"... I'll make popcorn!, Klaus." (a whispered text passed on as it stood): the clause's own
    "!" or "?" ends the line, after the name when one is said."""
    import random
    line = voice.Voice(rng=random.Random(seed), warm=True, close=False, first="Klaus").say("I'll make popcorn!")
    assert line.endswith("popcorn!") or line.endswith("popcorn, Klaus!"), line


@pytest.mark.parametrize("seed", range(5))
def test_a_reaction_goes_by_the_news_first_clause(seed):
    """"I have a crush on Klaus Mueller; I love how passionate he is about his research!" was met
    with "Best of luck, Maria!" (a task's wish, for "research" in its second clause): the crush is
    no task ahead, so no luck is wished."""
    q = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Traits: friendly",
                 listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-13 08:09:40", seed=seed,
                 history=(("Isabella Rodriguez", "Hi Maria, good morning."), ("Maria Lopez", "I have a crush on Klaus "
                          "Mueller; I love how passionate he is about his research!")))
    line = next_line(q).line
    assert not line.startswith(voice.REACTIONS["luck"][0][:8]) and "luck" not in line.lower(), line
    closing = replace(q, history=(("Isabella Rodriguez", "Hi Maria, good morning."), ("Maria Lopez", "What good news, "
                      "Isabella! Did you hear? A sign on the door of the market says it will close today.")))
    line = next_line(closing).line  # the news after "Did you hear?" is a closing: trouble, not good news
    assert line.startswith(tuple(r.split("{")[0] for r in voice.REACTIONS["trouble"])), line


@pytest.mark.parametrize("seed", range(5))
def test_news_of_a_place_shut_is_met_as_trouble(seed):
    """"Heads up, the college library is shut tomorrow because a pipe burst" was met with
    "That's great to hear, Maria!": a place shut is trouble."""
    q = NextLine(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary="Traits: friendly",
                 listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-13 08:09:40", seed=seed,
                 history=(("Klaus Mueller", "Hi Maria, good morning."), ("Maria Lopez", "Heads up, the college library "
                          "is shut tomorrow.")))
    line = next_line(q).line
    assert line.startswith(tuple(r.split("{")[0] for r in voice.REACTIONS["trouble"])), line


@pytest.mark.parametrize("seed", range(12))
def test_an_event_told_back_to_the_one_who_holds_it_is_met_as_known(seed):
    """A fresh user's run (2026-12-07): Klaus, whispered "Prof. Hansen is giving a guest lecture on
    urban renewal at Oak Hill College in two days at 2pm", was told it back by Isabella and said
    "I might go along tomorrow, Isabella. I am glad you told me."; a host told of her own event
    thanked the teller for it. By hand: the held whisper is that event (Oak Hill College, 15 Feb
    14:00), so he says he knows it and gives no thanks; the host says it is hers."""
    from town.memory.fact import Fact

    lecture = Fact(act="be a guest lecture on urban renewal", place="the_ville:Oak Hill College",
                   start=datetime(2023, 2, 15, 14))
    told = "Guess what: according to Maria, there is a guest lecture on urban renewal at Oak Hill College tomorrow at 2pm."

    def line(fact):
        whisper = MemoryView(id=3, kind="whisper", importance=6, created="2023-02-13 07:00:00", fact=fact,
                             tellers=("Isabella Rodriguez",),
                             content="Prof. Hansen is giving a guest lecture on urban renewal at Oak Hill College on "
                                     "Wednesday at 2pm")
        q = NextLine(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary="Traits: curious",
                     listener="isabella_rodriguez", listener_name="Isabella Rodriguez", memories=(whisper,),
                     places=("the_ville:Oak Hill College",), now="2023-02-14 17:05:30",
                     history=(("Klaus Mueller", "Hi Isabella."), ("Isabella Rodriguez", told)), seed=seed)
        return next_line(q).line

    known = line(lecture)
    assert known.startswith(("I know", "Yes, I'd heard")) and "told me" not in known and "Thanks" not in known, known
    assert line(replace(lecture, subject="Klaus Mueller", act="give a guest lecture on urban renewal")) == (
        "Yes, that's mine, Isabella! I hope you can make it.")
    assert not line(replace(lecture, start=datetime(2023, 2, 16, 14))).startswith(("I know", "Yes, I'd heard"))


@pytest.mark.parametrize("seed", range(8))
def test_ones_own_plan_and_a_feeling_confided_are_not_cheered_as_news(seed):
    """A fresh user's runs (2026-12-07): "What good news, Isabella!" to "Later I'm going to cook and
    eat dinner at 21:00"; "That sounds fun, Maria!" to "I have a crush on Klaus Mueller". By hand:
    each is met from its own list of reactions."""
    def reply(said: str) -> str:
        q = NextLine(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary="Traits: friendly, warm",
                     listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-14 18:00:00",
                     history=(("Klaus Mueller", "Hi Maria."), ("Maria Lopez", said)), seed=seed)
        return next_line(q).line

    plan = reply("Later I'm going to cook and eat dinner at 21:00, Klaus.")
    assert any(plan.startswith(r.format(name=", Maria")[:10]) for r in voice.REACTIONS["plan"]), plan
    crush = reply("I have a crush on Klaus Mueller; I love how passionate he is about his research!")
    assert any(crush.startswith(r.format(name=", Maria")[:12]) for r in voice.REACTIONS["confided"]), crush


def test_a_goodbye_says_ones_own_plan_item_in_ones_own_voice():
    """A fresh Smallville run (2026-12-07): Eddy Lin said "I need to play their piano piece" (his
    day plan's block says it of him, "their"). By hand: "my"."""
    plan = MemoryView(id=4, kind="plan", importance=3, created="2023-02-14 00:00:00",
                      content="Eddy Lin's plan for Tuesday February 14: 18:00 eat dinner; 19:00 play their piano piece "
                              "at The Rose and Crown Pub")
    said = closing("Jane", [plan], datetime(2023, 2, 14, 18, 10), random.Random(1))
    assert said.endswith("I need to play my piano piece at The Rose and Crown Pub at 19:00."), said


@pytest.mark.parametrize("seed", range(6))
def test_a_party_called_off_is_trouble_and_ones_own_told_off_is_denied(seed):
    """A fresh user's run (2026-12-07): "I heard Isabella called off her Valentine's party, shame."
    was met with "How lovely, Klaus!", and Isabella, told her own party was cancelled, said "What a
    pity, Maria." By hand: a thing called off is trouble to a guest; to its host, whose party is
    on, it is not so."""
    from town.memory.fact import Fact

    told = "I heard Isabella called off her Valentine's party, shame."
    q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary="Traits: friendly",
                 listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 08:09:40", seed=seed,
                 history=(("Maria Lopez", "Hi Klaus, good morning."), ("Klaus Mueller", told)))
    line = next_line(q).line
    assert line.startswith(tuple(r.split("{")[0] for r in voice.REACTIONS["trouble"])), line
    party = MemoryView(id=1, kind="observation", importance=8, created="2023-02-13 07:00:00",
                       fact=Fact(subject="Isabella Rodriguez", act="plan a Valentine's Day party",
                                 place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 17),
                                 host="Isabella Rodriguez"),
                       content="I am planning a Valentine's Day party at Hobbs Cafe on February 14 from 5pm to 7pm.")
    host = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Traits: friendly",
                    listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-13 13:02:30", seed=seed,
                    memories=(party,), history=(("Isabella Rodriguez", "Hi Maria."),
                                                ("Maria Lopez", "Klaus told me that the Valentine's party is cancelled!")))
    line = next_line(host).line
    assert line.startswith(tuple(r.split("{")[0] for r in voice.REACTIONS["rumour"])), line


@pytest.mark.parametrize("seed", range(10))
def test_a_closure_seen_oneself_and_told_again_by_name_is_known_not_told_back(seed):
    """A fresh user's third round (2026-12-07), in every the_ville run: Maria "did you hear? The
    Willows Market and Pharmacy is closed this morning!", Isabella "That's a shame, Maria. Did you
    hear? The Willows Market and Pharmacy is closed!": her own sight of the sign, which Maria had
    also told her the day before, was skipped as Maria's, and the place's name is no topic word.
    By hand: the market held closed, named in the line: she knows it, and tells nothing back."""
    sign = replace(SIGN, tellers=("Maria Lopez",), fact=Fact(
        act="close", place="the_ville:The Willows Market and Pharmacy", start=datetime(2023, 2, 14, 10), part="morning",
        closed=True))
    q = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Traits: friendly",
                 listener="maria_lopez", listener_name="Maria Lopez", recalled=(sign,), now="2023-02-14 08:09:40",
                 places=("the_ville:The Willows Market and Pharmacy", "the_ville:Hobbs Cafe"),
                 history=(("Isabella Rodriguez", "Hello there, Maria."),
                          ("Maria Lopez", "Hey, did you hear? The Willows Market and Pharmacy is closed this morning!")),
                 seed=seed)
    line = next_line(q).line
    assert line.startswith(("Yes, I heard", "I know")), line
    assert "Willows" not in line


@pytest.mark.parametrize("news, kind", [
    ("Did you hear? Klaus owes me 20 dollars for the coffee beans he borrowed, Maria!", "plain"),
    ("I heard it from Klaus in person: he needs more sources!", "plain"),
    ("Did you hear? There is a concert at Johnson Park on Saturday!", "good"),
    ("Did you hear? Maria won the chess tournament!", "good"),
    ("Did you hear? The main road by the park is closed for roadworks tomorrow!", "trouble"),
    ("So, I owe Tom Moreno 200 dollars and I am anxious about paying it back.", "trouble"),
    ("Did you hear? My dog got loose again today!", "trouble"),
    ("Guess what: I have been offered a job as head baker at a bakery in Oakridge, Maria!", "good"),
])
def test_news_neither_glad_nor_bad_is_met_plainly(news, kind):
    """The same round: "Klaus owes me 20 dollars ..." and "he needs more sources!" were met with
    "What good news, Maria!". By hand: a debt and a need are met plainly ("I see. Thanks."), an
    event on a day or a win gladly, a closure as trouble; the reaction opens the line."""
    q = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Traits: friendly",
                 listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-13 09:00:00",
                 history=(("Isabella Rodriguez", "Hello there, Maria."), ("Maria Lopez", news)), seed=3)
    line = next_line(q).line
    reactions = {k: [r.format(name=", Maria") for r in v] for k, v in voice.REACTIONS.items()}
    assert any(line.startswith(r) for r in reactions[kind]), line
