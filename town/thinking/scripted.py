"""The scripted backend: deterministic rules that answer every question without a network.

Rules work over the question's inputs alone (the persona's file, what it perceives, the clock and
the retrieved memories' text), so behaviour flows through retrieval as in Park et al. 2023:
importance comes from the embedded rater (``town.importance``), a day plan adds an event only
when a retrieved memory's text states it (``town.thinking.dayplan``), and a conversation passes
on the speaker's best retrieved memories that the listener has not heard from them (the lines
are :mod:`town.thinking.scripted_talk`).
"""

from __future__ import annotations

import random
import re
from datetime import date
from functools import lru_cache, singledispatchmethod
from typing import cast

from pydantic import BaseModel

from ..importance import prepare, rate
from ..perspective import heard_statement
from ..procedures.generalise import generalise_text
from ..textevent import place_names
from ..world.objects import act_of, mentions, names, use_of
from . import answers, questions
from .backend import ThinkingBackend
from .dayplan import events_on, minutes_of, with_events
from .questions import A, Question
from .scripted_reply import is_news
from .scripted_talk import first_name, gist, next_line, worth_telling

__all__ = ["ScriptedBackend"]


def _leaf(address: str) -> str:
    return address.rsplit(":", 1)[-1]


_ROUTINE_WORDS = re.compile(r"\b(sleep|sleeping|idle|walking|rest)\b", re.I)


