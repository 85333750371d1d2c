"""The scripted backend: deterministic rules that answer every question without a network.

Rules work over the question's inputs alone (the persona's file, what it perceives, the clock and
the retrieved memories' text), so behaviour flows through retrieval as in Park et al. 2023: a
conversation passes on the speaker's top retrieved memories.
"""

from __future__ import annotations

import random
import re
from functools import singledispatchmethod

from pydantic import BaseModel

from ..procedures.generalise import generalise_text
from .backend import ThinkingBackend
from .questions import (
    AnswerInterview,
    ChoosePlace,
    DayPlanAnswer,
    DecideToTalk,
    DecomposeTask,
    FocalPoints,
    FocalPointsAnswer,
    GeneraliseProcedure,
    ImportanceAnswer,
    ImportancesAnswer,
    Insights,
    InsightsAnswer,
    InterviewAnswer,
    LineAnswer,
    NextLine,
    PlaceAnswer,
    PlanDay,
    ProcedureAnswer,
    Question,
    RateImportance,
    RateImportances,
    StepsAnswer,
    SummariseConversation,
    SummaryAnswer,
    TalkAnswer,
)

__all__ = ["ScriptedBackend", "verb_for"]

# What one does at an object, by keyword in the object's name: (verb phrase, emoji).
_VERBS: tuple[tuple[str, str, str], ...] = (
    ("bed", "rest in bed", "🛏️"),
    ("coffee", "brew coffee", "☕"),
    ("espresso", "brew coffee", "☕"),
    ("counter", "serve customers at the counter", "🧾"),
    ("register", "ring up purchases", "🧾"),
    ("checkout", "pay at the checkout", "🧾"),
    ("stove", "cook", "🍳"),
    ("oven", "bake", "🥐"),
    ("fridge", "check the fridge", "🥛"),
    ("sink", "wash up", "🧽"),
    ("shower", "take a shower", "🚿"),
    ("toilet", "use the bathroom", "🚽"),
    ("mirror", "get ready at the mirror", "🪞"),
    ("bookshelf", "browse the books", "📚"),
    ("bookcase", "browse the books", "📚"),
    ("shelf", "look through the shelves", "🛒"),
    ("shelves", "look through the shelves", "🛒"),
    ("aisle", "shop along the aisle", "🛒"),
    ("desk", "work at the desk", "📝"),
    ("computer", "work on the computer", "💻"),
    ("blackboard", "follow the lecture", "🎓"),
    ("lectern", "follow the lecture", "🎓"),
    ("piano", "play the piano", "🎹"),
    ("bench", "sit on the bench", "🌳"),
    ("garden", "tend the garden", "🌷"),
    ("pond", "walk by the pond", "🦆"),
    ("bar", "have a drink at the bar", "🍺"),
    ("table", "sit at a table", "🍽️"),
    ("sofa", "relax on the sofa", "🛋️"),
    ("couch", "relax on the couch", "🛋️"),
    ("tv", "watch TV", "📺"),
    ("pharmacy", "pick up medicine", "💊"),
)


def verb_for(object_name: str) -> tuple[str, str]:
    """(verb phrase, emoji) for using an object, by keyword; ("spend time", "🙂") if none."""
    low = object_name.lower()
    for key, verb, emoji in _VERBS:
        if key in low:
            return verb, emoji
    return f"use the {object_name}", "🙂"


def _leaf(address: str) -> str:
    return address.rsplit(":", 1)[-1]


