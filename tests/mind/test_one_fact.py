"""One memory per fact: a memory's fact is filled where it is made (a scripted speaker's dialogue
act, a whisper read at its edge), and hearing a held fact again adds a teller, not a copy."""

from __future__ import annotations

from datetime import datetime

from test_converse import _talk

from town.memory import Fact, MemoryKind

T = datetime(2023, 2, 13, 7)
#: Ann's quiz as she holds it (a fact of her own memory, filled when it was made).
QUIZ = Fact(subject="Ann Able", act="host a quiz", place="w:Corner Cafe", start=datetime(2023, 2, 14, 18),
            end=datetime(2023, 2, 14, 20), host="Ann Able", invited=("everyone",))
WORDS = "I am hosting a quiz at Corner Cafe tomorrow from 6pm to 8pm."


def _ann_knows_the_quiz(sim):
    sim.personas["ann"].stream.add(kind=MemoryKind.OBSERVATION, content=WORDS, created=T, importance=7, fact=QUIZ)


def _quiz_records(persona):
    return [r for r in persona.stream.records() if r.fact is not None and r.fact.key() == QUIZ.key()]


def test_the_listener_takes_the_speakers_dialogue_act_and_no_bare_summary(tiny):
    """Ann tells Bob of her quiz: Bob's one quiz memory holds Ann's fact as she put it into words,
    Ann as its one teller; the talk held nothing else, so no summary ("I talked with Ann Able")
    is stored for Bob."""
    sim = tiny()
    _ann_knows_the_quiz(sim)
    _talk(sim, 8)
    bob = sim.personas["bob"]
    (heard,) = _quiz_records(bob)
    assert heard.kind is MemoryKind.CHAT and heard.fact == QUIZ
    assert [name for name, _ in heard.tellers] == ["Ann Able"] and heard.tellers[0][1] == heard.created
    assert not [r.content for r in bob.stream.records() if r.content.startswith("I talked with")]


def test_hearing_a_held_fact_again_adds_a_teller_not_a_copy(tiny):
    """Bob heard of the quiz from Cara at 07:00 (importance 9); Ann tells him again: still one
    quiz record, its tellers Cara then Ann, accessed when Ann told it, importance kept at 9."""
    sim = tiny()
    _ann_knows_the_quiz(sim)
    bob = sim.personas["bob"]
    first = bob.stream.add(kind=MemoryKind.CHAT, content="Cara Cole told me that Ann is hosting a quiz.",
                           created=T, importance=9, fact=QUIZ, tellers=(("Cara Cole", T),))
    before = bob.importance_acc
    _talk(sim, 8)
    (held,) = _quiz_records(bob)
    assert held.id == first.id and held.importance == 9
    assert [name for name, _ in held.tellers] == ["Cara Cole", "Ann Able"]
    assert held.last_accessed >= held.tellers[1][1] > T
    # being told again is an event perceived: it counts toward reflection beyond the new records
    written = sum(r.importance for r in bob.stream.records() if r.id > first.id)
    assert bob.importance_acc - before - written >= 1


def test_a_whisper_is_read_at_its_edge_never_from_its_probe(tiny):
    """A whispered vigil, read once where it is typed: Ann holds it at Green Park on 14 Feb
    at 20:00 (a start only: no end is made up), hosted by Ann, open to everyone; the probe's name
    is in no field."""
    sim = tiny()
    record_id = sim.whisper("ann", "You are holding a vigil at Green Park tomorrow at 8pm; everyone is welcome.",
                            probe="vigil_probe")
    record = sim.personas["ann"].stream.get(record_id)
    assert record.fact == Fact(subject="Ann Able", act="hold a vigil", place="w:Green Park",
                               start=datetime(2023, 2, 14, 20), end=None,
                               host="Ann Able", invited=("everyone",))
    assert record.probe == "vigil_probe"


def test_a_name_is_known_whole_never_as_part_of_another(tiny):
    """Ann heard of Bob Brown from Cara Cole (words only) and of the quiz from Dee Dunn (a teller
    in the fields): Cara Cole and Dee Dunn are known to her, a newcomer "Bo" is not ("Bo" is
    inside "Bob Brown")."""
    from town.mind.converse import _knows_name

    sim = tiny()
    ann = sim.personas["ann"]
    words = ann.stream.add(kind=MemoryKind.CHAT, content="Cara Cole told me that Bob Brown bakes bread.",
                           created=T, importance=4)
    teller = ann.stream.add(kind=MemoryKind.CHAT, content="Someone told me of a quiz.", created=T,
                            importance=4, fact=QUIZ, tellers=(("Dee Dunn", T),))
    records = [words, teller]
    assert [_knows_name(ann, n, records) for n in ("Cara Cole", "Dee Dunn", "Bo")] == [True, True, False]