class ScriptedBackend(ThinkingBackend):
    """Deterministic rule-based answers to every question (the default backend).

    The same question (including its ``seed``) always gets the same answer.
    """

    name = "scripted"

    def ask(self, question: Question[A]) -> A:
        """Answer ``question`` by its rule (see the handlers below).

        Raises:
            TypeError: for a question type this backend does not know.
        """
        return cast(A, self._answer(question))  # each rule returns the question's answer model

    @singledispatchmethod
    def _answer(self, question: Question) -> BaseModel:
        raise TypeError(f"the scripted backend cannot answer {type(question).__name__}")

    # ------------------------------------------------------------------ importance (§4.1)
    @_answer.register
    def _(self, q: questions.RateImportance) -> answers.ImportanceAnswer:
        return answers.ImportanceAnswer(importance=rate(q.content, q.kind))

    # ------------------------------------------------------------------ planning (§4.3)
    @_answer.register
    def _(self, q: questions.RateImportances) -> answers.ImportancesAnswer:
        # the per-memory rule for each: a batch rates exactly as single requests would, with
        # its texts embedded in one model run first (a text's vector is the same in any batch)
        prepare([content for _, content in q.items])
        ratings = [self.ask(questions.RateImportance(persona=q.persona, persona_name=q.persona_name,
                                               content=content, kind=kind)).importance
                   for kind, content in q.items]
        return answers.ImportancesAnswer(ratings=ratings)

    @_answer.register
    def _(self, q: questions.PlanDay) -> answers.DayPlanAnswer:
        blocks = [
            dict(start=r.start, end=r.end, description=r.description, place=r.place, task=r.task)
            for r in q.routine
        ]
        day = date.fromisoformat(q.date)
        found = events_on(q.memories, day, place_names(tuple(q.places)))
        by_id = {m.id: m for m in q.memories}
        events = [(e, f"go to {_leaf(e.place)}: {gist(by_id[ids[0]].content, 60)}") for e, ids in found]
        # the answer is the changes to the routine: the event blocks, added (they cut the routine)
        said = {d for _, d in events}
        added = [b for b in with_events(blocks, events, day) if b["task"] is None and b["description"] in said]
        return answers.DayPlanAnswer(add=[
            answers.PlanItemAnswer(start=b["start"], minutes=minutes_of(b["end"]) - minutes_of(b["start"]),
                           description=b["description"][:120], place=b["place"])
            for b in added], drop=[])

    @_answer.register
    def _(self, q: questions.DecomposeTask) -> answers.StepsAnswer:
        rng = random.Random(q.seed)
        objects = list(q.objects) or [q.place]
        if _ROUTINE_WORDS.search(q.task) and "sleep" in q.task.lower():
            beds = [o for o in objects if names(_leaf(o), "bed")] or objects
            return answers.StepsAnswer(steps=[dict(description=q.task, object=beds[0], minutes=q.minutes)])
        # a known procedure the task names (all its words in the task) is done first, as is
        words = _content_words(q.task)
        part = next((k for k in q.procedures if (named := _content_words(k["name"])) and named <= words
                     and all(s["object"] in objects for s in k["steps"])), None)
        steps = [] if part is None else [dict(s) for s in part["steps"]]
        left = q.minutes - sum(s["minutes"] for s in steps)
        # then objects a retrieved memory names (the "act" retrieval shapes the steps)
        recalled = [o for o in objects if any(mentions(m.content, _leaf(o)) for m in q.memories)]
        while left > 0 and len(steps) < 24:
            obj = recalled.pop(0) if recalled else objects[rng.randrange(len(objects))]
            minutes = min(left, rng.choice((5, 10, 10, 15)))
            verb = use_of(_leaf(obj)).verb
            steps.append(dict(description=f"{verb} ({act_of(q.task)})", object=obj, minutes=minutes))
            left -= minutes
        return answers.StepsAnswer(steps=steps)

    @_answer.register
    def _(self, q: questions.NextAction) -> answers.StepAnswer:
        # No plan: the habit for this hour, at an object a retrieved memory names if any.
        habit = q.habit.task or q.habit.description
        at_habit = [o for o in q.objects if o == q.habit.place or o.startswith(q.habit.place + ":")]
        objects = at_habit or list(q.objects)
        if "sleep" in q.habit.description.lower():
            beds = [o for o in objects if "bed" in o.lower()] or objects
            return answers.StepAnswer(description=q.habit.description, object=beds[0], minutes=q.max_minutes)
        recalled = [o for o in objects if any(_leaf(o).lower() in m.content.lower() for m in q.memories)]
        obj = recalled[0] if recalled else objects[random.Random(q.seed).randrange(len(objects))]
        verb = use_of(_leaf(obj)).verb
        return answers.StepAnswer(description=f"{verb} ({act_of(habit)})", object=obj, minutes=q.max_minutes)

    @_answer.register
    def _(self, q: questions.ChoosePlace) -> answers.PlaceAnswer:
        words = set(re.findall(r"[a-z]+", q.task.lower()))
        best = max(
            q.candidates,
            key=lambda c: (len(words & set(re.findall(r"[a-z]+", c.lower()))), c),
        )
        return answers.PlaceAnswer(place=best)

    # ------------------------------------------------------------------ dialogue (§4.3.2)
    @_answer.register
    def _(self, q: questions.DecideToTalk) -> answers.TalkAnswer:
        if any(w in q.other_action.lower() for w in ("sleep", "talking")):
            return answers.TalkAnswer(talk=False, reason=f"{q.other_name} is busy")
        news = worth_telling(q.memories, q.other_name, q.persona_name)
        if news:
            return answers.TalkAnswer(talk=True, reason=f"I want to tell them: {gist(news[0].content)}"[:300])
        about = [m for m in q.memories if first_name(q.other_name) in m.content]
        # Nothing new to tell: an invitation is usually accepted, a stranger rarely addressed.
        chance = (0.7 if q.invited else 0.15) if (q.relationship or about) else (0.5 if q.invited else 0.05)
        talk = random.Random(q.seed).random() < chance
        return answers.TalkAnswer(talk=talk, reason="to say hello" if talk else "nothing new to say")

    @_answer.register
    def _(self, q: questions.NextLine) -> answers.LineAnswer:
        # one dialogue act per line, from the retrieved memories (scripted_talk)
        return next_line(q)

    @_answer.register
    def _(self, q: questions.SummariseConversation) -> answers.SummaryAnswer:
        told = [line for who, line in q.history if who == q.other_name and is_news(line)]
        topic = f": {gist(heard_statement(told[0], q.other_name))}" if told else ""
        return answers.SummaryAnswer(summary=f"I talked with {q.other_name}{topic}"[:400])

    # ------------------------------------------------------------------ reflection (§4.2)
    @_answer.register
    def _(self, q: questions.FocalPoints) -> answers.FocalPointsAnswer:
        people = [n for n in q.people if n != q.persona_name]
        weight: dict[str, int] = {}
        topics: dict[str, int] = {}
        for m in q.memories:
            for name in people:
                if name in m.content:
                    weight[name] = weight.get(name, 0) + m.importance
            if m.importance >= 5:
                for w in _content_words(m.content) - _name_words(people):
                    topics[w] = topics.get(w, 0) + m.importance
        points = [f"What do I know about the {t}?"
                  for t in sorted(topics, key=lambda t: (-topics[t], t))[:2]]
        points += [f"How do I feel about {n}?" for n in sorted(weight, key=lambda n: (-weight[n], n))]
        points.append("What have I been spending my time on?")
        return answers.FocalPointsAnswer(questions=points[: q.n])

    @_answer.register
    def _(self, q: questions.Insights) -> answers.InsightsAnswer:
        subject = re.sub(r"^(What do I know about|How do I feel about|What have I been)\s*(the )?",
                         "", q.focal_point).rstrip("?") or "my days"
        ranked = sorted(q.memories, key=lambda m: (-m.importance, m.id))
        insights: list[dict[str, object]] = []
        for group in (ranked[:3], ranked[3:6]):
            if len(group) < 2 or len(insights) >= q.n:
                continue
            insights.append(dict(text=_synthesis(subject, group)[:400], evidence=[m.id for m in group]))
        if not insights:  # fewer than two memories: nothing to conclude (reflection drops it)
            insights.append(dict(text=f"I know too little yet about {subject}."[:400],
                                 evidence=[m.id for m in ranked] or [0]))
        return answers.InsightsAnswer(insights=insights)

    @_answer.register
    def _(self, q: questions.AnswerInterview) -> answers.InterviewAnswer:
        # A question about the persona itself is answered from its own description: "I am
        # <name>." and the description's sentences holding the most of that facet's words.
        for pattern, marks in _SELF_FACETS:
            if pattern.search(q.question):
                return answers.InterviewAnswer(answer=" ".join([f"I am {q.persona_name}.",
                                                        *_self_sentences(q.persona_summary, marks)])[:1000])
        # Relevance: how many of the question's content words a retrieved memory holds; ties
        # keep retrieval order. No shared word: the persona does not know.
        words = _content_words(q.question)
        scored = [(len(words & _content_words(m.content)), -i, m) for i, m in enumerate(q.memories)]
        best = max(scored, key=lambda s: s[:2], default=None)
        if best is None or best[0] == 0:
            return answers.InterviewAnswer(answer="No, I don't know anything about that.")
        return answers.InterviewAnswer(answer=f"Yes. {best[2].content}"[:1000])

    # ------------------------------------------------------------------ procedures (docs/design, §2)
    @_answer.register
    def _(self, q: questions.GeneraliseProcedure) -> answers.ProcedureAnswer:
        text = generalise_text(q.task, dict(q.parameters))
        return answers.ProcedureAnswer(name=text, when=text)


