"""The scripted backend: deterministic rules that answer every question without a network.

Rules work over the question's inputs alone (the persona's file, what it perceives, the clock and
the retrieved memories' text), so behaviour flows through retrieval as in Park et al. 2023:
importance comes from the embedded rater (``town.importance``), a day plan adds an event only
when a retrieved memory's text states it (``town.thinking.dayplan``), and a conversation passes
on the speaker's best retrieved memories that the listener has not heard from them (the lines
are :mod:`town.scripted.talk`).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from functools import singledispatchmethod
from typing import cast

from pydantic import BaseModel

from ..hearsay import unwrap
from ..importance import prepare, rate
from ..procedures.generalise import generalise_text
from ..inflection import gerund
from ..perspective import mine
from ..textevent import StatedEvent, place_names
from ..world.objects import act_of, mentions, names, use_of, works_at
from ..thinking import answers, questions
from ..thinking.backend import ThinkingBackend
from .attend import OWN_PLAN, Decision, decide
from .exchange import acceptance, initiative, write_conversation
from ..thinking.dayplan import called_off, events_on, fact_block, meal_of, minutes_of, with_events
from ..thinking.questions import A, Question
from ..thinking.questions.plan_day import MAX_ADDED
from .insight import insights_from, is_topic
from .interview import answer_interview
from .naming import event_block
from .reply import is_news
from .talk import first_name, gist, next_line, worth_telling
from ..thinking.words import content_words, name_words

__all__ = ["ScriptedBackend"]


def _leaf(address: str) -> str:
    return address.rsplit(":", 1)[-1]


_ROUTINE_WORDS = re.compile(r"\b(sleep|sleeping|idle|walking|rest)\b", re.I)
#: a capitalised word that does not open a sentence: a name, a place, a month, a weekday
_MID_CAPITAL = re.compile(r"(?<![.!?:;]\s)(?<!^)\b[A-Z][a-z']+")


def _proper_words(text: str) -> set[str]:
    """The lower-case forms of the proper nouns in ``text`` ("Hobbs Cafe on February 14":
    hobbs, cafe, february): no topic for "What do I know about the ...?"."""
    return {w.lower().removesuffix("'s") for w in _MID_CAPITAL.findall(text)}


def _closed_blocks(routine, shut: list, day: date, me: str) -> list[tuple[StatedEvent, str]]:
    """Blocks at home standing in for the routine's blocks at a place closed then, or doing what
    is cancelled (each run of them, :meth:`~town.memory.fact.Fact.frees`): "have lunch at home"
    for a meal, "stay home
    instead of drinking a latte at Hobbs Cafe", "take the day off at home" for a run of four
    hours or more ("the rest of the day" from noon); none when the routine names no home (its
    sleeping block's place). A closure heard from another (its ``host`` not ``me``,
    :func:`~town.thinking.dayplan.called_off`) does not close one's workplace (four routine
    hours or more with a task there): its owner knows its hours."""
    bed = next((r.place for r in routine if "sleep" in r.description.lower()), None)
    if bed is None or not shut:
        return []
    home = ":".join(bed.split(":")[:2])
    room = ":".join(bed.split(":")[:3])  # a day off in one's own room, not another's bed in the dorm
    hours: dict[str, int] = {}
    for r in routine:
        if r.task:
            building = ":".join(r.place.split(":")[:2])
            hours[building] = hours.get(building, 0) + minutes_of(r.end) - minutes_of(r.start)
    work = {b for b, m in hours.items() if m >= 240}
    shut = [f for f in shut if f.cancelled or f.host in (None, me) or ":".join((f.place or "").split(":")[:2]) not in work]
    out: list[tuple[StatedEvent, str]] = []
    for r in routine:
        start = datetime.combine(day, time()) + timedelta(minutes=minutes_of(r.start))
        end = datetime.combine(day, time()) + timedelta(minutes=minutes_of(r.end))
        closing = next((f for f in shut if f.frees(r.description, r.place, start, end)), None)
        if closing is None or r.place.startswith(home):
            continue
        if closing.part is None and closing.start is not None:  # "closes early at 3pm": the block until then stays
            start = max(start, closing.start)
        meal = meal_of(r.description)
        what = f"have {meal} at home" if meal else f"stay home instead of {mine(gerund(r.description))}"
        if out and out[-1][0].end == start and not meal and not meal_of(out[-1][1]):  # one block for a run
            run = replace(out[-1][0], end=end)
            off = "take the rest of the day off at home" if run.start.hour >= 12 else "take the day off at home"
            out[-1] = (run, off if end - run.start >= timedelta(hours=4) else out[-1][1])
        elif end - start >= timedelta(hours=4) and not meal:  # a whole shift: a day off, not "instead of"
            off = "take the rest of the day off at home" if start.hour >= 12 else "take the day off at home"
            out.append((StatedEvent(place=room, start=start, end=end), off))
        else:
            out.append((StatedEvent(place=home if meal else room, start=start, end=end), what))
    return out[:MAX_ADDED]


def _second_meals(routine, events: set[str]) -> list[int]:
    """The 1-based numbers of the routine's blocks that eat a meal the day already holds: one the
    day's events hold (a breakfast one goes to), or an earlier routine block ("have a late
    breakfast" after "eat breakfast"). A day plan holds each meal once."""
    held = {m for m in map(meal_of, events) if m}
    drop = []
    for i, r in enumerate(routine, 1):
        meal = meal_of(r.description)
        if meal in held:
            drop.append(i)
        elif meal:
            held.add(meal)
    return drop