def _hm(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def _fmt(minutes: int) -> str:
    minutes = max(0, min(24 * 60, minutes))
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


_ROUTINE_WORDS = re.compile(r"\b(sleep|sleeping|idle|walking|rest)\b", re.I)


class ScriptedBackend(ThinkingBackend):
    """Deterministic rule-based answers to every question (the default backend).

    The same question (including its ``seed``) always gets the same answer.
    """

    name = "scripted"

    def ask(self, question: Question) -> BaseModel:
        """Answer ``question`` by its rule (see the handlers below).

        Raises:
            TypeError: for a question type this backend does not know.
        """
        return self._answer(question)

    @singledispatchmethod
    def _answer(self, question: Question) -> BaseModel:
        raise TypeError(f"the scripted backend cannot answer {type(question).__name__}")

    # ------------------------------------------------------------------ importance (§4.1)
    @_answer.register
    def _(self, q: RateImportance) -> ImportanceAnswer:
        text = q.content.lower()
        if q.kind == "whisper":
            score = 7
        elif q.kind == "reflection":
            score = 6
        elif q.kind == "chat":
            score = 4 if "talked with" in text else 3
        elif q.kind == "plan":
            score = 3
        elif _ROUTINE_WORDS.search(text):
            score = 1
        else:
            score = 2
        return ImportanceAnswer(importance=score)

    # ------------------------------------------------------------------ planning (§4.3)
    @_answer.register
    def _(self, q: RateImportances) -> ImportancesAnswer:
        # the per-memory rule for each: a batch rates exactly as single requests would
        ratings = [self._answer(RateImportance(persona=q.persona, persona_name=q.persona_name,
                                               content=content, kind=kind)).importance
                   for kind, content in q.items]
        return ImportancesAnswer(ratings=ratings)

    @_answer.register
    def _(self, q: PlanDay) -> DayPlanAnswer:
        return DayPlanAnswer(add=[], drop=[])  # the routine, unchanged

    @_answer.register
    def _(self, q: DecomposeTask) -> StepsAnswer:
        rng = random.Random(q.seed)
        objects = list(q.objects) or [q.place]
        if _ROUTINE_WORDS.search(q.task) and "sleep" in q.task.lower():
            beds = [o for o in objects if "bed" in o.lower()] or objects
            return StepsAnswer(steps=[dict(description=q.task, object=beds[0], minutes=q.minutes)])
        # a known procedure the task names (all its words in the task) is done first, as is
        words = _content_words(q.task)
        part = next((k for k in q.procedures if (named := _content_words(k["name"])) and named <= words
                     and all(s["object"] in objects for s in k["steps"])), None)
        steps = [] if part is None else [dict(s) for s in part["steps"]]
        left = q.minutes - sum(s["minutes"] for s in steps)
        while left > 0 and len(steps) < 24:
            obj = objects[rng.randrange(len(objects))]
            minutes = min(left, rng.choice((5, 10, 10, 15)))
            verb, _ = verb_for(_leaf(obj))
            steps.append(dict(description=f"{verb} ({q.task})", object=obj, minutes=minutes))
            left -= minutes
        return StepsAnswer(steps=steps)

    @_answer.register
    def _(self, q: ChoosePlace) -> PlaceAnswer:
        words = set(re.findall(r"[a-z]+", q.task.lower()))
        best = max(
            q.candidates,
            key=lambda c: (len(words & set(re.findall(r"[a-z]+", c.lower()))), c),
        )
        return PlaceAnswer(place=best)

    # ------------------------------------------------------------------ dialogue (§4.3.2)
    @_answer.register
    def _(self, q: DecideToTalk) -> TalkAnswer:
        if any(w in q.other_action.lower() for w in ("sleep", "talking")):
            return TalkAnswer(talk=False, reason=f"{q.other_name} is busy")
        news = [m for m in q.memories if m.importance >= 6 and m.kind != "plan"]
        about = [m for m in q.memories if q.other_name.split()[0] in m.content]
        if news:
            return TalkAnswer(talk=True, reason="I have news to share")
        if q.relationship or about:
            talk = random.Random(q.seed).random() < 0.6
            return TalkAnswer(talk=talk, reason="I know them" if talk else "not now")
        talk = random.Random(q.seed).random() < 0.25
        return TalkAnswer(talk=talk, reason="say hello" if talk else "a stranger")

    @_answer.register
    def _(self, q: NextLine) -> LineAnswer:
        first = q.listener_name.split()[0]
        turn = len(q.history)
        if turn == 0:
            return LineAnswer(line=f"Hi {first}! How are you doing?")
        told = set(q.told)
        fresh = [m for m in q.memories if m.id not in told and m.kind != "plan"]
        news = [m for m in fresh if m.importance >= 6]
        notable = [m for m in fresh if m.importance >= 4 and m.kind == "observation"]
        if turn + 1 >= q.max_lines or not (news or notable):
            return LineAnswer(line=f"It was good to see you, {first}. Talk soon!", end=True)
        m = (news or notable)[0]
        return LineAnswer(line=_retell(m.content)[:1000], shared=[m.id])

    @_answer.register
    def _(self, q: SummariseConversation) -> SummaryAnswer:
        shared = [line for who, line in q.history if line.startswith(("I ", "Did you", "I heard"))]
        topic = f": {shared[0]}" if shared else ""
        return SummaryAnswer(summary=f"I talked with {q.other_name}{topic}"[:400])

    # ------------------------------------------------------------------ reflection (§4.2)
    @_answer.register
    def _(self, q: FocalPoints) -> FocalPointsAnswer:
        people = [n for n in q.people if n != q.persona_name]
        weight: dict[str, int] = {}
        for m in q.memories:
            for name in people:
                if name in m.content:
                    weight[name] = weight.get(name, 0) + m.importance
        points = [f"How do I feel about {n}?" for n in sorted(weight, key=lambda n: (-weight[n], n))]
        points.append("What have I been spending my time on?")
        return FocalPointsAnswer(questions=points[: q.n])

    @_answer.register
    def _(self, q: Insights) -> InsightsAnswer:
        ranked = sorted(q.memories, key=lambda m: (-m.importance, m.id))[:3] or list(q.memories)
        if not ranked:
            return InsightsAnswer(insights=[dict(text=f"I have no answer yet to: {q.focal_point}",
                                                 evidence=[0])])
        subject = re.sub(r"^(What do I know about|How do I feel about|What have I been)\s*",
                         "", q.focal_point).rstrip("?")
        lead = ranked[0]
        text = f"Thinking about {subject or 'my days'}, what stands out is that {_lower(lead.content)}"
        insights = [dict(text=text[:400], evidence=[m.id for m in ranked])]
        if len(ranked) > 1 and q.n > 1:
            insights.append(
                dict(text=f"{subject.capitalize() or 'My routine'} has been on my mind lately."[:400],
                     evidence=[m.id for m in ranked[1:]])
            )
        return InsightsAnswer(insights=insights)

    @_answer.register
    def _(self, q: AnswerInterview) -> InterviewAnswer:
        # The question's content words (no stopwords); a retrieved memory answers it when it holds
        # more than half of them. Best-ranked first.
        words = _content_words(q.question)
        hits = [m for m in q.memories
                if words and 2 * len(words & _content_words(m.content)) > len(words)]
        if not hits:
            return InterviewAnswer(answer="No, I don't know anything about that.")
        return InterviewAnswer(answer=f"Yes. {hits[0].content}"[:1000])

    # ------------------------------------------------------------------ procedures (DESIGN §4)
    @_answer.register
    def _(self, q: GeneraliseProcedure) -> ProcedureAnswer:
        values = dict(q.parameters)
        steps = [dict(description=generalise_text(s["description"], values),
                      object=generalise_text(s["object"], values), minutes=s["minutes"])
                 for s in q.steps]
        text = generalise_text(q.task, values)
        return ProcedureAnswer(name=text, when=text, steps=steps)


#: Words that carry no topic in an interview question (function words and asking verbs).
_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with about from into over under up out as so than
is are was were be been being am do does did done have has had i me my mine you your yours he him
his she her hers it its we us our they them their what which who whom whose when where why how
that this these those there here any anything anyone some something someone know knew known
heard hear tell told think thought can could would should will shall may might must not no yes
please going get got
""".split())


def _content_words(text: str) -> set[str]:
    """Lower-case topic words of ``text``: no stopwords, no possessive "'s", at least 3 letters."""
    words = (w.removesuffix("'s").strip("'") for w in re.findall(r"[a-z']+", text.lower()))
    return {w for w in words if len(w) >= 3 and w not in _STOPWORDS}


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != "I " else text


def _retell(content: str) -> str:
    """Turn a memory into something said aloud: own first-person news as is, else as news."""
    if content.startswith(("I ", "I'")):
        return content
    heard = re.match(r'^(?P<speaker>.+?) told me(?: that (?P<author>.+?) said)?: "(?P<statement>.*)"$', content, re.S)
    if heard:
        author = heard.group("author") or heard.group("speaker")
        return f'Did you hear? {author} said: "{heard.group("statement")}"'
    return f"Did you hear? {content}"