#: Interview questions about the persona itself: (question pattern, words marking the sentences
#: of its description that answer it). Name: no sentence, "I am <name>." says it.
_SELF_FACETS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"\byour name\b|\bintroduce yourself\b|\bwho are you\b", re.IGNORECASE), frozenset()),
    (re.compile(r"\byour (occupation|job|work|profession)\b|\bdo you (work|study)\b|\bfor a living\b",
                re.IGNORECASE),
     frozenset("work works worked job owns runs manages study studies student teach teaches".split())),
    (re.compile(r"\bdo you live\b|\byour home\b", re.IGNORECASE), frozenset("live lives home".split())),
)


def _self_sentences(summary: str, marks: frozenset[str], n: int = 2) -> list[str]:
    """Up to ``n`` sentences of ``summary`` holding the most of ``marks`` (at least one), in order."""
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", summary.strip()) if x]
    counts = [len(marks & set(re.findall(r"[a-z]+", x.lower()))) for x in sentences]
    best = max(counts, default=0)
    return [x for x, c in zip(sentences, counts) if best and c == best][:n]


#: Words that carry no topic in an interview question (function words and asking verbs).
_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with about from into over under up out as so than
is are was were be been being am do does did done have has had i me my mine you your yours he him
his she her hers it its we us our they them their what which who whom whose when where why how
that this these those there here any anything anyone some something someone know knew known
heard hear tell told think thought can could would should will shall may might must not no yes
please going get got
""".split())


@lru_cache(maxsize=65536)
def _content_words(text: str) -> frozenset[str]:
    """Lower-case topic words of ``text``: no stopwords, no possessive "'s", at least 3 letters.

    Remembers recent texts: interviews and reflections read the same memories again and again.
    """
    words = (w.removesuffix("'s").strip("'") for w in re.findall(r"[a-z']+", text.lower()))
    return frozenset(w for w in words if len(w) >= 3 and w not in _STOPWORDS)


def _name_words(names) -> set[str]:
    return {w.lower() for n in names for w in n.split()}


def _synthesis(subject: str, group) -> str:
    """An insight about ``subject`` from two or more memories.

    Built from the topic words they share (or each one's main words), never one memory's sentence.
    """
    words = [_content_words(m.content) for m in group]
    counts: dict[str, int] = {}
    for ws in words:
        for w in ws:
            counts[w] = counts.get(w, 0) + 1
    shared = sorted((w for w, c in counts.items() if c >= 2), key=lambda w: (-counts[w], w))[:4]
    mean = round(sum(m.importance for m in group) / len(group))
    if shared:
        return (f"Thinking about {subject}: {len(group)} things I remember keep coming back to "
                f"{', '.join(shared)}, and they matter to me ({mean}/10).")
    heads = [", ".join(sorted(ws)[:2]) for ws in words if ws]
    return f"Thinking about {subject}, I connect {' with '.join(heads)} ({mean}/10)."