def test_a_players_first_person_line_with_a_question_is_held_as_the_listener_understood_it(tiny):
    """Ada (a player) tells Ann "I'm holding a vigil at Green Park tomorrow at 8pm, will you
    come?": Ann's memory holds Ada's vigil, read once at the edge where Ada typed it: Ada
    holds it at Green Park on 14 Feb at 20:00 (no end made up), a statement (Ada's own plan) though it ends
    with a question, Ada its one teller."""
    from player_inputs import add_player, player_says

    sim = tiny()
    sim.run(1)
    pid = add_player(sim, "Ada")
    ann = sim.personas["ann"]
    sim.personas[pid].place(ann.x, ann.y)
    player_says(sim, pid, "I'm holding a vigil at Green Park tomorrow at 8pm, will you come?", "ann")
    sim.run(2)
    (heard,) = [r for r in ann.stream.records() if r.fact is not None and r.tellers]
    assert heard.fact == Fact(subject="Ada", act="hold a vigil", place="w:Green Park",
                              start=datetime(2023, 2, 14, 20), end=None, host="Ada")
    assert [name for name, _ in heard.tellers] == ["Ada"]


def _ann_hears(tiny, line: str) -> list[str]:
    """The chat memories Ann keeps after Ada (a player) says ``line`` to her."""
    from player_inputs import add_player, player_says

    sim = tiny()
    sim.run(1)
    pid = add_player(sim, "Ada")
    ann = sim.personas["ann"]
    sim.personas[pid].place(ann.x, ann.y)
    player_says(sim, pid, line, "ann")
    sim.run(2)
    return [r.content for r in ann.stream.records() if r.kind is MemoryKind.CHAT and r.subject == pid]


def test_a_line_stating_no_event_is_kept_as_said_never_shifted_into_the_listeners_person(tiny):
    """Three lines a persona-shifting parser garbled, kept by Ann exactly as Ada said them and
    quoted with her name: no "me should come", the closure of the cafe kept beside the party,
    "you should join us" not turned into "I should join us"."""
    for line in ("I think you should come to my party, I made a cake for you.",
                 "The cafe closes early. Isabella is planning a party at Corner Cafe tomorrow from 5pm to 7pm.",
                 "We are starting a running club at Green Park on Saturdays at 8am; you should join us!"):
        assert _ann_hears(tiny, line) == [f'Ada said to me: "{line}"']


def test_a_heard_event_is_written_from_its_fact_with_an_absolute_day(tiny):
    """Ada's "I'm holding a vigil at Green Park tomorrow at 8pm." (13 Feb): Ann's words are the
    realiser's, from the fact and its teller: Ada's "I" is "they" (a player has no pronoun), the
    day a date (14 Feb), a start only: "at 8pm", no end made up."""
    (words,) = _ann_hears(tiny, "I'm holding a vigil at Green Park tomorrow at 8pm.")
    assert words == "Ada told me that they are holding a vigil at Green Park on Tuesday, February 14 at 8pm."


def test_a_whisper_is_news_told_and_weighs_at_least_news(tiny):
    """A user whispered to Isabella "The oven at Hobbs Cafe broke, so the cafe will be closed all
    day on Wednesday; tell the regulars."; the embedded rater gave it 4, below news, and she told
    no one in 30 hours. A whisper is told to the persona, as news in a line is: at least
    ``NEWS`` (5). A rating above that stands (the vigil, her own event: 8). The oven's closure is
    now read as one (the cafe closed all Wednesday) and weighs as a public event: 4 + 2 = 6 (51
    game hours ahead: not soon)."""
    from town.importance import rate
    from town.mind.weigh import NEWS

    sim = tiny()
    oven = "The oven at the cafe broke, so the cafe will be closed all day on Wednesday."
    assert rate(oven, "whisper") < NEWS == 5  # the rater alone leaves it below news
    record = sim.personas["ann"].stream.get(sim.whisper("ann", oven))
    assert record.fact is not None and record.fact.closed and record.importance == 6 > NEWS
    vigil = sim.personas["ann"].stream.get(sim.whisper("ann", "You are holding a vigil at Green Park tomorrow at 8pm."))
    assert vigil.importance == 8