def _staying(answer: answers.DayPlanAnswer, routine) -> answers.DayPlanAnswer:
    """``answer`` with each added "go to X ..." block that follows a block in X's sector said as
    "stay at X ...": a plan does not send a persona where it already is."""
    day = answer.day(routine)
    there = {b.description for before, b in zip(day, day[1:])
             if b.description.startswith("go to ") and before.place.split(":")[:2] == b.place.split(":")[:2]}
    if not there:
        return answer
    return answer.model_copy(update={"add": [
        a.model_copy(update={"description": f"stay at {a.description[len('go to '):]}"})
        if a.description in there else a for a in answer.add]})


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

    @_answer.register
    def _(self, q: questions.HearLine) -> answers.HeardAnswer:
        # the rating of the memory the line makes; what it states is the speaker's dialogue act
        importance = rate(q.content, "chat")
        if not q.meant:
            return answers.HeardAnswer(importance=importance)
        act = q.meant[0]
        return answers.HeardAnswer(
            importance=importance, act=act.act, subject=act.subject, place=act.place,
            start=act.start, end=act.end, host=act.host, everyone="everyone" in act.invited,
            invites_me=q.persona_name in act.invited, question=act.question, part=act.part,
            cancelled=act.cancelled, closed=act.closed, moved=act.moved, price=act.price,
            done=act.done, secret=act.secret)

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
        found = events_on(q.memories, day, place_names(tuple(q.places)), q.persona_name)
        by_id = {m.id: m for m in q.memories}
        choices: list[answers.EventChoice] = []
        shut = [f for f in called_off(q.memories, q.persona_name) if f.closed or f.cancelled]
        events: list[tuple[StatedEvent, str]] = _closed_blocks(q.routine, shut, day, q.persona_name)  # home instead
        own: list[bool] = [False] * len(events)
        closures = len(events)  # first in the list, and kept first by the stable sort below
        for e, ids in found:
            stating = [by_id[i] for i in ids]
            d = decide(e, stating, routine=q.routine, memories=q.memories, summary=q.persona_summary, seed=q.attend_seed,
                       me=q.persona_name)
            if d.go and len(events) == MAX_ADDED:  # the answer adds at most MAX_ADDED blocks
                d = Decision(False, f"I already have {MAX_ADDED} other plans that day")
            clash = d.clash and f"{d.clash.start}-{d.clash.end} {d.clash.description} at {d.clash.place}"
            choices.append(answers.EventChoice(place=e.place, start=f"{e.start:%Y-%m-%d %H:%M}",
                                               end=f"{e.end:%Y-%m-%d %H:%M}", go=d.go, reason=d.reason,
                                               evidence=list(ids), clash=clash))
            if d.go:
                fact = stating[0].fact
                events.append((e, fact_block(fact, e, q.persona_name) if fact is not None
                               else event_block(e, unwrap(stating[0].content)[1])))
                own.append(d.reason == OWN_PLAN)
        # one's own events last, so they win where another's overlaps them (a host plays their concert)
        ranked = sorted(zip(events, own), key=lambda pair: pair[1])
        events = [ev for ev, _ in ranked]
        # the answer is the changes to the routine: the event blocks, added (they cut the routine)
        while True:
            said = {d for _, d in events}
            added = [b for b in with_events(blocks, events, day) if b["task"] is None and b["description"] in said]
            # an event inside another block cuts it in two: past MAX_ADDED blocks, the last others' event
            # gone to is left out (a closure's home blocks and one's own events stay)
            extra = next((i for i in range(len(ranked) - 1, closures - 1, -1) if not ranked[i][1]), None) \
                if len(added) > MAX_ADDED else None
            if extra is None:
                break
            (left, _), _ = ranked.pop(extra)
            events = [ev for ev, _ in ranked]
            at = f"{left.start:%Y-%m-%d %H:%M}"
            choices = [c.model_copy(update={"go": False, "reason": f"I already have {MAX_ADDED} other plans that day"})
                       if c.go and c.start == at and c.place == left.place else c for c in choices]
        added = added[:MAX_ADDED]  # none left to leave out: the earliest blocks
        answer = answers.DayPlanAnswer(add=[
            answers.PlanItemAnswer(start=b["start"], minutes=minutes_of(b["end"]) - minutes_of(b["start"]),
                           description=b["description"][:120], place=b["place"])
            for b in added], drop=_second_meals(q.routine, said), events=choices)
        answer = _staying(answer, q.routine)
        if q.first is None:
            return answer
        # the block at hand, as its own decomposition would split it, from the plan's memories
        return answer.model_copy(update={"steps": self.ask(replace(q.first, memories=q.memories)).steps})

    @_answer.register
    def _(self, q: questions.DecomposeTask) -> answers.StepsAnswer:
        rng = random.Random(q.seed)
        objects = list(q.objects) or [q.place]
        if _ROUTINE_WORDS.search(q.task) and "sleep" in q.task.lower():
            beds = [o for o in objects if names(_leaf(o), "bed")] or objects
            return answers.StepsAnswer(steps=[dict(description=q.task, object=beds[0], minutes=q.minutes)])
        # a known procedure the task names (all its words in the task) is done first, as is
        words = content_words(q.task)
        part = next((k for k in q.procedures if (named := content_words(k["name"])) and named <= words
                     and all(s["object"] in objects for s in k["steps"])), None)
        steps = [] if part is None else [dict(s) for s in part["steps"]]
        left = q.minutes - sum(s["minutes"] for s in steps)
        # then objects a retrieved memory names (the "act" retrieval shapes the steps)
        recalled = [o for o in objects if any(mentions(m.content, _leaf(o)) for m in q.memories)]
        while left > 0 and len(steps) < 24:
            obj = recalled.pop(0) if recalled else objects[rng.randrange(len(objects))]
            minutes = min(left, rng.choice((5, 10, 10, 15)))
            verb = use_of(_leaf(obj)).verb_for(works_at(q.workplaces, obj))  # a guest orders, staff serve
            steps.append(dict(description=f"{verb} ({act_of(q.task)})", object=obj, minutes=minutes))
            left -= minutes
        if q.finished is None:
            return answers.StepsAnswer(steps=steps)
        title = self.ask(q.finished)  # the task just finished, named as its own question would be
        return answers.StepsAnswer(steps=steps, name=title.name, when=title.when)

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
        verb = use_of(_leaf(obj)).verb_for(works_at(q.workplaces, obj))
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
        news = worth_telling(q.memories, q.other_name, q.persona_name, datetime.fromisoformat(q.now) if q.now else None)
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
    def _(self, q: questions.WriteConversation) -> answers.ExchangeAnswer:
        # the per-line rules, turn by turn, each side from its own memories; the one starting it,
        # when asked to decide, and the one addressed, when not asked first, as their DecideToTalk
        # rules say (the reason ended as a sentence: a gist cut at "... up to" is not broken off)
        started = self.ask(initiative(q)) if q.decide else answers.TalkAnswer(talk=True)
        reason = started.reason.rstrip(" .…") + "." if started.reason else ""
        if not started.talk:
            return answers.ExchangeAnswer(talk=False, reason=reason)
        written = write_conversation(q, accepted=not q.may_decline or self.ask(acceptance(q)).talk)
        return written.model_copy(update={"reason": reason})

    @_answer.register
    def _(self, q: questions.SummariseConversation) -> answers.SummaryAnswer:
        theirs = [line for who, line in q.history if who == q.other_name]
        # what they said, quoted as said (never shifted into this persona's person): their longest
        # line that is not news (news heard is a memory of its own), else their news
        told = (sorted((line for line in theirs if not is_news(line)), key=len, reverse=True)[:1]
                or [line for line in theirs if is_news(line)])
        topic = f': {first_name(q.other_name)} said "{gist(told[0], 200)}"' if told else ""
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
                for w in content_words(m.content) - name_words(people) - _proper_words(m.content):
                    topics[w] = topics.get(w, 0) + m.importance
        texts = [m.content for m in q.memories]
        points = [f"What do I know about the {t}?"  # a thing talked of: not "the want", "the close"
                  for t in sorted((t for t in topics if is_topic(t, texts)), key=lambda t: (-topics[t], t))[:2]]
        points += [f"How do I feel about {n}?" for n in sorted(weight, key=lambda n: (-weight[n], n))]
        points.append("What have I been spending my time on?")
        return answers.FocalPointsAnswer(questions=points[: q.n])

    @_answer.register
    def _(self, q: questions.Insights) -> answers.InsightsAnswer:
        now = datetime.fromisoformat(q.now) if q.now else max(
            (datetime.fromisoformat(m.created) for m in q.memories if m.created), default=datetime(2000, 1, 1))
        found = insights_from(q.memories, me=q.persona_name, people=q.people, places=q.places, now=now,
                              subject=q.focal_point, ties=q.ties, home=q.home)[: q.n]
        if not found:  # nothing two memories support: one cited id, so reflection writes nothing
            return answers.InsightsAnswer(insights=[dict(text="Nothing stands out to me yet.",
                                                         evidence=[m.id for m in q.memories[:1]] or [0])])
        return answers.InsightsAnswer(insights=[dict(text=t[:400], evidence=ids) for t, ids in found])

    @_answer.register
    def _(self, q: questions.AnswerInterview) -> answers.InterviewAnswer:
        return answer_interview(q)

    # ------------------------------------------------------------------ procedures (docs/design, §2)
    @_answer.register
    def _(self, q: questions.GeneraliseProcedure) -> answers.ProcedureAnswer:
        text = generalise_text(q.task, dict(q.parameters))
        return answers.ProcedureAnswer(name=text, when=text)
