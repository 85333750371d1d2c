"""What one does at an object, by the words in its name (the town's object vocabulary).

Any part of the engine may use it: the mind's action code for an action's emoji and the
sentence others observe, and thinking backends for the steps of a task. Words match whole
words only, case-insensitively: "flower beds" is not a "bed", "bar counter" is a "counter".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ObjectUse", "use_of", "names", "mentions", "act_of", "workplaces", "works_at", "for_guests"]


@dataclass(frozen=True, kw_only=True)
class ObjectUse:
    """Using one kind of object.

    Attributes:
        words: the words of an object's name that mean this kind (any one of them).
        verb: the verb phrase of a step ("brew coffee").
        doing: the same phrase as an ongoing action ("brewing coffee"), for observations.
        emoji: the action's emoji.
        guest, guest_doing: what someone who does not work there does at the object ("order at
            the counter", "ordering at the counter"); "" for an object everyone uses alike.
        private: used by those who live or work there only (a stove, a bed): a guest at an
            event in a cafe does not cook at its kitchen stove (:func:`for_guests`).
    """

    words: tuple[str, ...]
    verb: str
    doing: str
    emoji: str
    guest: str = ""
    guest_doing: str = ""
    private: bool = False

    def verb_for(self, works_here: bool) -> str:
        """The step's verb for a persona of the role ``works_here`` says (:func:`works_at`): the
        staff's use for one who works at the place, whatever the task (the cafe's owner at her own
        party still serves at her counter), else the guest's (a customer, or a guest at that
        party, "order at the counter", never "serve customers at the counter")."""
        return self.guest if self.guest and not works_here else self.verb

    def doing_of(self, verb: str) -> str | None:
        """The ongoing form of ``verb`` (the staff's or the guest's), or None for another verb."""
        return self.doing if verb == self.verb else self.guest_doing if self.guest and verb == self.guest else None


def _use(words: str, verb: str, doing: str, emoji: str, guest: str = "", guest_doing: str = "", *,
         private: bool = False) -> ObjectUse:
    return ObjectUse(words=tuple(words.split("|")), verb=verb, doing=doing, emoji=emoji, guest=guest,
                     guest_doing=guest_doing, private=private)


#: Words of a routine's task that make it work at its place (the staff's use of its objects).
STAFF_WORDS = frozenset("serve serving customers customer work working shift brew brewing restock checkout cashier "
                        "drinks sell open close closing opening tend staff manage run clean tidy prepare bake "
                        "bartend wash orders".split())


#: The vocabulary, first match wins (so "bar counter" serves customers, "bar stool" has a drink).
VOCABULARY: tuple[ObjectUse, ...] = (
    _use("bed", "rest in bed", "resting in bed", "🛏️", private=True),
    _use("coffee|espresso", "brew coffee", "brewing coffee", "☕", "get a coffee", "getting a coffee"),
    _use("counter|counters", "serve customers at the counter", "serving customers at the counter", "🧾",
         "order at the counter", "ordering at the counter"),
    _use("register|till", "ring up purchases", "ringing up purchases", "🧾", "pay at the register",
         "paying at the register"),
    _use("checkout", "pay at the checkout", "paying at the checkout", "🧾"),
    _use("stove", "cook", "cooking", "🍳", private=True),
    _use("oven", "bake", "baking", "🥐", private=True),
    _use("fridge", "check the fridge", "checking the fridge", "🥛", private=True),
    _use("sink", "wash up", "washing up", "🧽", "wash hands at the sink", "washing hands at the sink"),
    _use("shower", "take a shower", "taking a shower", "🚿", private=True),
    _use("toilet", "use the bathroom", "using the bathroom", "🚽"),
    _use("mirror", "get ready at the mirror", "getting ready at the mirror", "🪞"),
    _use("bookshelf|bookshelves|bookcase|bookcases", "browse the books", "browsing the books", "📚"),
    _use("shelf|shelves", "look through the shelves", "looking through the shelves", "🛒"),
    _use("aisle|aisles", "shop along the aisle", "shopping along the aisle", "🛒"),
    _use("desk|desks", "work at the desk", "working at the desk", "📝"),
    _use("computer|computers|laptop", "work on the computer", "working on the computer", "💻"),
    _use("blackboard|lectern", "follow the lecture", "following the lecture", "🎓"),
    _use("piano", "play the piano", "playing the piano", "🎹"),
    _use("bench|benches", "sit on the bench", "sitting on the bench", "🌳"),
    _use("garden|gardens", "tend the garden", "tending the garden", "🌷"),
    _use("pond", "walk by the pond", "walking by the pond", "🦆"),
    _use("bar", "have a drink at the bar", "having a drink at the bar", "🍺"),
    _use("table|tables", "sit at a table", "sitting at a table", "🍽️"),
    _use("sofa|couch", "relax on the sofa", "relaxing on the sofa", "🛋️"),
    _use("tv|television", "watch TV", "watching TV", "📺"),
    _use("pharmacy", "pick up medicine", "picking up medicine", "💊"),
)

_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def workplaces(routine: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The sectors a persona works at: those where a block of its own routine is work (its task
    has a word of :data:`STAFF_WORDS`: "open the cafe", "work the checkout").

    The role decides which use of an object is the persona's (:meth:`ObjectUse.verb_for`) for
    every task at a place: a guest at an event in a cafe is not its staff because the event's
    words are ("sell", "prepare"), and the owner is staff at her own cafe on any errand.

    Args:
        routine: (place address, task) per block of the persona's routine (its persona file's).

    Returns:
        ``world:sector`` addresses, sorted, each once.
    """
    return tuple(sorted({":".join(at.split(":")[:2]) for at, task in routine
                         if at.count(":") >= 1 and _words(task) & STAFF_WORDS}))


