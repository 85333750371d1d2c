"""Observation sentences show activity text they did not write as written (town.mind.act)."""

from __future__ import annotations

import pytest

from town.mind.act import doing_sentence, place_label

SINK = "the_ville:Dorm for Oak Hill College:bathroom:sink"


@pytest.mark.parametrize("activity", [
    "lavarse y vestirse",            # Spanish: no "lavarseing"
    "sich waschen",                  # German
    "洗脸刷牙",                       # Chinese
    "wash up and get dressed",       # English from a persona file, not from the vocabulary
    "sleeping",
])
def test_persona_file_activity_is_shown_as_written(activity):
    """Text the vocabulary did not write goes, unchanged, into a neutral template."""
    assert doing_sentence("Maria Lopez", activity, SINK) == (
        f"Maria Lopez is at the sink of the bathroom in Dorm for Oak Hill College: {activity}.")


def test_vocabulary_steps_read_as_english():
    """A step the vocabulary wrote ("brew coffee (task)") uses the vocabulary's own -ing form."""
    address = "the_ville:Hobbs Cafe:cafe:coffee machine"
    assert doing_sentence("Isabella Rodriguez", "brew coffee (open the cafe)", address) == (
        "Isabella Rodriguez is brewing coffee (open the cafe) at the coffee machine of the cafe in Hobbs Cafe.")
    assert doing_sentence("Isabella Rodriguez", "brew coffee", address) == (
        "Isabella Rodriguez is brewing coffee at the coffee machine of the cafe in Hobbs Cafe.")
    # same words at another object are not the vocabulary's step there: shown as written
    assert doing_sentence("Isabella Rodriguez", "brew coffee", SINK).endswith(": brew coffee.")


def test_place_label_of_short_addresses():
    """A sector is named; the bare world is no place (never 'None', never the world's name)."""
    assert place_label("the_ville:Johnson Park") == "Johnson Park"
    assert place_label("the_ville") == ""


def test_an_action_and_its_observation_hold_no_memory_text():
    """An event's plan block carries the memory that stated it; the act and what others see do not."""
    from town.world.objects import act_of
    task = "go to Hobbs Cafe: I am planning a Valentine's Day party at Hobbs Cafe on February 14"
    assert act_of(f"check the fridge ({task})") == "check the fridge (go to Hobbs Cafe)"
    assert doing_sentence("Isabella Rodriguez", f"check the fridge ({task})", "the_ville:Hobbs Cafe:kitchen:fridge") \
        == "Isabella Rodriguez is checking the fridge (go to Hobbs Cafe) at the fridge of the kitchen in Hobbs Cafe."
    assert doing_sentence("Latoya Williams", "wander about", "smallville") == "Latoya Williams is out: wander about."
