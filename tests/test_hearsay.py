"""town.hearsay and town.perspective: a heard line kept as one level of hearsay, in the
listener's perspective, and read back. Expected values are worked out by hand from the rules in
the modules' docstrings (person of the subject, the verb's form, days)."""

from datetime import datetime

from town.hearsay import HEARD, depth, pronoun_of, told, unwrap
from town.perspective import (
    inner_voice,
    meaning,
    own_voice,
    relative_days,
    shared_run,
    third_person,
)
from town.textevent import absolute_days

MONDAY = datetime(2023, 2, 13, 10, 0)


def test_a_heard_statement_is_one_level_with_who_told_it():
    text = told("Klaus Mueller", "Isabella Rodriguez is planning a party.")
    assert text == "Klaus Mueller told me that Isabella Rodriguez is planning a party."
    assert unwrap(text) == (["Klaus Mueller"], "Isabella Rodriguez is planning a party.")
    assert depth(text) == 1
    assert told("Ada", "The market is closed.") == "Ada told me that the market is closed."


def test_older_nested_quotes_still_read_and_count_as_deep():
    old = 'Klaus Mueller told me: "Isabella Rodriguez told me: "The party is on Friday at 5pm.""'
    assert unwrap(old) == (["Klaus Mueller", "Isabella Rodriguez"], "The party is on Friday at 5pm.")
    assert depth(old) == 2


def test_own_words_are_heard_from_nobody():
    """A memory in the persona's own words (even one quoting someone) has no teller."""
    assert unwrap('I said "hello" to Maria.') == ([], 'I said "hello" to Maria.')
    assert HEARD.match("Maria told me about a book.") is None
    assert unwrap("Klaus Mueller told me he is writing a paper.") == (["Klaus Mueller"], "Klaus Mueller is writing a paper.")


def test_a_teller_speaking_of_themselves_is_named_once():
    """Worked by hand: the statement opens with the teller's own name, so the file's "she" or "he"
    stands in (without one, the first name); the name is read back as the statement's subject. A
    possessive ("Isabella Rodriguez's party") is not the teller as subject and is kept."""
    text = told("Isabella Rodriguez", "Isabella Rodriguez is planning a party at Hobbs Cafe.", "she")
    assert text == "Isabella Rodriguez told me that she is planning a party at Hobbs Cafe."
    assert unwrap(text) == (["Isabella Rodriguez"], "Isabella Rodriguez is planning a party at Hobbs Cafe.")
    assert pronoun_of(text) == "she" and pronoun_of("Ann told me that the shop is shut.") is None
    assert told("Isabella", "Isabella Rodriguez is planning a party.", "she") == "Isabella told me that she is planning a party."
    assert told("Sam Moore", "Sam Moore has decided to run.", "they") == "Sam Moore told me that Sam has decided to run."
    assert told("Isabella Rodriguez", "Isabella Rodriguez's party is tomorrow.", "she") == (
        "Isabella Rodriguez told me that Isabella Rodriguez's party is tomorrow.")


def test_a_retelling_names_the_teller_once_then_uses_their_pronouns():
    """Worked by hand: the first "I" is the name, later ones the file's pronoun with the verb
    agreeing ("she wants", "they want", "they are"); "my", "me", "mine", "myself" follow. Without
    pronouns the first name stands in, as before."""
    said = "I am planning a party, and I want to invite everyone I meet."
    assert third_person(said, "Isabella Rodriguez", "she") == (
        "Isabella Rodriguez is planning a party, and she wants to invite everyone she meets.")
    assert third_person(said, "Isabella Rodriguez") == (
        "Isabella Rodriguez is planning a party, and Isabella wants to invite everyone Isabella meets.")
    assert third_person("I was at my desk, and I'm tired; it's mine, so tell me. I did it myself.", "Sam Lee", "they") == (
        "Sam Lee was at their desk, and they are tired; it's theirs, so tell them. They did it themselves.")
    assert third_person("I finished my paper and I am proud of it.", "Klaus Mueller", "he") == (
        "Klaus Mueller finished his paper and he is proud of it.")


