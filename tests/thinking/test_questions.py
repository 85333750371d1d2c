"""Each question type holds its own rules: one module per template, checks that name themselves."""

from __future__ import annotations

import pytest

from town.thinking import questions
from town.thinking.prompting import PACKAGED_PROMPTS
from town.thinking.questions import LineAnswer, MemoryView, NextLine, Question
from town.thinking.questions.checks import InvalidAnswer, own_words
from town.thinking.questions.character import as_itself, tells_as_itself
from town.thinking.questions.sense import not_copied
from town.thinking.questions.summarise_conversation import whole_sentence
from town.scripted import ScriptedBackend
from town.thinking.validate import parse_answer

LINE = NextLine(persona="isabella_rodriguez", persona_name="Isabella Rodriguez", listener="klaus_mueller",
                listener_name="Klaus Mueller",
                memories=(MemoryView(id=4, content="The party is on Friday", kind="observation", importance=8),))


def test_each_question_is_one_module_named_after_its_template_with_a_prompt_and_a_scripted_rule():
    """Adding a question is its module ``questions/<template>.py``, ``prompts/<template>.j2`` and a
    scripted rule; the purposes are the decisions each serves, written out by hand."""
    purposes = {
        "rate_importance": "importance", "rate_importances": "importance", "plan_day": "plan",
        "decompose_task": "plan", "choose_place": "act", "next_action": "act", "decide_to_talk": "react",
        "next_line": "chat", "summarise_conversation": "chat", "focal_points": "reflect", "insights": "reflect",
        "answer_interview": "interview", "generalise_procedure": "generalise_procedure",
        "hear_line": "importance", "write_conversation": "chat",
    }
    rules = ScriptedBackend.__dict__["_answer"].dispatcher.registry
    found = {}
    for question in Question.__subclasses__():
        assert question.__module__ == f"town.thinking.questions.{question.template}", question
        assert (PACKAGED_PROMPTS / f"{question.template}.j2").is_file(), question
        assert question in rules, question
        assert getattr(questions, question.__name__) is question
        found[question.template] = question.purpose
    assert found == purposes


def _rejected_by(question: Question, reply: str) -> str:
    with pytest.raises(InvalidAnswer) as info:
        parse_answer(question, reply)
    return info.value.check


def test_a_rejection_names_the_check_that_made_it():
    """NextLine's checks run in their listed order; the first to reject names itself."""
    assert [c.__name__ for c in NextLine.checks] == ["own_words", "shared_ids_shown", "speaks", "speaks_as_itself",
                                                     "shares_in_words", "not_copied"]
    assert _rejected_by(LINE, '{"line": "...", "shared": [4]}') == "own_words"
    assert _rejected_by(LINE, '{"line": "4: The party is on Friday", "shared": [77]}') == "shared_ids_shown"
    assert _rejected_by(LINE, '{"line": "4: The party is on Friday", "shared": [4]}') == "speaks"
    assert _rejected_by(LINE, '{"line": "Well.", "shared": [4]}') == "shares_in_words"
    assert _rejected_by(LINE, '{"line": "no closing brace"') == ""  # unparsable: no check ran
    assert parse_answer(LINE, '{"line": "Did you hear? The party is on Friday!", "shared": [4]}').shared == [4]


def test_a_check_added_to_a_question_runs_in_its_turn_and_names_itself(monkeypatch):
    """A question's checks are a list: one more is one function more, and its rejections are its own."""

    def no_shouting(q: NextLine, a: LineAnswer, prompt: str) -> LineAnswer:
        if a.line.isupper():
            raise InvalidAnswer(f"line: {a.line!r} shouts")
        return a

    monkeypatch.setattr(NextLine, "checks", (*NextLine.checks, no_shouting))
    assert _rejected_by(LINE, '{"line": "THE PARTY IS ON FRIDAY!", "shared": [4]}') == "no_shouting"
    assert _rejected_by(LINE, '{"line": "...", "shared": [4]}') == "own_words"  # the earlier check first
    assert parse_answer(LINE, '{"line": "The party is on Friday!", "shared": [4]}').line == "The party is on Friday!"


def test_a_question_without_options_checks_its_words_and_their_sense():
    """A question that offers nothing to choose from (a summary) has the shared text check and its
    own sense checks (a whole sentence, told as I, not copied), in that order."""
    assert questions.SummariseConversation.checks == (own_words, whole_sentence, tells_as_itself, as_itself, not_copied)
    summary = questions.SummariseConversation(persona="a", persona_name="Ann Lee", other_name="Bo Yu", history=())
    assert _rejected_by(summary, '{"summary": "<one sentence>"}') == "own_words"
    assert _rejected_by(summary, '{"summary": "Bo told me about"}') == "whole_sentence"


def test_a_stranger_is_spoken_to_without_their_name():
    """``stranger``: the prompt says the speaker has not met the listener and does not name them,
    and the scripted first line greets without a name, giving the speaker's own (09:00: morning)."""
    from dataclasses import replace

    from town.thinking.prompting import PromptSet

    met, new = replace(LINE, now="2023-02-13 09:00:00"), replace(LINE, now="2023-02-13 09:00:00", stranger=True)
    assert "You are talking with Klaus Mueller." in PromptSet().render(met)
    prompt = PromptSet().render(new)
    assert "whom you have not met: you do not know their name" in prompt and "Klaus" not in prompt
    assert ScriptedBackend().ask(new).line == "Good morning! I don't think we've met. I'm Isabella."
