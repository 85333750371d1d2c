"""The object vocabulary: whole-word matching, and the engine's action code not needing the scripted mind."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from town.thinking.questions import DecomposeTask, MemoryView
from town.scripted import ScriptedBackend
from town.world.objects import mentions, names, use_of, workplaces, works_at

MIND = Path(__file__).resolve().parents[2] / "town" / "mind"


@pytest.mark.parametrize(("name", "verb"), [
    ("bed", "rest in bed"),
    ("double bed", "rest in bed"),
    ("Bed", "rest in bed"),
    ("flower beds", "use the flower beds"),      # "beds" is not the word "bed"
    ("bedside lamp", "use the bedside lamp"),    # "bedside" is not a bed
    ("barbecue", "use the barbecue"),            # not a bar
    ("bar counter", "serve customers at the counter"),  # first entry wins, as before
    ("bar stool", "have a drink at the bar"),
    ("student desks", "work at the desk"),
    ("bookshelves", "browse the books"),
    ("coffee machine", "brew coffee"),
    ("kitchen sink", "wash up"),
])
def test_object_words_match_whole_words(name, verb):
    """An object's use comes from a whole word of its name, never from letters inside a word."""
    assert use_of(name).verb == verb


def test_flower_beds_are_not_a_bed():
    """names() is whole-word too: the word 'bed' is not in 'flower beds'."""
    assert not names("flower beds", "bed")
    assert names("the bed", "bed")
    assert use_of("flower beds").emoji == "🙂"


def test_sleeping_goes_to_the_bed_not_the_flower_beds():
    """A sleep task in a room with 'flower beds' listed first is done at the bed."""
    objects = ("town:Home:garden room:flower beds", "town:Home:garden room:bed")
    answer = ScriptedBackend().ask(DecomposeTask(
        persona="p", persona_name="P", task="sleeping", place="town:Home:garden room", start="23:00",
        minutes=60, objects=objects))
    assert [s.object for s in answer.steps] == ["town:Home:garden room:bed"]


def test_no_step_at_the_flower_beds_rests_in_bed():
    """Steps at the flower beds never say 'rest in bed'."""
    answer = ScriptedBackend().ask(DecomposeTask(
        persona="p", persona_name="P", task="garden work", place="town:Home:garden",
        start="10:00", minutes=60, objects=("town:Home:garden:flower beds",)))
    assert answer.steps and all(s.description.startswith("use the flower beds") for s in answer.steps)


def test_mind_does_not_import_the_scripted_backend():
    """No module of town/mind imports town.scripted (the vocabulary is in town.world.objects)."""
    for path in MIND.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert "scripted" not in (node.module or ""), path.name
                assert all(alias.name != "scripted" for alias in node.names), path.name
            elif isinstance(node, ast.Import):
                assert all("scripted" not in alias.name for alias in node.names), path.name


def test_mentions_is_whole_words():
    """A memory about the flower beds does not mention the bed; a phrase matches across spaces."""
    assert not mentions("Ben planted tulips in the flower beds.", "bed")
    assert mentions("Ben planted tulips in the flower beds.", "flower beds")
    assert mentions("Meet me at the Bar  Counter", "bar counter")
    assert not mentions("a barbecue", "bar")


def test_a_memory_of_flower_beds_does_not_send_a_step_to_the_bed():
    """Decomposing with a retrieved memory about the flower beds never picks the bed for it first."""
    memory = MemoryView(id=1, content="Ben planted tulips in the flower beds.", kind="observation",
                        importance=3)
    objects = ("town:Home:room:bed", "town:Home:room:flower beds")
    answer = ScriptedBackend().ask(DecomposeTask(
        persona="p", persona_name="P", task="tidy up", place="town:Home:room", start="10:00",
        minutes=5, objects=objects, memories=(memory,)))
    assert [s.object for s in answer.steps] == ["town:Home:room:flower beds"]


def test_a_guest_at_a_counter_orders_and_staff_serve():
    """The counter's step for a guest is "order at the counter", and what others see says so
    ("Maria Lopez is ordering at the counter ..."); for its staff it is "serve customers at the
    counter". A scripted decomposition of "buy coffee" at a cafe's counter and coffee machine by
    someone who does not work there holds no staff step (no serving customers, no brewing); the
    same for the cafe's owner at her own cafe, on an errand with no work word ("plan a party"),
    holds no guest step (she does not order or pay at her own counter)."""
    from town.mind.act import doing_sentence

    assert use_of("counter").verb_for(False) == "order at the counter"
    assert use_of("counter").verb_for(True) == "serve customers at the counter"
    assert doing_sentence("Maria Lopez", "order at the counter (eat lunch)", "v:Hobbs Cafe:cafe:counter") == (
        "Maria Lopez is ordering at the counter (eat lunch) at the counter of the cafe in Hobbs Cafe.")
    objects = ("v:Hobbs Cafe:cafe:counter", "v:Hobbs Cafe:cafe:coffee machine")
    steps = ScriptedBackend().ask(DecomposeTask(
        persona="maria_lopez", persona_name="Maria Lopez", seed=3, task="buy coffee", place="v:Hobbs Cafe",
        start="09:00", minutes=60, objects=objects, workplaces=("v:Oak Hill College",))).steps
    assert steps and all(s.description.split(" (")[0] in ("order at the counter", "get a coffee") for s in steps)
    steps = ScriptedBackend().ask(DecomposeTask(
        persona="isabella_rodriguez", persona_name="Isabella Rodriguez", seed=3, task="plan a party",
        place="v:Hobbs Cafe", start="17:00", minutes=60, objects=objects, workplaces=("v:Hobbs Cafe",))).steps
    assert steps and all(s.description.split(" (")[0] in ("serve customers at the counter", "brew coffee")
                         for s in steps)


def test_workplaces_are_where_a_routine_works():
    """A routine's work blocks ("open the cafe", "work the checkout") make their sectors its
    workplaces; errands and meals there do not ("buy coffee", "eat lunch"); an address of any
    depth in a workplace is at work."""
    routine = [("v:Hobbs Cafe:cafe:counter", "open the cafe"), ("v:Market:checkout:till", "work the checkout"),
               ("v:Park:garden:bench", "eat lunch"), ("v:Pub:pub:bar", "buy coffee"), ("v", "serve")]
    assert workplaces(routine) == ("v:Hobbs Cafe", "v:Market")
    assert works_at(("v:Hobbs Cafe",), "v:Hobbs Cafe:kitchen:sink")
    assert not works_at(("v:Hobbs Cafe",), "v:Pub:pub:bar counter")


def test_a_guest_uses_no_object_of_a_room_holding_a_private_one():
    """By hand: the kitchen holds a stove (private), so its pantry shelf goes with it; the cafe
    room's tables and counter stay; a place of private rooms only is left whole."""
    from town.world.objects import for_guests

    cafe = ["w:Cafe:kitchen:stove", "w:Cafe:kitchen:pantry shelf", "w:Cafe:cafe:big table", "w:Cafe:cafe:counter",
            "w:Cafe:bathroom:sink"]
    assert for_guests(cafe) == ["w:Cafe:cafe:big table", "w:Cafe:cafe:counter", "w:Cafe:bathroom:sink"]
    bedroom = ["w:Home:bedroom:bed", "w:Home:bedroom:desk"]
    assert for_guests(bedroom) == bedroom
