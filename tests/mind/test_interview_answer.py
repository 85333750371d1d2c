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
