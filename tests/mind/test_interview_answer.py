"""Interview answers come from the memories retrieved for the question, by relevance."""

from __future__ import annotations

from town.thinking.questions import AnswerInterview, MemoryView
from town.thinking.scripted import ScriptedBackend


def _answer(*contents: str) -> str:
    memories = tuple(MemoryView(id=i, content=c, kind="observation", importance=3,
                                created="2023-02-13 09:00:00") for i, c in enumerate(contents))
    q = AnswerInterview(persona="ann", persona_name="Ann Able", question="Did you hear about a party?",
                        memories=memories)
    return ScriptedBackend().ask(q).answer


def test_the_memory_sharing_the_question_words_answers_it():
    """Only the second memory holds "party" (the question's one content word): it is the answer,
    even though it was retrieved second."""
    assert _answer("The park has new benches.",
                   'Bob Brown told me: "I am hosting a party at Corner Cafe tomorrow at 6pm."') == (
        'Yes. Bob Brown told me: "I am hosting a party at Corner Cafe tomorrow at 6pm."')


def test_nothing_retrieved_about_it_means_no():
    assert _answer("The park has new benches.") == "No, I don't know anything about that."
    assert _answer() == "No, I don't know anything about that."


# Ann's description as the interview carries it (town.analysis.interview.identity), worked by hand:
# sentences "Ann Able, 40." / "Traits: calm." / "Ann Able runs the Corner Cafe on Elm Street."
# (work marks: runs) / "She sings in a choir." / "Ann lives in Ann Able's house." (home marks: lives).
ANN = "Ann Able, 40. Traits: calm. Ann Able runs the Corner Cafe on Elm Street. She sings in a choir. " \
      "Ann lives in Ann Able's house."


def _about_herself(question: str, summary: str = ANN) -> str:
    q = AnswerInterview(persona="ann", persona_name="Ann Able", persona_summary=summary, question=question,
                        memories=(MemoryView(id=0, content="The park has new benches.", kind="observation",
                                             importance=3),))
    return ScriptedBackend().ask(q).answer


def test_questions_about_herself_are_answered_from_her_own_description():
    assert _about_herself("What is your name?") == "I am Ann Able."
    assert _about_herself("Please introduce yourself: who are you?") == "I am Ann Able."
    assert _about_herself("What is your occupation?") == "I am Ann Able. Ann Able runs the Corner Cafe on Elm Street."
    assert _about_herself("Where do you live?") == "I am Ann Able. Ann lives in Ann Able's house."


def test_without_a_description_only_the_name_is_known():
    assert _about_herself("What is your occupation?", summary="") == "I am Ann Able."


def test_other_questions_still_come_from_memories():
    """"What do you value most in your life?" asks no facet ("life" is not "live")."""
    assert _about_herself("What do you remember about the park?") == "Yes. The park has new benches."
    assert _about_herself("What do you value most in your life?") == "No, I don't know anything about that."