def works_at(places: Iterable[str], address: str) -> bool:
    """Whether ``address`` (any depth) is in one of ``places`` (:func:`workplaces`)."""
    return ":".join(address.split(":")[:2]) in set(places)


def for_guests(objects: Iterable[str]) -> list[str]:
    """The object addresses of ``objects`` a guest uses: none in a room holding an
    :attr:`ObjectUse.private` one (the kitchen with its stove, the bedroom with its bed: not the
    pantry shelf or prep table of a cafe one neither lives nor works at); all of them when none
    is left."""
    found = list(objects)
    rooms = {o.rsplit(":", 1)[0] for o in found if use_of(o.rsplit(":", 1)[-1]).private}
    public = [o for o in found if o.rsplit(":", 1)[0] not in rooms]
    return public or found


def names(object_name: str, word: str) -> bool:
    """True if ``word`` is a whole word of ``object_name`` ("flower beds" does not name "bed")."""
    return word.lower() in _words(object_name)


def mentions(text: str, object_name: str) -> bool:
    """True if ``text`` names ``object_name`` as whole words, in any case.

    "Ben weeds the flower beds" mentions "flower beds" but not "bed"; "the bar counter" mentions
    "counter" and "bar counter".
    """
    pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, object_name.split())) + r"(?!\w)"
    return bool(object_name.strip()) and re.search(pattern, text, re.IGNORECASE) is not None


def use_of(object_name: str) -> ObjectUse:
    """How an object is used, by the first vocabulary entry one of its words names.

    Args:
        object_name: the object's name, e.g. "coffee machine" (the last part of its address).

    Returns:
        The matching :class:`ObjectUse`; for a name no entry matches, a neutral one
        ("use the flower beds", "using the flower beds", "🙂").
    """
    words = _words(object_name)
    for use in VOCABULARY:
        if words.intersection(use.words):
            return use
    return ObjectUse(words=(), verb=f"use the {object_name}", doing=f"using the {object_name}", emoji="🙂")


_GIST_IN = re.compile(r"\((go to [^:()]+): .*\)$", re.S)
_GIST = re.compile(r"^(go to [^:]+): .*$", re.S)


def act_of(activity: str) -> str:
    """An action's words without a memory's text in them.

    A plan block for an event is "go to Hobbs Cafe: <the memory that stated it>"; its steps and
    what others see of them name the act only: "check the fridge (go to Hobbs Cafe: I am
    planning ...)" -> "check the fridge (go to Hobbs Cafe)".
    """
    return _GIST.sub(r"\1", _GIST_IN.sub(r"(\1)", activity))