def test_surname_particles_are_part_of_a_name():
    """Generated towns draw Dutch, French and German names ("Loes de Hoog"): the teller and a
    sighting's subject keep their particles, so such a sighting is still not news."""
    from town.scripted.talk import sighting

    heard = "François Almagià told me that Loes de Hoog is at the student desks of the classroom in Orellana College."
    assert unwrap(heard) == (["François Almagià"], "Loes de Hoog is at the student desks of the classroom in Orellana College.")
    assert unwrap("Fedde van de Plas told me that the bakery opens at 7.") == (["Fedde van de Plas"], "the bakery opens at 7.")
    assert sighting(heard) and sighting("Rafał die Bont is at the bar of The Rose and Crown Pub.")
    assert not sighting("Loes de Hoog told me that Ivy da Rocha is planning a quiz night.")


def test_a_name_may_begin_with_any_capital_letter():
    """Generated towns draw Brazilian, Polish and Turkish names: 'Ísis Brown is out: attend
    classes.' is a sighting (a 1,000-person town passed it on as news 44,897 times when only
    A-Z began a name), and 'Łucja ... told me' names its teller."""
    from town.scripted.talk import sighting

    assert sighting("Ísis Brown is out: attend classes.")
    assert sighting("Gina Lopes told me that Ísis Brown is out: attend classes.")
    assert sighting("Özlem Çelik is at the desk of the office in Town Hall.")
    assert unwrap("Łucja Nowak told me that Émile is planning a quiz night.") == (["Łucja Nowak"],
                                                                                 "Émile is planning a quiz night.")
    assert not sighting("Ísis Brown is planning a quiz night at The Carvajal Arms.")
    assert unwrap("isis told me that the bakery opens at 7.") == ([], "isis told me that the bakery opens at 7.")


def test_a_whisper_in_the_second_person_is_the_inner_voice():
    assert inner_voice("You want to throw a board-game night at your place.") == \
        "I want to throw a board-game night at my place."
    assert inner_voice("You are tired, and you should ask Maria to help you.") == \
        "I am tired, and I should ask Maria to help me."
    assert inner_voice("You're late.") == "I'm late."
    assert inner_voice("I should tell Klaus.") == "I should tell Klaus."


def test_a_heard_first_person_statement_is_retold_in_the_third_person():
    assert third_person("I'm writing a paper; I have a deadline and I really need my notes.", "Klaus Mueller") == \
        "Klaus Mueller is writing a paper; Klaus has a deadline and Klaus really needs Klaus's notes."
    assert third_person("I went home.", "Ada") == "Ada went home."  # the past is the same in every person
    # a second verb of the same subject agrees too; a noun after "and" is no verb
    assert third_person("I have an exam next week and need to study in the library.", "Maria Lopez", "she") == \
        "Maria Lopez has an exam next week and needs to study in the library."
    assert third_person("I love bread and butter with tea.", "Ada") == "Ada loves bread and butter with tea."


def test_days_are_absolute_in_storage_and_relative_when_said():
    stored = absolute_days("Isabella Rodriguez is planning a party tomorrow at 5pm.", MONDAY)
    assert stored == "Isabella Rodriguez is planning a party on Tuesday, February 14 at 5pm."
    assert relative_days(stored, MONDAY) == "Isabella Rodriguez is planning a party tomorrow at 5pm."
    assert relative_days(stored, datetime(2023, 2, 14, 9)) == "Isabella Rodriguez is planning a party today at 5pm."
    assert relative_days("on February 14, 2023, from 5pm", datetime(2023, 2, 10)) == "on Tuesday from 5pm"
    assert relative_days("on February 28 at 5pm", MONDAY) == "on February 28 at 5pm"


def test_a_sentence_whose_days_are_past_is_said_in_the_past():
    """Asked on Wednesday 15 Feb, a sentence naming only the 14th or earlier is in the past tense;
    one naming a later day, or no day, keeps its tense (clause by clause when it names both); a
    possessive's noun stays a noun."""
    wednesday = datetime(2023, 2, 15, 9)
    assert relative_days("Isabella Rodriguez is planning a party on February 14 at 5pm. Klaus is writing.",
                         wednesday) == "Isabella Rodriguez was planning a party yesterday at 5pm. Klaus is writing."
    assert relative_days("Maria told me that Isabella will host a party on February 14, and they will be there.",
                         wednesday) == "Maria told me that Isabella hosted a party yesterday, and they were there."
    assert relative_days("Josefine hosts a quiz on February 13. She won't come on February 14.", wednesday) == \
        "Josefine hosted a quiz on February 13. She didn't come yesterday."
    assert relative_days("Isabella's plans are on February 14. The parties are on February 14.", wednesday) == \
        "Isabella's plans were yesterday. The parties were yesterday."
    mixed = "Hobbs Cafe opens on February 14, and Isabella is planning a party on February 16."
    assert relative_days(mixed, wednesday) == "Hobbs Cafe opened yesterday, and Isabella is planning a party tomorrow."


def test_a_persona_file_sentence_in_its_own_voice():
    assert own_voice("Isabella Rodriguez owns and runs Hobbs Cafe, the coffee shop.", "Isabella Rodriguez") == \
        "I own and run Hobbs Cafe, the coffee shop."
    assert own_voice("She knows most regulars by name.", "Isabella Rodriguez") == "I know most regulars by name."
    # an adverb before the verb; each joined verb; "is" -> "am"; a clause of its own keeps its verbs
    assert own_voice("He still argues about ethics and walks in the park.", "Adam Smith") == \
        "I still argue about ethics and walk in the park."
    assert own_voice("Sam gets up at 6am, walks every morning, and is in bed by 10pm.", "Sam Moore") == \
        "I get up at 6am, walk every morning, and am in bed by 10pm."
    assert own_voice("Carmen runs the store, where the town buys its tools, seeds and paint.", "Carmen Ortiz") == \
        "I run the store, where the town buys its tools, seeds and paint."
    assert own_voice("Adam Smith, 60.", "Adam Smith") == "Adam Smith, 60."  # no verb after the name


def test_meaning_reads_the_verb_and_the_place_of_the_statement():
    places = {"hobbs cafe": "the_ville:Hobbs Cafe"}
    assert meaning("Maria Lopez told me that Isabella Rodriguez is planning a party at Hobbs Cafe.", places) == \
        {"predicate": "plan", "object": "the_ville:Hobbs Cafe"}
    assert meaning("The weather is fine.", places) == {"predicate": "be", "object": None}
    assert meaning("I buy milk at the market.", places) == {"predicate": "buy", "object": None}


def test_six_lower_case_words_in_a_row_make_an_echo():
    a = "Really, Isabella? I want the party to feel warm with hot chocolate"
    assert shared_run(a, "I want the party to feel warm: red hearts")
    assert not shared_run(a, "I want the party to be warm")  # five in a row only


def test_a_day_in_a_span_keeps_its_word_and_a_sentence_opening_on_a_day_is_said_once():
    """A fresh user's questions (2026-12-07): "the pub quiz moved from Tuesday to Thursday" was
    retold "moved today to on Thursday"; "Yesterday I went to a pottery workshop" was answered
    "What I knew was this: On on February 12 I went ...". By hand, made Monday 13 Feb and said on
    Tuesday 14 Feb."""
    from town.scripted.interview import kind_of

    made, said = datetime(2023, 2, 13, 8), datetime(2023, 2, 14, 9)
    moved = absolute_days("the pub quiz moved from Tuesday to Thursday, same time 8pm", made)
    assert moved == "the pub quiz moved from Tuesday, February 14 to Thursday, February 16, same time 8pm"
    assert relative_days(moved, said) == "the pub quiz moved from today to Thursday, same time 8pm"
    went = absolute_days("Yesterday I went to a pottery workshop.", made)
    assert relative_days(went[:1].upper() + went[1:], said) == "On February 12 I went to a pottery workshop."
    assert kind_of("What day is the quiz night at the Rose and Crown?") == "when"
