"""The scripted answer to any question, by its kind: the one answerer of interviews, players and
personas asking each other (:func:`answer`; :func:`town.scripted.reply.answer_question` in talk).

Park et al. 2023 §6.1 interview their agents; here a rule answers. :func:`kind_of` tells the kind
of question (about the persona itself, a greeting, a hypothetical, an intention with its reason,
the day so far, yesterday, news, trust, plans at a time, a reaction to a situation, a feeling
about a person, an opinion of a thing, a preference, where someone works, who, when, where, why,
yes/no, or what).
Each kind's answer is in the first person, from the typed fields of the memories retrieved for
the question (facts, tellers, plan items, a plan's decisions with their reasons) and the
persona's own file (its description and routine), never a memory's text pasted, and cites the
ids of the memories it used. "I don't know" is said only when no retrieved memory bears on the
question; only a yes/no question is answered "Yes." or "No.". Reactions to a situation are
:mod:`town.scripted.reaction`; intentions, hypotheticals, preferences and opinions
:mod:`town.scripted.stance`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, time, timedelta

from ..hearsay import unwrap
from ..inflection import base_form, gerund, in_past, is_verb
from ..perspective import mine, own_voice, relative_days
from ..reading import spelled_out
from ..realise import PART_SAID, place_name, sayable, statement
from ..textevent import DEFAULT_MINUTES, WEEKDAYS, stated_day, stated_times
from ..thinking import answers
from ..thinking.dayplan import called_off, meal_of, put_off, told_since
from ..thinking.questions import AnswerInterview
from .recount import WORK_WORDS, dated, is_about, main_words, recount, sentence, told_by
from .attend import CLOSE, FAMILY
from .voice import hello, opens_small_talk
from ..player import takes_leave
from .reaction import REACTION, react, traits_of
from .stance import (ASKED_PAST, event_name, hypothetical, intention, opinion, own_reason, preference, struck_place,
                     their_reason, told, view_of, would_go)
from ..thinking.words import any_phrase, content_words, name_words, topic_words

__all__ = ["KINDS", "kind_of", "answer", "answer_interview", "DONT_KNOW"]

#: The kinds of question :func:`kind_of` tells apart, in the order they are tried.
KINDS = ("self", "family", "greeting", "hypothetical", "attendance", "intention", "day", "past", "news", "trust", "plan", "reaction", "feeling",
         "opinion", "preference", "work", "who", "when", "where", "why", "yes/no", "what")

#: The answer when no retrieved memory bears on the question.
DONT_KNOW = "I don't know anything about that."

_SELF: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (  # (pattern, words marking the description's sentences that answer it)
    (re.compile(r"\byour name\b|\bintroduce yourself\b|\bwho are you\b(?!\s+[a-z]+ing\b|\s+(?:with|to|for|at)\b)|"
                r"^\s*are you (?-i:[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)\s*[?.!]*$", re.I), frozenset()),
    (re.compile(r"\byour (occupation|job|work|profession)\b|\bdo you (work|study)\b|\bfor a living\b|"
                r"\b(?:and|so) what do you do\b|^\s*what do you do\s*[?.!]*\s*$|\bwhat do you do for (?:work|a living)\b|\bwith your life\b|"
                r"\bwhat are you working on\b", re.I),
     WORK_WORDS),
    (re.compile(r"\bdo you live\b|\byour home\b", re.I), frozenset("live lives home".split())),
    (re.compile(r"\bhow old are you\b|\byour age\b", re.I), frozenset()),  # said from the file's age
)
_PLAN = any_phrase("will you", "are you (going|planning|doing|up to|busy|free)", "your (schedule|plans)", "any plans",
                   "on your schedule", "you expect", "do you plan", "looking forward")
_WEEKDAY = f"(?:{'|'.join(WEEKDAYS)})"
_WHEN_WORDS = any_phrase(r"at \d{1,2}(:\d\d)?", "tomorrow", "tonight", "today", "this (morning|afternoon|evening)",
                         f"on {_WEEKDAY}")
_PREFERENCE = any_phrase("value most", "would you (most )?like", "do you (like|prefer|enjoy)", "would you rather",
                         "your favou?rite", "like (best|most)", "learned about yourself", "could change",
                         "matters? (most )?to you")
#: A question about what one does for pleasure: a preference, not a situation ("What do you do for
#: fun?" is no "what do you do if ...").
_LEISURE = any_phrase("for fun", "(?:free|spare) time", "your hobb(?:y|ies)", "to (?:relax|unwind)")
#: "How do you feel about X?": a feeling when X is a person of the town, else an opinion of a thing.
_FEELING = re.compile(r"\b(?:how do you feel about|what do you think (?:of|about)|"
                      r"your (?:opinion|view) (?:of|on|about)|what's your take on|how do you like|what do you make of|"
                      r"how do you get on with|how do you get along with)\s+(?P<thing>[^?]+)", re.I)
#: A feeling for someone ("Do you have feelings for Klaus?", "Do you like Maria?"): asked of a
#: person of the town only ("Do you like coffee?" is a preference).
_FEELING_FOR = re.compile(r"\b(?:do you (?:really )?like|do you have (?:feelings|a crush|a thing|a soft spot) (?:for|on)|"
                          r"are you (?:in love with|into|attracted to|fond of)|do you fancy|what do you feel for|"
                          r"how do you feel towards|do you care about|do you love)\s+(?P<thing>[^?]+)", re.I)
_HYPOTHETICAL = any_phrase("what would you do if", "what if", "if you (?:were|had|won|lost)", "imagine", "suppose",
                           r"would you (?:\w+'?\w* ){1,8}if")
_INTENTION = re.compile(r"\b(?:are you (?:going|coming|planning) to (?!do\b|be doing\b)|"
                        r"will you (?:go|come|attend|be at|join|take part in|play in|compete in)\b|"
                        r"(?:^|[.!?]\s+)(?:will|would|did) you (?!(?:be|hear|see|know|notice|think|like|enjoy|meet|"
                        r"talk)\b)[a-z]+ (?:at|in|during) (?:the|a|an)\b|"
                        r"(?:^|[.!?]\s+)(?:will|would|did) you (?:enter|sign up for|register for|volunteer for|help with) "
                        r"(?:the|a|an)\b|"
                        r"did you (?:(?:go|come|make it) to|attend|join|take part in|play in|compete in|be at)\b|"
                        r"are you (?:attending|joining|taking part in|playing in|competing in)\b|"
                        r"why (?:are|aren't|were|weren't|will|won't|would|did|didn't) you\b|and why\b|\bwhy( not)?\?)", re.I)
_WHO = re.compile(r"^\s*(who is|who's|what do you (know|remember|think) (about|of))\s+(?P<name>[^?]+)", re.I)
_YES_NO = re.compile(r"^\s*(do|does|did|is|are|was|were|have|has|had|can|could|will|would|should|shall)\b", re.I)
_SOMEONE = r"((?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?|he|she|they)"
#: Where someone works or what they do for a living ("Where does Carmen work?", "What is Sam's job?").
_WORK = re.compile(rf"\bwhere (?:does|did) {_SOMEONE} (?:work|study)\b|\bwhat (?:does|did) {_SOMEONE} do for "
                   rf"(?:a living|work)\b|\bwhat(?:'s| is) {_SOMEONE}'s? (?:job|work|occupation)\b", re.I)
_PARTS_OF_DAY = {"morning": time(9), "afternoon": time(15), "evening": time(18), "tonight": time(20),
                 "night": time(21), "noon": time(12), "lunchtime": time(12)}
_NAMED = re.compile(r"(?<!^)(?<![.!?] )\b([A-Z][a-z]+(?: [A-Z][a-z]+)+)\b")  # a name inside a question
_BARE_TALK = re.compile(r"I talked with [^:]+\.?")  # a talk remembered without what about
_SIGHTING = re.compile(r"\bis (at|in) the\b")
_PLACE = re.compile(r"\b(?:at|in|to) (?:the )?((?:[A-Z][\w']*\s?)+)")


_GREETING = re.compile(r"^\s*(?:good (?:morning|afternoon|evening)|hi|hello|hey|how'?s it going|how are you|"
                       r"how are things|what'?s up|how have you been)\b", re.I)
#: Small talk: a remark on the weather or the day, often with a tag ("Lovely weather, isn't it?").
_REMARK = any_phrase("weather", "sunny", "sunshine", "rainy", "raining",
                     "(?:nice|lovely|beautiful|fine|great|gorgeous) (?:day|morning|afternoon|evening)")
_ASKING = re.compile(r"\s*(?:what|how|why|where|when|who|which|would|could|if|do|does|did|will)\b", re.I)  # not a remark
_DAY = any_phrase("your day", "your (?:morning|afternoon|evening)", "day (?:so far|been|going)", "today so far",
                  r"(?:did|have) you (?:do|done|been doing|been up to) (?:today|tonight|this (?:morning|afternoon|evening)"
                  r"|so far|earlier)",
                  "been up to today", "what have you been (?:doing|up to)",
                  "happened (?:to you )?(?:today|tonight|this (?:morning|afternoon|evening))",
                  r"who (?:did|have) you (?:talk(?:ed)?|speak|spoken|meet|met|see|seen) (?:to |with )?today")
_NEWS = any_phrase("news", "heard (?:lately|recently|anything)", "what(?:'s| is) going on", "what(?:'s| is) new",
                   "anything happening", "happening (?:tonight|today|tomorrow|this week)", "any gossip",
                   "(?:latest|juicy) gossip", "the latest", "what have you heard")
_PAST = any_phrase("yesterday", "last night", rf"(?:did|was|were)\b.*\bon {_WEEKDAY}")
#: What one did at a time of today: its plan then ("What were you doing at 10am?").
_DID = any_phrase("were you doing", "did you do", "were you up to", "had you been doing", "where were you")
#: "after lunch": the time a meal of the day's plan ends (the next item's start), else the usual
#: end of that meal.
_AFTER_MEAL = re.compile(r"\bafter (?P<meal>breakfast|brunch|lunch|dinner|supper)\b", re.I)
_AFTER_MEALS = {"breakfast": time(9), "brunch": time(12), "lunch": time(13), "dinner": time(20), "supper": time(20)}
#: One's family: "Tell me about your family.", "Do you have kids?", "Are you married?".
_FAMILY = any_phrase("your family", "your (?:parents|kids|children|siblings|relatives)", "are you married",
                     "do you have (?:kids|children|a family|any family|siblings|brothers|sisters)")
_TRUST = any_phrase("trust", "rely on", "count on", "closest to", "best friend", "confide")
#: Whom one spends one's time with: asked as whom one trusts, and answered so.
_TIME_WITH = any_phrase("spend (?:the )?most (?:of (?:my|your) )?time with", "see (?:the )?most of",
                        "hang out with (?:the )?most", "talk to (?:the )?most")
#: Who was at an event: "Who came to your party?", "who showed up?", "Who was at the marathon?".
_ATTENDANCE = re.compile(r"\bwho (?:came|showed up|turned up|went|attended|was there|were there|did you see|else came)\b"
                         r"|\bwho (?:was|were|is|are) (?:at|there)\b"
                         r"|\bdid (?-i:[A-Z][\w'-]+)(?: (?-i:[A-Z][\w'-]+))? (?:come|go|show up|turn up|make it|attend)\b"
                         r"|\bwas (?-i:[A-Z][\w'-]+)(?: (?-i:[A-Z][\w'-]+))? (?:at|there)\b"
                         r"|\bwho did you (?:talk|speak|chat)(?: to| with)? (?:at|there)\b"
                         r"|\bwere you (?:at|there for) (?:the|your|his|her|their|that)\b", re.I)
#: How an event went ("How did your party go?", "How was the chalk contest?"): who came, said with
#: how it went; "How was your day?" and "How was work?" ask of a day, not an event.
_HOW_IT_WENT = re.compile(r"\bhow did (?:the|your|his|her|their|that|it)\b[^?]*?\bgo\b|"
                          r"\bdid you (?:have fun|enjoy yourself|have a good time|enjoy) (?:at )?(?:the|your|that)\b|"
                          r"\bhow was (?:the|your|that) (?!(?:day|morning|afternoon|evening|night|week|weekend|work|"
                          r"shift|class|lecture|exam|trip|sleep|lunch|dinner|breakfast)\b)[a-z'-]+", re.I)


#: What one is doing or where one is now, asked as a whole ("What are you doing?", "Where are you
#: right now?", "What are you up to at the moment?"): the plan's block under way.
_NOW_ASKED = re.compile(r"^\W*(?:so,?\s+|and\s+)?(?:what are you (?:doing|up to|busy with)|where are you)"
                        r"(?:\s+(?:right\s+)?now|\s+at the moment|\s+currently)?\W*$"
                        r"|\b(?:what are you (?:doing|up to)|where are you)\b.*\b(?:right now|at the moment|currently)\b",
                        re.I)


#: Who puts on an event, asked: "Who is organising the pizza party?", "Who hosted the open mic?".
_HOST_ASKED = re.compile(r"^\W*who(?:'s| is| was)?\s+(?:organi[sz](?:ed|ing)|host(?:ed|ing)|throw(?:ing)|threw|"
                         r"run(?:ning)?|ran|giv(?:ing)|gave|hold(?:ing)|held|plann(?:ed|ing)|behind|putting on|put on)\b",
                         re.I)


def kind_of(question: str) -> str:
    """The kind of ``question``, one of :data:`KINDS`.

    "What will you be doing tomorrow at 15:00?" -> "plan"; "Your breakfast is burning! What do
    you do?" -> "reaction"; "How do you feel about Klaus?" -> "preference"; "Who is Klaus
    Mueller?" -> "who"; "Did you hear about a party?" -> "yes/no".
    """
    if _TRUST.search(question) or _TIME_WITH.search(question):  # "who are you closest to?": others, not oneself
        return "trust"
    if _WORK.search(question):  # another's work ("what does Sam do for a living?"), before one's own
        return "work"
    if _FAMILY.search(question):
        return "family"
    if any(p.search(question) for p, _ in _SELF):
        return "self"
    if _GREETING.search(question) or (_REMARK.search(question) and not _ASKING.match(question)):
        return "greeting"
    if _LEISURE.search(question):
        return "preference"
    if _HYPOTHETICAL.search(question):
        return "hypothetical"
    if _NOW_ASKED.search(question):
        return "plan"  # the block under way
    if _ATTENDANCE.search(question) or _HOW_IT_WENT.search(question):
        return "attendance"
    if _INTENTION.search(question):
        return "intention"
    if _PAST.search(question) and not _PLAN.search(question):
        return "past"
    if _DAY.search(question):
        return "day"
    if _NEWS.search(question):
        return "news"
    if _PLAN.search(question) and (_WHEN_WORDS.search(question) or stated_times(question) or _WEEK.search(question)):
        return "plan"
    if _DID.search(question) and (stated_times(question) or _AFTER_MEAL.search(question)):
        return "plan"  # "What were you doing at 10am?", "What did you do after lunch?": the plan then
    if REACTION.search(question):
        return "reaction"
    feeling = _FEELING.search(question) or _FEELING_FOR.search(question)
    if feeling:
        thing = feeling.group("thing").strip(" .!")
        related = re.fullmatch(r"your (\w+)", thing)
        person = re.fullmatch(r"(?:[A-Z][a-z'-]+)(?: [A-Z][a-z'-]+)?", thing) or (related and related[1] in CLOSE)
        if person or feeling.re is _FEELING:
            return "feeling" if person else "opinion"
    if _PREFERENCE.search(question):
        return "preference"
    who = _WHO.search(question)
    if who and who.group("name").strip()[:1].isupper():
        return "who"
    word = re.sub(r"['’]s$", "", question.strip().split(" ", 1)[0].lower())  # "where's" asks where
    if word in ("when", "where", "why"):
        return word
    if re.match(r"\s*(?:at |on )?what (?:time|day|date)\b", question, re.I):  # "What time does it start?" asks when
        return "when"
    return "yes/no" if _YES_NO.search(question) else "what"


def _said(text: str, evidence: list[int]) -> answers.InterviewAnswer:
    return answers.InterviewAnswer(answer=text.strip()[:1000], evidence=list(dict.fromkeys(evidence)))


def _unique(memories) -> list:
    """``memories`` without a repeated statement (an insight written on two days, news heard from
    two people, one saying "today" and one "on Tuesday, February 14"), first kept: a statement
    repeats when four in five of its topic words (days and an insight's closing "X and Y told me"
    left out) are an earlier one's."""
    out: list = []
    seen: list[frozenset[str]] = []
    for m in memories:
        said = re.sub(r"^I talked with [^:]+: ", "", unwrap(m.content)[1])
        said = re.sub(r": [^:]* told me\.?$", "", said)  # who told it is not what it says
        words = content_words(said) - _DAY_WORDS
        if not any(len(words & w) >= 0.8 * max(len(words | w), 1) for w in seen):
            seen.append(words)
            out.append(m)
    return out


_DAY_WORDS = frozenset("today tonight tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday "
                       "january february march april may june july august september october november december".split())


def _relevant(q: AnswerInterview) -> list:
    """Retrieved memories bearing on what the question asks, most first: the most of its topic
    words (:func:`town.thinking.words.topic_words`, the town's names left out) in a memory's
    fact's fields (subject, act, place, host) and words, then the most names it shares; none
    sharing nothing. A question naming someone ("What is Klaus working on?") puts the memories
    naming them first. Whatever retrieval ranked first, the thing asked decides.

    Ties: a memory naming the day asked about ("Is Hobbs Cafe open on Wednesday?"), then what
    was seen or heard before insights (an insight says less of the facts), then retrieval order.
    Repeated texts are left out.
    """
    named = name_words(p for p in q.people if p != q.persona_name) & topic_words(q.question)
    days = topic_words(q.question) & _DAY_WORDS
    scored = []
    for i, m in enumerate(q.memories):
        held = topic_words(f"{_fields(m.fact)} {m.content}")
        words, names = _bears(m, q)
        scored.append(((bool(named & held), words, bool(days & held), names, m.kind != "reflection", -i), m))
    return _unique(m for key, m in sorted(scored, key=lambda s: s[0], reverse=True) if key[1] + key[3])


#: Topic words of a question that ask rather than name the thing asked about.
_ASKED_WORDS = frozenset("opinion view take feel make like happen do doing work day news ask tell know think remember "
                         "hear say".split())  # "Who would you ask to fix a tyre?" names no asking


def _bears(m, q: AnswerInterview) -> tuple[int, int]:
    """(topic words, names) of the question memory ``m`` holds in its fact's fields and words (not
    the words of its asking, :data:`_ASKED_WORDS`: "Who would you ask to fix a flat tyre?" is
    not about someone who asked)."""
    names = name_words(q.people)
    words = topic_words(f"{_fields(m.fact)} {m.content}") & (topic_words(q.question) - _ASKED_WORDS)
    return len(words - names), len(words & names)


def _fields(fact) -> str:
    """A fact's typed fields as words: subject, act, place's name and host ("" without a fact)."""
    if fact is None:
        return ""
    return " ".join(x for x in (fact.subject, fact.act, place_name(fact.place) if fact.place else "", fact.host) if x)


def _self_sentences(summary: str, marks: frozenset[str], n: int = 2) -> list[str]:
    """Up to ``n`` sentences of ``summary`` holding the most of ``marks`` (at least one) in their
    main clause (:func:`town.scripted.recount.main_words`), in order."""
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", summary.strip()) if x]
    counts = [len(marks & main_words(x)) for x in sentences]
    best = max(counts, default=0)
    return [x for x, c in zip(sentences, counts) if best and c == best][:n]


def _about_self(q: AnswerInterview) -> answers.InterviewAnswer:
    """Who the persona is, its work, its home or its age, from its file (its name only when asked it)."""
    asked = [i for i, (p, _) in enumerate(_SELF) if p.search(q.question)]  # "your name and what do you do?": both
    said = [sentence(own_voice(x, q.persona_name)) for i in asked for x in _self_sentences(q.persona_summary, _SELF[i][1])]
    said = list(dict.fromkeys(said))
    age = re.match(r"[^,.]+, (\d+)\.", q.persona_summary)  # the file's "Name, age." (PersonaSpec.summary)
    if 3 in asked and age:  # "What is your name and how old are you?"
        said = [*said, f"I am {age[1]}."]
    if 0 in asked or not said:
        said = [f"I am {q.persona_name}.", *said]
    named = re.match(r"^\s*are you ([A-Z][\w' -]*?)\s*[?.!]*$", q.question, re.I)  # "Are you Ryan Park?"
    if named and 0 in asked:
        own = named[1].lower() in (q.persona_name.lower(), q.persona_name.split()[0].lower())
        said = [f"{'Yes' if own else 'No'}, I am {q.persona_name}.", *said[1:]]
    return _said(" ".join(said), [])


def _now(q: AnswerInterview) -> datetime | None:
    return datetime.fromisoformat(q.now) if q.now else None


def _asked_time(q: AnswerInterview) -> datetime | None:
    """The game time a plan question asks about (day by parsedatetime, hour by clock or part of day)."""
    now = _now(q)
    if now is None:
        return None
    day = stated_day(q.question, now) or now.date()
    found = stated_times(q.question)
    meal = _AFTER_MEAL.search(q.question)
    if meal is not None and found is None:  # the next item of that day's plan after the meal
        items, _ = _plan_items(q, datetime.combine(day, time()))
        ate = [i for i, (_, what, _) in enumerate(items) if meal_of(what) == meal["meal"].lower()]
        if ate and ate[0] + 1 < len(items):
            start = items[ate[0] + 1][0]
            return datetime.combine(day, time(start // 60, start % 60))
        return datetime.combine(day, _AFTER_MEALS[meal["meal"].lower()])  # no such meal planned: its usual end
    if found is not None:
        at = found[0]
    else:
        part = next((t for w, t in _PARTS_OF_DAY.items() if re.search(rf"\b{w}\b", q.question, re.I)), None)
        at = part or time(now.hour, now.minute)
    return datetime.combine(day, at)




def _sector(place: str) -> str:
    return place.split(":")[1] if ":" in place else ""


_PLAN_MEMORY = re.compile(r"^.+?'s plan for (?P<day>\w+ \w+ \d{1,2}): (?P<items>.*)$", re.S)
_ITEM = re.compile(r"(?P<h>\d{2}):(?P<m>\d{2}) (?P<what>[^;]+)")


def _plan_items(q: AnswerInterview, when: datetime) -> tuple[list[tuple[int, str, str]], list[int]]:
    """(start minute, what, where) of the day's plan: a retrieved plan memory's ``plan_items``
    for that day (the newest), else the routine."""
    plans = sorted((m for m in q.memories if m.kind == "plan" and m.plan_items
                    and m.plan_items[0].start.date() == when.date()), key=lambda m: (m.created, m.id))
    if plans:
        items = [(i.start.hour * 60 + i.start.minute, i.description, _sector(i.place or ""))
                 for i in plans[-1].plan_items]
        return items, [plans[-1].id]
    for m in q.memories:  # a plan memory written before plans kept their items: its "HH:MM what" list
        found = _PLAN_MEMORY.match(m.content)
        if m.kind == "plan" and found and found.group("day") == f"{when:%A %B} {when.day}":
            where = {r.description: _sector(r.place) for r in q.routine}  # the file says where each is
            items = [(int(i["h"]) * 60 + int(i["m"]), i["what"].strip(), where.get(i["what"].strip(), ""))
                     for i in _ITEM.finditer(found["items"])]
            return items, [m.id]
    return _routine_items(q), []


def _routine_items(q: AnswerInterview) -> list[tuple[int, str, str]]:
    """(start minute, what, where) of the persona file's usual day."""
    return [(int(r.start[:2]) * 60 + int(r.start[3:]), r.description, _sector(r.place)) for r in q.routine]


#: The hours a part of the day spans (from, to).
_SPANS = {"morning": (6, 12), "afternoon": (12, 17), "evening": (17, 22), "tonight": (17, 24), "night": (20, 24)}


def _window(question: str, now: datetime) -> tuple[datetime, time, time] | None:
    """(day, from, to) a question about plans asks about ("tomorrow evening" -> 17:00-22:00)."""
    day = stated_day(question, now)
    low = question.lower()
    if day is None and not re.search(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", low):
        if not re.search(r"\b(?:morning|afternoon|evening|later)\b", low):
            return None
    day = day or now.date()
    lo, hi = next((v for k, v in _SPANS.items() if k in low), (0, 24))
    times = stated_times(question)
    if times is not None:
        lo, hi = times[0].hour, min(24, times[0].hour + 2)
    return datetime.combine(day, time()), time(lo), time(min(hi, 23), 59)


def _span(f) -> str:
    """" from 17:00 to 19:00", " at 17:00" or, for a fact told by its part of the day, " in the
    morning" (:data:`town.realise.PART_SAID`; "" for a day alone): when on its day ``f`` is."""
    if f.part is not None:
        return PART_SAID[f.part]
    return f" from {f.start:%H:%M} to {f.end:%H:%M}" if f.end else f" at {f.start:%H:%M}"


def _event_at(m) -> datetime | None:
    """The start of the event a memory states: its fact's, else its text's day and clock time."""
    if m.fact is not None and m.fact.start is not None:
        return m.fact.start
    if not m.created:
        return None
    times = stated_times(m.content)
    day = stated_day(m.content, datetime.fromisoformat(m.created)) if times else None
    return None if day is None or times is None else datetime.combine(day, times[0])


def _own_event(q: AnswerInterview, day: datetime, lo: time, hi: time) -> answers.InterviewAnswer | None:
    """An event of the persona's own (not heard from anyone) starting in the window, as said."""
    for m in q.memories:
        at = _event_at(m)
        if at and at.date() == day.date() and lo <= at.time() <= hi and not m.tellers \
                and not unwrap(m.content)[0] and m.kind not in ("plan", "reflection") \
                and not told_by(m.content) and " said to me: " not in m.content \
                and not (m.fact is not None and (m.fact.closed or m.fact.cancelled or m.fact.moved)):  # not another's words; on
            return _said(recount(dated(m), q.persona_name), [m.id])
    return None


#: "Are you going to the book club?": the thing an intention asks of, up to a time or a clause.
_GOING_TO = re.compile(r"\b(?:go|going|come|coming|be at|attend|attending) (?:to )?(?:the|a|an|this|that) "
                       r"(?P<thing>[^?.,!]+?)(?=\s+(?:today|tonight|tomorrow|this|on|at|with|or|and)\b|[?.,!]|$)",
                       re.I)


#: Nouns that name an event of any kind, not which one ("the flower giveaway", "the bike repair
#: event"): the thing's other words say which.
_ANY_EVENT = frozenset("event events giveaway thing gathering session occasion do happening".split())


def _unheard_event(q: AnswerInterview) -> answers.InterviewAnswer | None:
    """"Are you going to the book club?" when no memory holds the words of "book club" (all of
    them, in its fact's fields or its words; a plan decided on it holds them too): "I haven't
    heard of any book club." rather than the plan item at this hour. None when the question
    names no such thing or a memory bears on it."""
    found = _GOING_TO.search(q.question)
    if found is None:
        return None
    thing = found["thing"].strip()
    words = topic_words(thing) - name_words(q.people) - _ANY_EVENT  # "the flower giveaway": flowers held
    if not words or any(words <= topic_words(f"{_fields(m.fact)} {m.content}") for m in q.memories):
        return None
    return _said(f"I haven't heard of any {thing}.", [])


def _plan(q: AnswerInterview) -> answers.InterviewAnswer:
    if _WEEK.search(q.question):
        return _week(q)
    now = _now(q)
    if now is not None and _NOW_ASKED.search(q.question):  # "What are you doing?": the block under way
        items, cited = _plan_items(q, now)
        under_way = [item for item in items if item[0] <= now.hour * 60 + now.minute]
        if under_way:
            _, what, where = under_way[-1]
            return _said(f"Right now I'm {mine(gerund(what))}{_there(what, where)}.", cited)
    window = _window(q.question, now) if now is not None else None
    own = _own_event(q, *window) if window is not None else None
    if own is not None:
        return own
    found = intention(q)  # an event decided at the time asked, with why
    if found is not None and found[0].startswith(("Yes", "No", "I'm going", "I'm not going")):
        return _said(*found)
    when = _asked_time(q)
    if when is None:
        return _general(q, "what")
    if _day_only(q, when):  # "on Wednesday": that day's plan, not the hour it was asked at
        return _item_asked(q, "plan") or _plan_of_day(q, when)
    items, cited = _plan_items(q, when)
    minute = when.hour * 60 + when.minute
    before = [item for item in items if item[0] <= minute]
    if not before:
        return _said(f"I have nothing planned for {when:%H:%M} that I remember.", cited)
    _, what, where = before[-1]
    tense = "I was" if now is not None and when < now and ASKED_PAST.search(q.question) else "I'll be"
    return _said(f"At {when:%H:%M} {tense} {mine(gerund(what))}{_there(what, where)}.", cited)


#: A meal a question names ("lunch", "at lunchtime").
_MEAL_NAMED = re.compile(r"\b(breakfast|brunch|lunch|dinner|supper)(?:time)?\b", re.I)
#: Before a memory that bears on a question without answering all of it: a sentence of its own,
#: so that a past memory after it does not put it in the past ("What I knew was this").
_ONLY_KNOW = "I can only tell you what I know."
#: Words of a question's time that any timed memory answers: "When does the quiz start?", "What's
#: on this week?"
_SPAN_WORDS = frozenset("start starts begin end finish happen hour clock exactly week weekend month year lately "
                        "recently soon later still now ever before".split())
#: A memory's time said of a habit, not of one event: "every day", "daily", "on weekdays".
_EVERY = re.compile(r"\b(?:every|each|daily|weekdays|weekends|usually|always)\b", re.I)
#: The question asks about one's own doing: "do you", "will you", "did you", "are you".
_YOU_DO = re.compile(r"\b(?:do|did|will|would|are|were|can) you\b(?! (?:know|think|remember|feel|like|hear)\b)",
                     re.I)
#: Words of a question about a habit that name no item of it.
_HABIT_WORDS = frozenset("usually normally often always time go get usual".split())


def _item_asked(q: AnswerInterview, kind: str) -> answers.InterviewAnswer | None:
    """When or where the persona does a thing of its own day the question names, said from its
    plan's item (or the routine's): by the meal ("Where will you have lunch on Wednesday?") or by
    a word of the item's words or place ("When do you go to the pub?"), on the day asked (else
    today), in the question's tense: "I usually have lunch at Hobbs Cafe, at 12:00." A what-
    question counts only by its meal ("What will you have for lunch tomorrow?"); None when
    nothing of the day's plan matches."""
    now = _now(q)
    meal = _MEAL_NAMED.search(q.question)
    placed = kind in ("when", "where") or re.match(r"\s*(?:where|when|(?:at )?what time)\b", q.question, re.I)
    if now is None or not _YOU_DO.search(q.question) or (not placed and meal is None):
        return None
    day = stated_day(q.question, now) or now.date()
    items, cited = _plan_items(q, datetime.combine(day, time()))
    asked = topic_words(q.question) - (_ASKED_WORDS - {"work"}) - _DAY_WORDS - _HABIT_WORDS - name_words(q.people)
    tasks = {r.description: r.task or "" for r in q.routine}  # "lock up" is the file's "close the cafe"
    def matching(items: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
        if meal is not None:
            return [item for item in items if meal_of(item[1]) == meal[1].lower()]
        scores = [len(asked & topic_words(f"{what} {where} {tasks.get(what, '')}")) for _, what, where in items]
        return [item for item, n in zip(items, scores) if n and n == max(scores)]

    found = matching(items)
    if not found and day == now.date() and q.routine:  # not in today's plan: the usual day's
        found = matching(_routine_items(q))
        cited = []
    if not found:
        return None
    same = [item for item in found if item[1] == found[0][1]]  # the one thing, at each time it is done
    times = [f"{m // 60:02d}:{m % 60:02d}" for m, _, _ in same]
    at = times[0] if len(times) == 1 else f"{', '.join(times[:-1])} and {times[-1]}"
    _, what, where = found[0]
    there = _there(what, where)
    if ASKED_PAST.search(q.question):
        return _said(f"At {at} I was {mine(gerund(what))}{there}.", cited)
    if day != now.date():
        return _said(f"At {at} on {day:%B} {day.day} I'll be {mine(gerund(what))}{there}.", cited)
    if re.search(r"\b(?:will|going to|tonight|later)\b", q.question, re.I):
        return _said(f"At {at} I'll be {mine(gerund(what))}{there}.", cited)
    return _said(f"I usually {mine(what)}{there}, at {at}.", cited)


#: When one goes to bed or wakes: "When do you usually go to bed?", "What time do you get up?".
_SLEEP_ASKED = re.compile(r"\b(?:go(?:es)? to bed|bedtime|wake up|wakes? up|get up|go to sleep|fall asleep)\b", re.I)


def _sleep(q: AnswerInterview) -> answers.InterviewAnswer | None:
    """When the persona goes to bed or wakes, asked (:data:`_SLEEP_ASKED`): its file's sentence
    saying so, in its own voice ("I go to bed around 11pm, wake up around 7am, ..."); else its
    routine's night: going to bed at the last sleep block's start, waking at the end of the one
    the day opens with; None when neither says."""
    said = [x for x in re.split(r"(?<=[.!?])\s+", q.persona_summary) if _SLEEP_ASKED.search(x)
            or re.search(r"\bwakes? up\b|\bbed\b", x, re.I)]
    if said:
        return _said(own_voice(said[0], q.persona_name), [])
    night = [r for r in q.routine if "sleep" in r.description.lower()]
    if not night:
        return None
    waking = re.search(r"\b(?:wake|wakes|get|gets) up\b", q.question, re.I)
    if waking:
        first = next((r for r in night if r.start == "00:00"), None)
        return _said(f"I usually wake up at {first.end}.", []) if first is not None else None
    return _said(f"I usually go to bed at {night[-1].start}.", [])


def _day_only(q: AnswerInterview, when: datetime) -> bool:
    """Whether the question names another day than today and no hour or part of it."""
    now = _now(q)
    parts = any(re.search(rf"\b{w}\b", q.question, re.I) for w in _PARTS_OF_DAY)
    return now is not None and when.date() != now.date() and stated_times(q.question) is None and not parts


def _plan_of_day(q: AnswerInterview, when: datetime, day: str = "", *, ahead: bool = False) -> answers.InterviewAnswer:
    """What the persona does on the day ``when`` (said as ``day``, else "On Wednesday"): its plan's
    items that day (a retrieved plan memory's, else the routine's, "as I usually do"), the first
    three awake, in order; ``ahead``: from the item under way at ``when`` on."""
    items, cited = _plan_items(q, when)
    minute = when.hour * 60 + when.minute
    if ahead:
        under_way = [i for i, (start, _, _) in enumerate(items) if start <= minute]
        items = items[under_way[-1] if under_way else 0:]
    awake = [(what, where) for _, what, where in items if _of_note(what)][:3]
    day = day or f"On {when:%A}"
    if not awake:
        return _said(f"I have nothing planned for {when:%A} that I remember.", cited)
    said = [f"{mine(gerund(what))}{_there(what, where)}" for what, where in awake]
    listed = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
    usual = "" if cited else ", as I usually do"
    return _said(f"{day} I'll be {listed}{usual}.", cited)


#: A question about days ahead as a whole: "this week", "next week", "the weekend", "the next few days".
_WEEK = re.compile(r"\b(?:this|next|the coming) week(?:end)?\b|\bthe weekend\b|\bthe (?:next|coming) (?:few )?days\b|"
                   r"\blooking forward\b", re.I)


def _span_asked(question: str, now: datetime) -> tuple[datetime, datetime]:
    """The game-time span [from, to) a question about days ahead asks about (:data:`_WEEK`): "next
    week" Monday to Monday after this one, "the weekend" the coming Saturday and Sunday (this
    one's, on either), "the next few days" to the end of the third day on, "looking forward" a
    week on, else from now to the end of Sunday ("this week")."""
    low = question.lower()
    midnight = datetime.combine(now.date(), time())
    if "next week" in low and "weekend" not in low:
        lo = midnight + timedelta(days=7 - now.weekday())
        return lo, lo + timedelta(days=7)
    if "weekend" in low:
        lo = midnight + timedelta(days=max(0, 5 - now.weekday())) if now.weekday() < 5 else midnight
        lo = lo + timedelta(days=7) if "next weekend" in low else lo
        return max(lo, now), datetime.combine(lo.date(), time()) + timedelta(days=7 - lo.weekday())
    if "days" in low:
        return now, midnight + timedelta(days=4)
    if "forward" in low:  # what one looks forward to: the week ahead
        return now, midnight + timedelta(days=7)
    return now, midnight + timedelta(days=7 - now.weekday())


def _week(q: AnswerInterview) -> answers.InterviewAnswer:
    """Days ahead asked as a whole ("What are you doing this week?", "Any plans for the
    weekend?"): today's plan from now on when the span holds today (:func:`_plan_of_day`), then the events the
    persona knows of in the span (:func:`_span_asked`), each as held (its own, or who told it),
    soonest first, three at most; "nothing planned" when it knows of none."""
    now = _now(q)
    if now is None:
        return _general(q, "what")
    lo, hi = _span_asked(q.question, now)
    planned = {start for start, _, _ in _plan_items(q, now)[0]} if lo.date() == now.date() else set()
    found: dict = {}
    for m in sorted(q.memories, key=lambda m: (m.fact.start, m.id) if m.fact and m.fact.start else (now, m.id)):
        f = m.fact
        if f is not None and not f.question and f.start is not None and lo <= f.start < hi and sayable(f) \
                and f.event_key() not in found \
                and not (f.start.date() == now.date() and f.start.hour * 60 + f.start.minute in planned):
            found[f.event_key()] = m  # one told once; one today that today's plan holds is said with it
    events = list(found.values())[:3]
    said = [_realised(m, q) for m in events]
    cited = [m.id for m in events]
    if lo.date() == now.date():
        today = _plan_of_day(q, now, "Today", ahead=True)
        said, cited = [today.answer, *said], [*(today.evidence or []), *cited]
    if not said:
        return _said("I have nothing planned then that I remember.", [])
    return _said(" ".join(said), cited)


def _of_note(what: str) -> bool:
    """Whether a plan item says what a day was spent on: not sleep, washing, dressing or a meal."""
    return "sleep" not in what.lower() and not re.search(r"\bshower\b|\bdressed\b", what) and not meal_of(what)


def _there(what: str, where: str) -> str:
    """" at Hobbs Cafe" after a plan item's words, unless they name a place or a home ("'s")."""
    placed = where.lower() in what.lower() or re.search(r"\b(at|in|of) (the )?[A-Z]", what)
    return f" at {where}" if where and not placed and "'s " not in where else ""


def _who(q: AnswerInterview) -> answers.InterviewAnswer:
    name = _WHO.search(q.question).group("name").strip().rstrip(".")  # type: ignore[union-attr]
    name = re.sub(r"\s+(?:to|for) you$", "", name, flags=re.I)  # "Who is Giorgio Rossi to you?"
    full = next((p for p in q.people if p.lower() == name.lower() or p.split()[0].lower() == name.lower()), name)
    first = full.split()[0]
    if full == q.persona_name:  # "Who is Maria Lopez?" asked of Maria
        said = [sentence(own_voice(x, q.persona_name)) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)[:3]
                if len(x.split()) > 3 and not re.match(r"^\w+:", x)]  # not "Traits: ..."
        return _said(" ".join([f"That's me: I am {q.persona_name}.", *said[:2]]), [])
    known = [sentence(own_voice(x, q.persona_name)) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)
             if re.search(rf"\b{re.escape(first)}\b", x)][:2]  # what the file says of them, first
    about = [m for m in q.memories if is_about(m.content, first)]
    if known and not about:
        return _said(" ".join(known), [])
    if not about:
        met = [m for m in q.memories if first in m.content]
        if met:  # only in a chain of who passed news on: that they talked, and what they passed on
            return _said(f"{first} is someone I've talked with. {recount(met[0].content, q.persona_name)}",
                         [met[0].id])
        if full in q.people:  # one of the town's people, met by no memory at hand
            return _said(f"I know of {full}, but we haven't talked much.", [])
        return _said(f"I don't know anyone called {name}.", [])
    # what the persona knows of them: insights first, then what it heard or knows, sightings last
    if any(not _BARE_TALK.fullmatch(m.content) for m in about):
        about = [m for m in about if not _BARE_TALK.fullmatch(m.content)]
    about = sorted(_unique(about), key=lambda m: (m.kind != "reflection", bool(_SIGHTING.search(m.content)),
                                         m.kind == "plan", bool(_BARE_TALK.fullmatch(m.content)), -m.importance))[:3]
    about = about[:max(1, 3 - len(known))]  # three sentences in all, at least one memory
    return _said(" ".join(known + [recount(dated(m), q.persona_name) for m in about]), [m.id for m in about])


#: "Where is Latoya (now)?": where a person is, asked by name.
_WHEREABOUTS = re.compile(r"^\s*where(?:'s| is| was)\s+(?P<name>(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?)\b"
                          r"|^\s*when did you (?:last )?(?:see|run into|bump into)\s+"
                          r"(?P<seen>(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?)\b", re.I)


#: "Have you seen Sam (today)?", "Did you see Latoya this morning?": a sighting asked of by name.
_SEEN = re.compile(r"^\s*(?:have|did) you (?:seen|see|run into|bumped into|bump into)\s+"
                   r"(?P<name>(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?)\b", re.I)


def _sightings(q: AnswerInterview, first: str) -> list:
    """The persona's observations naming ``first``, made by the question's time, oldest first."""
    return sorted((m for m in q.memories if m.kind == "observation" and m.created and is_about(m.content, first)
                   and (not q.now or m.created <= q.now)), key=lambda m: (m.created, m.id))


def _seen(q: AnswerInterview, person: str) -> answers.InterviewAnswer:
    """Whether the persona saw ``person`` (today, when the question says so): "Yes, I saw Sam
    today at 09:12: Sam Moore was ..." from its newest sighting, else "No, I haven't seen Sam
    today." (a sighting, not news: "I haven't heard anything" would answer another question)."""
    first = person.split()[0]
    today = bool(re.search(r"\b(?:today|this (?:morning|afternoon|evening))\b", q.question, re.I))
    seen = [m for m in _sightings(q, first) if not today or m.created[:10] == q.now[:10]]
    if not seen:
        return _said(f"No, I haven't seen {first}{' today' if today else ''}.", [])
    m = seen[-1]
    at = datetime.fromisoformat(m.created)
    day = "today" if m.created[:10] == q.now[:10] else f"on {at:%A, %B} {at.day}"
    return _said(f"Yes, I saw {first} {day} at {at:%H:%M}: {in_past(sentence(m.content))}", [m.id])


def _whereabouts(q: AnswerInterview, person: str) -> answers.InterviewAnswer:
    """Where ``person`` is: the persona's newest sighting of them (an observation naming them,
    made by the question's time), said in the past with its day and hour ("I last saw Latoya
    today at 12:15: Latoya Williams was eating lunch ..."); none: "I don't know where she is"."""
    first = person.split()[0]
    seen = _sightings(q, first)
    if not seen:
        pronoun = dict(q.pronouns).get(person)
        return _said(f"I don't know where {pronoun if pronoun in ('she', 'he') else first} is.", [])
    m = seen[-1]
    at = datetime.fromisoformat(m.created)
    return _said(f"I last saw {first} on {at:%A, %B} {at.day} at {at:%H:%M}: {in_past(sentence(m.content))}", [m.id])


#: The base forms of :data:`WORK_WORDS`' verbs: a held fact whose act opens with one says what its
#: subject does for work ("run Harvey Oak Supply Store").
_WORK_VERBS = frozenset(base_form(w) for w in WORK_WORDS if is_verb(w))


def _asked_person(q: AnswerInterview, said: str) -> str | None:
    """The full name ``said`` ("Carmen", "Carmen Ortiz") stands for among ``q.people`` (None:
    no one, or a pronoun)."""
    return next((p for p in q.people if said.lower() in (p.lower(), p.split()[0].lower())), None)


def _work(q: AnswerInterview) -> answers.InterviewAnswer:
    """Where someone works, or what they do for a living: asked of the persona itself, its
    file's sentences about its work; of another, what the persona holds of their work: its
    file's sentences and relationship naming them that say it (:data:`WORK_WORDS`), then held
    facts with them as subject whose act is work (:data:`_WORK_VERBS`: "Tamara told me that
    Carmen runs ..."); else "I don't know where she works". A sighting of them somewhere says
    where they were, not where they work, and is no answer."""
    found = _WORK.search(q.question)
    assert found is not None
    said = next(g for g in found.groups() if g)
    person = _asked_person(q, said) or said
    if person == q.persona_name:
        return _about_self(replace(q, question="What is your job?"))
    first = person.split()[0]
    pronoun = dict(q.pronouns).get(person, "they")
    known = [sentence(own_voice(x, q.persona_name)) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)
             if re.search(rf"\b{re.escape(first)}\b", x) and WORK_WORDS & set(re.findall(r"[a-z]+", x.lower()))][:1]
    tie = next((d for n, d in q.ties if n == person and WORK_WORDS & set(re.findall(r"[a-z]+", d.lower()))), None)
    if tie is not None:
        known.append(sentence(f"{first} is {tie}"))
    held = [m for m in q.memories if m.fact is not None and m.fact.subject == person and not m.fact.question
            and base_form(m.fact.act.split()[0]) in _WORK_VERBS]
    cited = [m.id for m in held[:1]]
    parts = known + [_realised(m, q) for m in held[:1]]
    if not parts:
        return _said(f"I don't know where {pronoun if pronoun in ('she', 'he') else first} works.", [])
    return _said(" ".join(parts), cited)


def _own_doing(m, q: AnswerInterview) -> str | None:
    """An observation of the persona itself ("Sam Moore is working at the desk (work on town plans)
    at ...") said from its plan's item at that time, in the first person: "I'm working on my plans
    for the town at Town Hall." (within half an hour of the question), else "At 15:10 I was ...".
    None for any other memory, or when no plan item was under way then."""
    if m.kind != "observation" or not m.created or not m.content.startswith(f"{q.persona_name} "):
        return None
    at = datetime.fromisoformat(m.created)
    items, _ = _plan_items(q, at)
    under = [item for item in items if item[0] <= at.hour * 60 + at.minute]
    if not under:
        return None
    _, what, where = under[-1]
    doing = f"{mine(gerund(what))}{_there(what, where)}"
    now = _now(q)
    return f"I'm {doing}." if now is not None and timedelta(0) <= now - at <= timedelta(minutes=30) \
        else f"At {at:%H:%M} I was {doing}."


def _realised(m, q: AnswerInterview) -> str:
    """A memory said from its fields when it holds a statement (heard: who told it), an
    observation of the persona itself from its plan (:func:`_own_doing`), else recounted; a
    whispered thought the question asks more of than its fact holds ("How much does it cost to
    enter the 5k?", "Who is organising it?": "$10 entry", "my sister") in its own words."""
    own = _own_doing(m, q)
    if own is not None:
        return own
    if m.kind == "whisper" and m.fact is not None and _asked(q) - topic_words(_fields(m.fact)):
        now = _now(q)
        said = recount(dated(m), q.persona_name)
        return relative_days(said, now) if now is not None else said
    if m.fact is not None and not m.fact.question and m.tellers:
        return _told(m, q)
    if m.fact is not None and not m.fact.question and m.kind != "reflection":
        said = statement(m.fact, q.persona_name, now=_now(q))
        return sentence(said)
    said = recount(dated(m), q.persona_name)
    return _TASK_SEEN.sub("", said) if m.kind == "observation" else said  # "sitting at a table (have lunch)"


#: The task a sighting names in brackets ("Maria Lopez is sitting at a table (have lunch) at ..."):
#: the engine's note of what the one seen does, not said aloud.
_TASK_SEEN = re.compile(r"\s*\([^()]*\)")


#: A yes/no question of how one is or what one is like: "Are you tired?", "Are you a shy person?".
_STATE_ASKED = re.compile(r"^\W*are you (?:feeling |getting )?(?:a bit |very |really |at all |ever )?(?:an? )?"
                          r"(?P<word>[a-z]+)(?: person)?(?: today| now| at the moment| these days)?\W*$", re.I)
#: How one is, said when asked: a passing state by what it is (tired: a little; fine: yes).
_STATES = {"tired": "A little tired, but I'm all right.", "busy": "Busy enough, but I can talk.",
           "stressed": "A bit, but I'm managing.", "ok": "Yes, I'm fine, thanks.", "okay": "Yes, I'm fine, thanks.",
           "alright": "Yes, I'm fine, thanks.", "fine": "Yes, I'm fine, thanks.", "well": "Yes, I'm well, thanks.",
           "happy": "Yes, I'm happy enough these days.", "hungry": "A little, now that you mention it.",
           "sad": "Not really, no. I'm all right.", "lonely": "Not really; there's always someone around.",
           "bored": "Not really, there's always something to do.", "angry": "No, not at all.",
           "upset": "No, I'm all right, thanks.", "worried": "Not too much, no.", "nervous": "Only a little.",
           "excited": "Yes, a bit!", "sick": "No, I feel fine, thanks.", "ill": "No, I feel fine, thanks.",
           "ready": "I think so, yes."}


def _own_state(word: str, q: AnswerInterview) -> str:
    """An answer to "Are you <word>?" asked of oneself with no memory bearing on it: a trait of
    one's file ("Are you shy?": "Yes, I'd say I'm shy."), a passing state (:data:`_STATES`), else
    "I'd rather not say." (of no memory, nothing is claimed)."""
    if word in traits_of(q.persona_summary):
        return f"Yes, I'd say I'm {word}."
    return _STATES.get(word, "I'd rather not say.")


def _asked(q: AnswerInterview) -> frozenset[str]:
    """The question's words naming what it asks of: its topic words, not those of asking, of
    a day or a time, nor the town's names."""
    return (topic_words(q.question) - _ASKED_WORDS - name_words(q.people) - _DAY_WORDS - _HABIT_WORDS
            - _SPAN_WORDS)


def _place_in(text: str) -> str | None:
    """The first capitalised place a text names after "at", "in" or "to", outside brackets (a
    sighting's task, "(go to Isabella Rodriguez's Valentine's Day party ...)", names none)."""
    found = _PLACE.search(re.sub(r"\([^)]*\)", "", text))
    return found.group(1).strip() if found else None


_QUOTED = re.compile(r'^(?P<who>[^:"]+?) said to me: "(?P<line>.+)"$', re.S)  # a heard line kept as said
#: "What did you have for breakfast?": a meal of the day, answered from the day's plan.
_MEAL_ASKED = re.compile(r"\bwhat (?:did|do|will|are) you (?:have|eat|having|eating) for (?P<meal>breakfast|brunch|"
                         r"lunch|dinner|supper)\b", re.I)


def _meal(q: AnswerInterview, meal: str) -> answers.InterviewAnswer | None:
    """The day's plan item eating ``meal`` (by :func:`meal_of`), said in its tense, or None."""
    now = _now(q)
    if now is None:
        return None
    items, ids = _plan_items(q, now)
    minute, what, where = next(((m, w, p) for m, w, p in items if meal_of(w) == meal.lower()), (-1, "", ""))
    if minute < 0:
        return None
    at = f"{minute // 60:02d}:{minute % 60:02d}"
    place = f" at {where}" if where and where.lower() not in what.lower() else ""
    said = (f"At {at} I was {gerund(what)}{place}." if minute <= now.hour * 60 + now.minute
            else f"At {at} I'll be {gerund(what)}{place}.")
    return _said(said, ids)


#: A question of what a thing costs ("How much are the tickets?", "What's the entry fee?").
_PRICE_ASKED = re.compile(r"\b(?:how much|cost(?:s|ing)?|price[ds]?|fees?|charge[sd]?|pay)\b", re.I)
#: A question whether one has seen a thing lost ("has anyone seen it?", "Have you seen my scarf?").
_SEEN_ASKED = re.compile(r"\b(?:has|have|did)\s+(?:any\s?one|any\s?body|you)\s+(?:seen|found|spotted)\b", re.I)


def _general(q: AnswerInterview, kind: str) -> answers.InterviewAnswer:
    """Who, when, where, why, what and yes/no: the memories bearing on the question, recounted."""
    asked_meal = _MEAL_ASKED.search(q.question)
    eaten = _meal(q, asked_meal["meal"]) if asked_meal else None
    if eaten is not None:
        return eaten
    relevant = _relevant(q)
    unknown = [n for n in _NAMED.findall(q.question)
               if not any(n in (p, p.split()[0]) for p in q.people)  # a townsperson by full or first name
               and not any(n.split()[0] in m.content for m in q.memories)]
    if unknown and _SEEN_ASKED.search(q.question):  # "I lost my phone in Johnson Park, has anyone seen it?"
        return _said("No, sorry, I haven't seen it.", [])
    if unknown:  # the question is about someone or somewhere no retrieved memory names
        return _said(f"No, I don't know anything about {unknown[0]}." if kind == "yes/no"
                     else f"I don't know anything about {unknown[0]}.", [])
    # a plan is said by its items (kind "plan"); a talk's summary or a line kept as said is no
    # answer of its own (recounting it pastes another's words)
    quoted = [(m, line) for m in relevant if (line := _QUOTED.match(m.content)) is not None
              and not takes_leave(line["line"]) and not opens_small_talk(line["line"])]  # no "I should get going"
    relevant = [m for m in relevant if m.kind != "plan" and not m.content.startswith("I talked with ")
                and (_heard_fact(m) or (" said to me: " not in m.content and " asked me: " not in m.content))]
    topic = topic_words(q.question) - _ASKED_WORDS - name_words(q.people)  # names left out
    bearing = [(len(topic & topic_words(m.content)), -i, m, line) for i, (m, line) in enumerate(quoted)]
    most = max((len(topic & topic_words(f"{_fields(m.fact)} {m.content}")) for m in relevant), default=0)
    if bearing and max(bearing, key=lambda b: b[:2])[0] > most:
        # a line kept as said bears most on the thing asked ("the election", "the market closing"):
        # told as a quote
        _, _, heard, line = max(bearing, key=lambda b: b[:2])
        words = re.sub(r",\s*[A-Z][a-z]+(?=[.!?]?$)", "", line["line"].strip())  # not the vocative ", John"
        said = f'{line["who"]} told me: "{words}"'
        if kind == "opinion":  # an opinion is a stance on the one who said it, with why
            view, ids = view_of(next((p for p in q.people if p == line["who"].strip()), None), q)
            return _said(f"{view} {said}", [heard.id, *ids])
        return _said(f'{"Yes. " if kind == "yes/no" else ""}{said}', [heard.id])
    state = _STATE_ASKED.match(q.question) if kind == "yes/no" else None
    if not relevant and state is not None:  # "Are you tired?": of oneself, from one's file, not "I don't know"
        return _said(_own_state(state["word"].lower(), q), [])
    if not relevant:
        return _said(f"No, {DONT_KNOW}" if kind == "yes/no" else DONT_KNOW, [])
    best = relevant[0]
    if _bears(best, q)[0] == 0 and topic_words(q.question) - name_words(q.people) - _ASKED_WORDS:
        # only a name is shared: nothing held bears on what is asked of them ("running for mayor")
        return _said("No, I haven't heard anything about that." if kind == "yes/no"
                     else "I haven't heard anything about that.", [])
    hosted = next((m for m in relevant if m.fact is not None and m.fact.start is not None
                   and (m.fact.host or m.fact.subject)), None) if _HOST_ASKED.search(q.question) else None
    if hosted is not None and hosted.fact is not None and hosted.fact.start is not None:  # "Who is organising ...?"
        f, now = hosted.fact, _now(q)
        over = now is not None and (f.end or f.start + timedelta(minutes=DEFAULT_MINUTES)) <= now
        host = str(f.host or f.subject)
        who = "I" if host == q.persona_name else host.split()[0]
        return _said(f"{who} {'did' if over else 'am' if who == 'I' else 'is'}. {_realised(hosted, q)}", [hosted.id])
    if hosted is None and _HOST_ASKED.search(q.question) and (best.fact is None or best.fact.closed
                                                              or best.fact.cancelled or best.fact.start is None):
        return _said("I haven't heard of anyone hosting one.", [])  # not a closure that bears on "tomorrow"
    about = frozenset(w for w in _asked(q) if not _PRICE_ASKED.fullmatch(w))  # the thing, not its cost
    priced = next((r for r in relevant if r.fact is not None and r.fact.price and about & topic_words(r.fact.act)),
                  None) if _PRICE_ASKED.search(q.question) else None  # of the thing asked: no class's price for a latte
    if priced is not None and priced.fact is not None and priced.fact.price:  # "How much are the tickets?"
        f = priced.fact
        cost = "It's free" if f.price == "free" else f"It costs {f.price}"
        hedge = "" if q.persona_name in (f.host, f.subject) else ", as far as I know"
        return _said(f"{cost}{hedge}. {_realised(priced, q)}", [priced.id])
    if _PRICE_ASKED.search(q.question) and re.match(r"\W*(?:how much|what)\b", q.question, re.I):  # no price held
        topical = next((r for r in relevant if r.fact is not None and about & topic_words(_fields(r.fact))), None)
        if topical is not None and topical.fact is not None and q.persona_name in (topical.fact.host, topical.fact.subject) \
                and topical.fact.start is not None:  # one's own event, no price set: free
            return _said(f"It's free. {_realised(topical, q)}", [topical.id])
        return _said(f"I don't know what it costs.{' ' + _realised(topical, q) if topical is not None else ''}",
                     [topical.id] if topical is not None else [])
    said = _realised(best, q)
    if kind == "when":  # the timed memory bearing most on the thing asked, by its fact's time or its words'
        found = next((m for m in relevant if m.fact is not None and m.fact.start is not None
                      or stated_times(m.content)), None)
        unheld = _asked(q) - topic_words(f"{_fields(found.fact)} {found.content}") if found is not None else set()
        if found is not None and unheld:  # "When does Hobbs Cafe open?" held only as the party there: not its answer
            return _said(f"I'm not sure. {_ONLY_KNOW} {_realised(found, q)}", [found.id])
        typed = found if found is not None and found.fact is not None and found.fact.start is not None else None
        if typed is not None and typed.fact is not None and typed.fact.start is not None:  # its fact's time
            f, now = typed.fact, _now(q)
            over = now is not None and (f.end or f.start + timedelta(minutes=DEFAULT_MINUTES)) <= now
            is_ = "was" if over else "is"
            hedge = "" if q.persona_name in (f.host, f.subject) else ", as far as I know"  # one's own: known
            return _said(f"It {is_} on {f.start:%B} {f.start.day}{_span(f)}{hedge}. {_realised(typed, q)}",
                         [typed.id])
        timed = found
        if timed is not None:
            start, end, _ = stated_times(timed.content)  # type: ignore[misc]
            span = f"from {start:%H:%M} to {end:%H:%M}" if end else f"at {start:%H:%M}"
            day = stated_day(timed.content, datetime.fromisoformat(timed.created)) if timed.created else None
            span = f"on {day:%B} {day.day} {span}" if day else span  # said relative, in its tense
            if _EVERY.search(timed.content):  # "Hobbs Cafe opens at 8am ... every day": a habit, said as held
                return _said(recount(dated(timed), q.persona_name), [timed.id])
            return _said(f"It is {span}, as far as I know. {recount(dated(timed), q.persona_name)}", [timed.id])
    if kind == "where":
        typed = next((m for m in relevant if m.fact is not None and m.fact.place), None)  # its fact's place
        if typed is not None and typed.fact is not None and typed.fact.place:
            where = place_name(typed.fact.place)
            hedge = "." if q.persona_name in (typed.fact.host, typed.fact.subject) else ", as far as I know."
            return _said(f"{where[:1].upper()}{where[1:]}{hedge} {_realised(typed, q)}", [typed.id])
        placed = next((m for m in relevant if _place_in(m.content)), None)
        if placed is not None:
            return _said(f"At {_place_in(placed.content)}. {_realised(placed, q)}", [placed.id])
    if kind == "why":
        return _why(q, best, said)
    if kind == "yes/no" and best.fact is not None and best.fact.cancelled:  # "Is the party still on?"
        return _said(f"{'Yes' if _ASKS_OFF.search(q.question) else 'No'}. {said}", [best.id])
    now = _now(q)
    asked_on = (stated_day(q.question, now) or now.date()) if now is not None else None
    if kind == "yes/no" and best.fact is not None and best.fact.closed and best.fact.start is not None \
            and best.fact.start.date() == asked_on:  # "Is the cafe open tomorrow?", of the day asked
        asked_open = "open" in topic_words(q.question) or _CAN_I.match(q.question) is not None  # "Can I buy milk ...?"
        return _said(f"{'No' if asked_open else 'Yes'}. {said}", [best.id])
    if kind == "yes/no":  # a yes only to what the memory holds: "open" is not in "will be closed"
        now = _now(q)
        asked_day = stated_day(q.question, now) if now is not None else None
        start = best.fact.start if best.fact is not None else None
        if asked_day is not None and start is not None and start.date() != asked_day:  # its day is another
            return _said(f"No, not on {asked_day:%A}. {said}", [best.id])
        held = topic_words(f"{_fields(best.fact)} {best.content}")
        unheld = topic_words(q.question) - _ASKED_WORDS - name_words(q.people) - held
        if asked_day is not None and start is not None:  # its day, read from the date: "today" is held
            unheld -= _DAY_WORDS
        other = next((m for m in relevant[1:] if not unheld and m.fact is not None and best.fact is not None
                      and m.fact.event_key() != best.fact.event_key() and sayable(m.fact)
                      and _bears(m, q)[0] >= max(1, _bears(best, q)[0])), None)  # "a party": each held
        if other is not None:
            return _said(f"Yes. {said} {_realised(other, q)}", [best.id, other.id])
        return _said(f"{_ONLY_KNOW if unheld else 'Yes.'} {said}", [best.id])
    more = [m for m in relevant[1:] if m.fact is not None and m.content[:30] != best.content[:30]
            and _bears(m, q)[0] >= min(1, _bears(best, q)[0])][:1]  # of the thing asked, as the best is
    return _said(" ".join([said, *(_realised(m, q) for m in more)]), [best.id, *(m.id for m in more)])


def _why(q: AnswerInterview, best, said: str) -> answers.InterviewAnswer:
    """Why someone does the thing memory ``best`` (said as ``said``) states: a reason held, else
    that the persona does not know why, and what it knows. Done by the persona itself: its own
    reason (its file's care, :func:`town.scripted.stance.own_reason`; its plan's decision,
    :func:`town.scripted.stance.intention`); by another: what the persona's file says they care
    about (:func:`town.scripted.stance.their_reason`). A fact held says what, not why: "I don't
    know why" is said of it rather than the fact alone as if it were the reason. One's own thought
    of a thing called off, closed or moved is said in its own words, which hold its reason when
    it gave one ("..., I'm just too exhausted this week")."""
    fact = best.fact
    if best.kind == "whisper" and fact is not None and (fact.cancelled or fact.closed or fact.moved):
        return _said(_realised(replace(best, fact=None), q), [best.id])  # one's own words hold one's reason
    doer = (fact.subject or fact.host) if fact is not None else None
    if doer is None:
        doer = next((p for p in q.people if p.split()[0] in q.question), None)
    if doer == q.persona_name:
        found = own_reason(q) or intention(q)
        if found is not None:
            return _said(*found)
    reason = their_reason(q, doer) if doer else None
    if reason is not None:
        return _said(f"{said} I think it's because {reason}.", [best.id])
    return _said(f"I don't know why. {said}", [best.id])


def _preference(q: AnswerInterview) -> answers.InterviewAnswer:
    """A feeling or a preference: insights first (reflection), then the memories and the file."""
    relevant = _relevant(q)
    insights = _unique(m for m in q.memories if m.kind == "reflection")
    if any(p != q.persona_name and p.split()[0] in q.question for p in q.people):
        return _feeling(q)
    chosen = (insights or [m for m in relevant if m.kind != "plan"])[:2]
    if re.search(r"\bspend more time with\b|\bwho in town\b", q.question, re.I):
        counts = {p: sum(is_about(m.content, p.split()[0]) for m in q.memories) for p in q.people if p != q.persona_name}
        who = max(sorted(counts), key=lambda p: counts[p], default=None)
        if who and counts[who]:
            about = _unique(m for m in q.memories if is_about(m.content, who.split()[0]))[:2]
            return _said(f"{who}: I'd like to see more of {who.split()[0]}. "
                         + " ".join(recount(m.content, q.persona_name) for m in about), [m.id for m in about])
    loves = [own_voice(x, q.persona_name) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)
             if re.search(r"\b(love|loves|cares?|values?|enjoys?|wants?)\b", x)]
    if re.search(r"\bvalue most|matters? (most )?to you\b", q.question, re.I) and loves:
        return _said(" ".join([sentence(loves[0]), *(recount(m.content, q.persona_name) for m in chosen[:1])]),
                     [m.id for m in chosen[:1]])
    if not chosen:
        return _said(_from_file(q), [])
    lead = ("I'd change how I spend my time. What stands out to me: " if re.search(r"could change", q.question, re.I)
            else "I've noticed this: ")
    return _said(lead + " ".join(recount(m.content, q.persona_name) for m in chosen), [m.id for m in chosen])


def _family(q: AnswerInterview) -> answers.InterviewAnswer:
    """The persona's family: the people its file relates it to as kin (:data:`.attend.FAMILY`),
    each as the file describes them ("Tom Moreno is my husband, who runs the pharmacy counter."),
    three at most; else its summary's sentences naming kin, in its own voice; else none in town."""
    kin = [(name, said) for name, said in q.ties if set(re.findall(r"[a-z]+", said.lower())) & FAMILY]
    if kin:
        return _said(" ".join(f"{name} is {said.rstrip('. ')}." for name, said in kin[:3]), [])
    told = [own_voice(x, q.persona_name) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)
            if set(re.findall(r"[a-z]+", x.lower())) & FAMILY]
    return _said(" ".join(told[:2]) if told else "I have no family here in town.", [])


def _related(q: AnswerInterview) -> str | None:
    """The person "your husband", "your friend" ... names (a word of
    :data:`town.scripted.attend.CLOSE`): the one the persona file's relationships describe with
    that word ("my husband, who runs ..."), else the one its description's sentence with that
    word names ("married to")."""
    asked = re.search(r"\byour (\w+)", q.question)
    if asked is None or asked.group(1).lower() not in CLOSE:
        return None
    word = asked.group(1).lower()
    tied = next((name for name, said in q.ties if re.search(rf"\b{re.escape(word)}s?\b", said, re.I)), None)
    if tied is not None:
        return tied
    spouse = word in ("husband", "wife", "partner")
    for x in re.split(r"(?<=[.!?])\s+", q.persona_summary):
        if re.search(rf"\b{asked.group(1)}\b", x, re.I) or (spouse and re.search(r"\bmarried\b", x)):
            return next((p for p in q.people if p != q.persona_name and p in x), None)
    return None


#: "What did Maria tell you?", "What has Klaus said to you today?": what someone told one.
_TOLD_ME = re.compile(r"^\s*what (?:did|has|have) (?P<name>(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?) "
                      r"(?:tell|told|say|said)(?: to)? you\b", re.I)


def _told_me(q: AnswerInterview, person: str) -> answers.InterviewAnswer:
    """What ``person`` told the persona: the statements it heard from them (their ``tellers``),
    on the day asked when the question names one, newest first, two at most."""
    now = _now(q)
    day = stated_day(q.question, now) if now is not None else None
    if day is None and now is not None and re.search(r"\bthis (?:morning|afternoon|evening)\b", q.question, re.I):
        day = now.date()
    heard = [m for m in q.memories if person in m.tellers and m.fact is not None and not m.fact.question
             and (day is None or m.created[:10] == f"{day:%Y-%m-%d}")]
    heard = _unique(sorted(heard, key=lambda m: (m.created, m.id), reverse=True))[:2]
    first = person.split()[0]
    if not heard:
        return _said(f"{first} hasn't told me anything I remember.", [])
    return _said(" ".join(_realised(m, q) for m in heard), [m.id for m in heard])


def _talked_with(m, person: str) -> bool:
    """Whether memory ``m`` is a talk with ``person``: told by them, or a talk's summary."""
    return person in m.tellers or m.content.startswith(f"I talked with {person}")


def _feeling(q: AnswerInterview) -> answers.InterviewAnswer:
    """How the persona feels about a person: what its file says of them, how often they have
    talked (``tellers``, talk summaries) and the newest fact they told it (realised from its
    fields); else what it has seen of them. "I don't really know" only when no memory names them."""
    person = next((p for p in q.people if p != q.persona_name and p.split()[0] in q.question), None)
    person = person or _related(q)
    if person is None:  # oneself, or someone of no memory
        if any(p.split()[0] in q.question for p in q.people):
            return _said("I try to be fair to myself; I'm doing my best.", [])
        thing = _FEELING.search(q.question)
        return _said(f"I don't know anyone called {thing.group('thing').strip(' .!') if thing else 'that'}.", [])
    first = person.split()[0]
    known = [sentence(own_voice(x, q.persona_name)) for x in re.split(r"(?<=[.!?])\s+", q.persona_summary)
             if re.search(rf"\b{re.escape(first)}\b", x)][:1]
    talks = sorted((m for m in q.memories if _talked_with(m, person)), key=lambda m: (m.created, m.id))
    told = [m for m in talks if m.fact is not None and not m.fact.question and m.tellers[:1] == (person,)]
    felt = [(m.id, m.fact) for m in q.memories if m.fact is not None and m.fact.subject == q.persona_name
            and not m.tellers and m.fact.start is None and person in m.fact.act]  # "have a crush on Klaus"
    parts = [*known, *(sentence(statement(f, q.persona_name)) for _, f in felt[:1])]
    if talks:
        days = len({m.created[:10] for m in talks})
        if days > 1:
            when = f"we've talked on {days} different days lately"
        else:
            when = ("we talked a lot " if len(talks) >= 3 else "we talked ") + (
                "today" if now_day(q) == talks[-1].created[:10] else "recently")
        parts.append(f"I like {first}: {when}.")
        cited = [*(i for i, _ in felt[:1]), *(m.id for m in talks[-2:])]
        if told:
            parts.append(f"Most recently, {_told(told[-1], q)}")
            cited.append(told[-1].id)
        return _said(" ".join(parts), cited)
    about = [m for m in q.memories if m.kind != "plan" and (is_about(m.content, first) or (
        m.fact is not None and person in (m.fact.subject, m.fact.host)))]
    insights = [m for m in about if m.kind == "reflection"]
    if insights:  # what the persona has come to think of them
        parts.append(f"I think well of {first}. {sentence(insights[0].content)}")
        return _said(" ".join(parts), [insights[0].id])
    heard_of = [m for m in about if m.fact is not None and not m.fact.question and m.tellers]
    if heard_of:
        m = heard_of[-1]
        parts.append(f"I don't know {first} well yet, but I've heard of {first}: {_told(m, q)}")
        return _said(" ".join(parts), [m.id])
    if about:
        seen = sorted(about, key=lambda m: (m.created, m.id))[-1]
        place = _place_in(seen.content)
        parts.append(f"I don't know {first} well yet; I've only seen {first} around"
                     f"{' at ' + place if place else ''}.")
        return _said(" ".join(parts), [seen.id])
    if known:
        return _said(" ".join(known), [])
    return _said(f"I don't really know {person} yet.", [])


def _from_file(q: AnswerInterview) -> str:
    """A feeling or a wish the persona's file supports when no retrieved memory bears on it."""
    leisure = [r.description for r in q.routine if not r.task and "sleep" not in r.description.lower()]
    traits = traits_of(q.persona_summary)
    if re.search(r"could change|would you (most )?like", q.question, re.I) and leisure:
        return f"I'd make more time to {mine(leisure[0])}."
    if traits:
        listed = traits[0] if len(traits) == 1 else f"{', '.join(traits[:-1])} and {traits[-1]}"
        if re.search(r"\bvalue\b|\bmatters?\b", q.question, re.I):
            return f"I value being {listed}, and the people I see every day."
        return f"I keep finding that I am {listed}."
    return DONT_KNOW


def answer(question: str, *, persona: str, persona_name: str, persona_summary: str, memories, now: datetime | None,
           routine=(), people=(), ties=(), pronouns=(), seed: int = 0) -> answers.InterviewAnswer:
    """The scripted answer to ``question`` asked of a persona, by whoever asks: an interviewer, a
    player or another persona (:func:`town.scripted.reply.answer_question`). The one answerer:
    :func:`answer_interview` on these inputs (``memories``: the retrieved views; ``now``: the
    game time; ``routine``: the file's blocks; ``people``: names to recognise; ``ties``: the
    file's relationships, (full name, description); ``pronouns``: (full name, "she"/"he"/"they"))."""
    return answer_interview(AnswerInterview(
        persona=persona, persona_name=persona_name, persona_summary=persona_summary, seed=seed, question=question,
        memories=tuple(memories), now=f"{now:%Y-%m-%d %H:%M:%S}" if now else "", routine=tuple(routine),
        people=tuple(people), ties=tuple(ties), pronouns=tuple(pronouns)))


def answer_interview(q: AnswerInterview) -> answers.InterviewAnswer:
    """The scripted answer to ``q`` by its kind (:func:`kind_of`), citing the memories used, with
    stated dates said relative to the question's time ("today", "tomorrow", "on Tuesday")."""
    off = called_off(q.memories, q.persona_name)  # an event put off (called off, its place closed) is not on
    held = tuple(m for m in _first_hand(q.memories) if not (m.fact is not None and put_off(m.fact, off, q.persona_name)))
    answer = _put_off(q, held) if kind_of(q.question) in ("yes/no", "intention") \
        and not re.match(r"\W*why\b", q.question, re.I) else None  # "Why did you cancel it?" asks why
    answer = answer or _by_kind(replace(q, memories=held))
    now = _now(q)
    return answer.model_copy(update={"answer": relative_days(answer.answer, now)}) if now else answer


#: A question asking whether one can do a thing (at a place): "Can I buy milk at the market now?".
_CAN_I = re.compile(r"\W*(?:can|could|may)\s+(?:I|we|you|one)\b|\W*(?:is|will)\s+it\s+be\s+possible\b", re.I)
#: A question asking whether a thing is off ("Is your party cancelled?"): yes when it is.
_ASKS_OFF = re.compile(r"\b(?:cancel(?:l?e?d|l?ing)?|call(?:ed)? off|off|postponed?|scrap(?:ped)?|closed?|shut)\b", re.I)
#: A question asking of a time of the day ("Is the cafe open now?", "... at 4pm?", "... tonight?").
_AT_A_TIME = re.compile(r"\b(?:now|right now|at \d|\d\s*(?:am|pm)|tonight|this (?:morning|afternoon|evening))\b", re.I)
#: A question asking whether a thing is still to be ("Is the party still on?", "Is it going ahead?").
_STILL_ON = re.compile(r"\b(?:still\s+(?:on|happening|going\s+ahead|planned)|going\s+ahead)\b", re.I)
#: A question asking whether a thing is moved ("Has the quiz been postponed?"): yes when it is.
_ASKS_MOVED = re.compile(r"\b(?:moved|postponed|rescheduled|pushed|delayed|changed|shifted)\b", re.I)


def _put_off(q: AnswerInterview, held: tuple) -> answers.InterviewAnswer | None:
    """A yes/no question or one of going about an event put off ("Is the party still on?", "Are
    you going to the party?" when the cafe it was at is closed that day): no, with what put it
    off; about whether a place is open or closed, the closure of the place it names; else None."""
    asked = _asked(q)
    gone = [m for m in q.memories if m.fact is not None and m not in held and len(asked & topic_words(
        f"{_fields(m.fact)} {m.content}")) > 0]
    now = _now(q)
    day = (stated_day(q.question, now) or now.date()) if now is not None else None
    shut = [m for m in held if m.fact is not None and m.fact.closed and m.fact.place is not None
            and m.fact.start is not None and topic_words(place_name(m.fact.place)) & asked
            and (day is None or m.fact.start.date() == day)]  # closed tonight is open tomorrow
    at = _asked_time(q) if _AT_A_TIME.search(q.question) else None
    if shut and asked & {"open", "close", "closed", "shut"}:
        m = shut[-1]
        f = m.fact
        same_part = f is not None and f.part in _PARTS_OF_DAY and f.start is not None and at is not None \
            and at.date() == f.start.date() and re.search(rf"\b{f.part}\b", q.question, re.I) is not None  # all of it
        still = at is not None and f is not None and f.place is not None and not same_part \
            and not f.closes(f.place, at, at + timedelta(minutes=1))  # "open now?" at noon, closing at 3pm: yes
        return _said(f"{'No' if ('open' in asked) != still else 'Yes'}. {_realised(m, q)}", [m.id])
    other_day = [m for m in held if m.fact is not None and m.fact.closed and m.fact.place is not None
                 and m.fact.start is not None and topic_words(place_name(m.fact.place)) & asked
                 and day is not None and m.fact.start.date() != day]
    asks_open = asked & {"open", "close", "closed", "shut"}
    if other_day and asks_open:  # closed yesterday: open today, as far as one knows
        m = other_day[-1]
        return _said(f"{'Yes' if 'open' in asked else 'No'}, as far as I know. {_realised(m, q)}", [m.id])
    mine = [m for m in held if m.fact is not None and q.persona_name in (m.fact.host, m.fact.subject)
            and not (m.fact.cancelled or m.fact.closed or m.fact.moved) and m.fact.start is not None]
    rumour = next((r for r in held if r.kind == "chat" and r.fact is not None and (r.fact.cancelled or r.fact.moved)
                   and any(r.fact.calls_off(o.fact) for o in mine) and asked & topic_words(_fields(r.fact))), None)
    asks_off = _ASKS_OFF.search(re.sub(r"\boff to\b", "", q.question)) or _ASKS_MOVED.search(q.question)  # not "off to"
    if rumour is not None and rumour.fact is not None:  # told one's own event is off: it is not, one knows
        own = next(o for o in mine if o.fact is not None and rumour.fact.calls_off(o.fact))
        return _said(f"{'No' if asks_off else 'Yes'}. {_realised(own, q)}", [own.id, rumour.id])
    stale = next((e for r in held if r.fact is not None and asked & topic_words(_fields(r.fact))
                  and (e := told_since(r, r.fact, q.memories)) is not None), None)
    if stale is not None:  # "Is the party cancelled? Klaus said it was.": its host told it since
        return _said(f"{'No' if asks_off else 'Yes'}. {_realised(stale, q)}", [stale.id])
    own = next((o for o in mine if o.fact is not None and asked & topic_words(o.fact.act)), None) if asks_off else None
    if own is not None and not gone and not re.match(r"\W*why\b", q.question, re.I):  # "Did you cancel your party?": no
        return _said(f"No. {_realised(own, q)}", [own.id])
    on = next((o for o in held if o.fact is not None and o.fact.start is not None and asked & topic_words(o.fact.act)
               and not (o.fact.cancelled or o.fact.closed or o.fact.moved or o.fact.question)), None) \
        if _STILL_ON.search(q.question) and not gone else None
    if on is not None and on.fact is not None:  # "Is your party still on?", nothing put it off
        hedge = "" if q.persona_name in (on.fact.host, on.fact.subject) else ", as far as I know"
        return _said(f"Yes{hedge}. {_realised(on, q)}", [on.id])
    moves = [m for m in held if m.fact is not None and m.fact.moved and asked & topic_words(_fields(m.fact))]
    if moves and _ASKS_MOVED.search(q.question):  # "Has the party been postponed?", its event not held
        return _said(f"Yes. {_realised(moves[0], q)}", [moves[0].id])
    if not gone:
        return None
    best = max(gone, key=lambda m: len(asked & topic_words(f"{_fields(m.fact)} {m.content}")))
    why = next((m for m in held if m.fact is not None and best.fact is not None and m.fact.undoes(best.fact)), None)
    if why is None:
        return None
    if why.fact is not None and why.fact.moved:  # "Is the party still on?": on, another day
        return _said(f"{'Yes' if _ASKS_MOVED.search(q.question) else 'It has been moved'}. {_realised(why, q)}",
                     [why.id, best.id])
    return _said(f"{'Yes' if _ASKS_OFF.search(q.question) else 'No'}. {_realised(why, q)}", [why.id, best.id])


def _first_hand(memories: tuple) -> tuple:
    """``memories`` as the persona knows them: one it made itself (a thought whispered, a sight;
    not a heard line, kind "chat") without the tellers who told it the same later (hearing a held
    fact again adds a teller, :meth:`town.memory.stream.MemoryStream.retold`), and no heard copy of
    an event it holds so (:meth:`town.memory.fact.Fact.event_key`): Isabella, whispered of a jazz
    trio and told it back by Klaus, knows it herself, not "Klaus told me"."""
    own = [replace(m, tellers=()) if m.tellers and m.kind not in ("chat", "plan") else m
           for m in memories]
    held = {m.fact.event_key() for m in own if m.fact is not None and not m.tellers and m.kind != "plan"}
    return tuple(m for m in own if not (m.tellers and m.fact is not None and m.fact.event_key() in held))


def _today(q: AnswerInterview) -> list:
    """The retrieved memories made today, before the question's time, oldest first."""
    now = _now(q)
    if now is None:
        return []
    return sorted((m for m in q.memories if m.created and m.created[:10] == f"{now:%Y-%m-%d}"
                   and m.created <= f"{now:%Y-%m-%d %H:%M:%S}"), key=lambda m: (m.created, m.id))


def _names(people: list[str], most: int = 4) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cat" (first names, in order, once each); beyond
    ``most``: "Ann, Bob, Cat and 3 others"."""
    firsts = list(dict.fromkeys(p.split()[0] for p in people))
    if len(firsts) > most:
        return f"{', '.join(firsts[:most - 1])} and {len(firsts) - most + 1} others"
    return firsts[0] if len(firsts) == 1 else f"{', '.join(firsts[:-1])} and {firsts[-1]}"


def now_day(q: AnswerInterview) -> str:
    """The question's day, "YYYY-MM-DD" ("" when not known)."""
    return q.now[:10]


def _partner(m) -> str:
    """Who a memory was heard from or talked with: its first teller, else its talk summary's partner."""
    return m.tellers[0] if m.tellers else told_by(m.content)[0]


def _heard_news(q: AnswerInterview) -> list:
    """Heard memories that state a fact (not a question), newest first, one per event
    (:meth:`town.memory.fact.Fact.event_key`)."""
    found: dict = {}
    for m in sorted(q.memories, key=lambda m: (m.created, m.id), reverse=True):
        f = m.fact
        if m.tellers and f is not None and not f.question and sayable(f) and len(f.act.split()) > 1 \
                and f.event_key() not in found:  # a statement of someone or somewhere, not a stray word
            found[f.event_key()] = m  # one event told once, however it was worded
    return list(found.values())


def _heard_fact(m) -> bool:
    """Whether ``m`` was heard (``tellers``) and holds a statement it can be said from (its fact)."""
    return bool(m.tellers) and m.fact is not None and not m.fact.question and sayable(m.fact)


def _told(m, q: AnswerInterview) -> str:
    """A heard memory said from its fields (:func:`town.scripted.stance.told`)."""
    return told(m, q)


def _attendance(q: AnswerInterview) -> answers.InterviewAnswer:
    """Who was at the event the question names (by its words, else the latest begun): the people
    the persona saw at its place while it was on (its observations then, each opening with one of
    ``q.people``), and whether the persona itself was there; one not yet begun is said to be ahead.
    Asked how it went (:data:`_HOW_IT_WENT`): "It went well" with two or more others seen there
    (the observations retrieved; fewer seen is no sign of a quiet one)."""
    now = _now(q)
    topic = topic_words(q.question) - _ASKED_WORDS
    events = [m for m in q.memories if m.fact is not None and not m.fact.question and m.fact.start is not None
              and m.fact.place and ":" in m.fact.place]
    if now is None or not events:
        return _general(q, "who")

    def score(m) -> tuple:
        f = m.fact
        return len(topic & topic_words(f"{f.act} {place_name(f.place)}")), f.start <= now, f.start, -m.id
    best = max(events, key=score)
    asked = next((p for p in q.people if p != q.persona_name and (
        re.search(rf"\b{re.escape(p)}\b", q.question) or re.search(rf"\b{re.escape(p.split()[0])}\b", q.question))), None)
    if asked is not None and score(best)[0] == 0:  # "Did Klaus go to the library?": no event of it held
        return _general(q, "yes/no")
    if topic and score(best)[0] == 0:  # "Were you at the library?", "How did your exam go?": no event of it held
        return _general(q, "yes/no" if re.match(r"\W*(?:did|were|was)\b", q.question, re.I) else "what")
    f = best.fact
    assert f is not None and f.start is not None and f.place is not None
    name = event_name(f, f.place)
    if f.start > now:
        return _said(f"{name[:1].upper()}{name[1:]} hasn't begun yet: {statement(f, q.persona_name, now=now)}.",
                     [best.id])
    end = min(now, f.end or f.start + timedelta(hours=1))
    where = f.place.rsplit(":", 1)[-1].lower()
    seen = [m for m in q.memories if m.kind == "observation" and m.created
            and f"{f.start - timedelta(minutes=10):%Y-%m-%d %H:%M:%S}" <= m.created <= f"{end:%Y-%m-%d %H:%M:%S}"
            and where in m.content.lower()]
    there = [next(p for p in q.people if m.content.startswith(p)) for m in seen
             if any(m.content.startswith(p) for p in q.people)]
    talked = [m for m in q.memories if m.kind == "chat" and m.created and (m.tellers or told_by(m.content))
              and f"{f.start:%Y-%m-%d %H:%M:%S}" <= m.created <= f"{end:%Y-%m-%d %H:%M:%S}"]
    if q.persona_name in there:  # there oneself: whom one talked with while it was on was there too
        there += [p for p in map(_partner, talked) if p in q.people]
        seen += talked
    others = [p for p in dict.fromkeys(there) if p != q.persona_name]
    me = q.persona_name in there
    cited = [best.id, *(m.id for m in seen)][:4]
    how = _HOW_IT_WENT.search(q.question) is not None
    if asked is not None:  # "Did Maria come to the open mic?": that one, by what one saw there
        first = asked.split()[0]
        if asked in others:
            return _said(f"Yes, {first} was at {name}.", cited)
        if asked in (f.host, f.subject):  # one's own event: held, as far as one knows
            return _said(f"As far as I know, yes: it was {first}'s own.", [best.id])
        if me:  # only what was retrieved was seen: not seeing is no sign of absence
            return _said(f"I don't remember seeing {first} at {name}.", cited)
        return _said(f"I wasn't at {name}, so I couldn't say whether {first} came.", [best.id])
    went_myself = re.search(r"\bwere you (?:at|there)\b", q.question, re.I)
    if went_myself and not me:  # "Were you at the party?" ("Did you go ...?" is the decision's: intention)
        return _said(f"No, I wasn't at {name}.", [best.id])
    if others:
        were = "was" if len(others) == 1 else "were"
        went = "It went well: " if how and len(others) > 1 else "Yes. " if went_myself else ""
        return _said(f"{went}{_names(others)} {were} at {name}{', and so was I' if me else ''}.", cited)
    if me:
        return _said(f"{'Yes. ' if went_myself else ''}I was at {name}, but I didn't see anyone else there.", cited)
    if how and best.tellers:  # how it went, away: what one was told of it
        return _said(f"I wasn't at {name}, so I couldn't say how it went. {_realised(best, q)}", [best.id])
    return _said(f"I wasn't at {name}, so I couldn't say {'how it went' if how else 'who came'}.", [best.id])


def _day(q: AnswerInterview) -> answers.InterviewAnswer:
    """The day so far: whom the persona heard from today (the ``tellers`` of today's memories),
    the newest news heard today, and what it saw itself do (its plan's items already past)."""
    today = _today(q)
    talks = [m for m in today if m.tellers or told_by(m.content)]
    parts, cited = [], []
    if talks:
        parts.append(f"So far today I've talked with {_names([_partner(m) for m in talks])}.")
        cited += [m.id for m in talks][:3]
    news = [m for m in talks if m.fact is not None and not m.fact.question and m.tellers and sayable(m.fact)]
    if news:
        parts.append(_told(news[-1], q))
        cited.append(news[-1].id)
    when = _now(q)
    part = re.search(r"\b(?:this|your) (morning|afternoon|evening)\b|\b(tonight)\b", q.question, re.I)
    if when is not None:
        items, plan_ids = _plan_items(q, when)
        done = [what for start, what, _ in items if start <= when.hour * 60 + when.minute and "sleep" not in what]
        if part is not None:  # "What did you do this morning?": that part's items of note
            said = (part[1] or part[2]).lower()
            lo, hi = _SPANS[said]
            then = [what for start, what, _ in items if lo * 60 <= start < hi * 60
                    and start <= when.hour * 60 + when.minute and _of_note(what)][:2]
            if then:
                when_said = "Tonight" if said == "tonight" else f"This {said}"
                parts.append(f"{when_said} I was {' and '.join(mine(gerund(w)) for w in then)}.")
                cited += plan_ids
        elif done:
            parts.append(f"Earlier I was {mine(gerund(done[-2] if len(done) > 1 else done[-1]))}.")
            cited += plan_ids
    if not parts:
        return _said("It's been a quiet day so far; nothing much has happened.", [])
    return _said(" ".join(parts), cited)


def _past(q: AnswerInterview) -> answers.InterviewAnswer:
    """Yesterday: whom the persona heard from (``tellers``), what it heard, and its plan that day."""
    now = _now(q)
    if now is None:
        return _general(q, "what")
    named = stated_day(q.question, now)
    asked = datetime.combine(named, time()) if named is not None and named < now.date() else now - timedelta(days=1)
    then_said = "Yesterday" if asked.date() == (now - timedelta(days=1)).date() else f"On {asked:%A}"
    event = _past_event(q, asked, "last night" if re.search(r"\blast night\b", q.question, re.I)
                        else then_said.lower())
    if event is not None:
        return event
    day = f"{asked:%Y-%m-%d}"
    then = sorted((m for m in q.memories if m.created[:10] == day), key=lambda m: (m.created, m.id))
    talks = [m for m in then if m.tellers or told_by(m.content)]
    parts, cited = [], []
    if talks:
        parts.append(f"{then_said} I talked with {_names([_partner(m) for m in talks])}.")
        cited += [m.id for m in talks][:3]
        news = [m for m in talks if m.fact is not None and not m.fact.question and m.fact.subject and m.tellers]
        if news:
            parts.append(_told(news[-1], q))
    items, plan_ids = _plan_items(q, asked)
    if plan_ids:
        work = [what for _, what, _ in items if _of_note(what)][:2]
        if work:
            day_said = "I" if parts else f"{then_said} I"  # the day named once
            parts.append(f"{day_said} spent the day {' and '.join(mine(gerund(w)) for w in work)}.")
            cited += plan_ids
    if not parts:
        return _said(f"I don't remember much of {then_said.lower().removeprefix('on ')}.", [])
    return _said(" ".join(parts), cited)


#: Words of a question about the past that ask rather than name the thing asked about.
_PAST_ASKING = frozenset("happen go last night yesterday evening morning afternoon day do see meet talk spend eat "
                         "monday tuesday wednesday thursday friday saturday sunday".split())


def _past_event(q: AnswerInterview, asked: datetime, then: str) -> answers.InterviewAnswer | None:
    """A question about a thing on a past day ("What happened at the party last night?"): the
    events the persona knows (facts with a start) whose fields hold the thing's words. One that
    day is said; none that day corrects the premise with the one it knows of ("There was no
    party last night; the Valentine's Day party at Hobbs Cafe is today at 17:00"); none at all is
    "I don't know of one". None when the question names no thing (the day in general)."""
    topic = topic_words(q.question) - name_words(q.people) - _PAST_ASKING
    if not topic or re.match(r"\s*who\b", q.question, re.I):  # "Who did you see?" asks of people
        return None
    thing = " ".join(w for w in re.findall(r"[A-Za-z'-]+", q.question) if topic_words(w) & topic)
    events = sorted(((m.fact.start, m.id, m) for m in q.memories if m.fact is not None and m.fact.start is not None
                     and not m.fact.question and sayable(m.fact) and topic & topic_words(_fields(m.fact))),
                    key=lambda e: e[:2])
    that_day = [m for start, _, m in events if start.date() == asked.date()]
    if that_day:
        return _said(_realised(that_day[-1], q), [that_day[-1].id])
    if not events:
        return _said(f"I don't know of any {thing} {then}.", [])
    now = _now(q)
    ahead = [m for start, _, m in events if now is None or start >= now]
    m = ahead[0] if ahead else events[-1][2]
    assert m.fact is not None and m.fact.start is not None
    name = event_name(m.fact, m.fact.place or "")
    when = f"on {m.fact.start:%A, %B} {m.fact.start.day}{_span(replace(m.fact, end=None))}"
    verb = "is" if ahead else "was"
    return _said(f"There was no {thing} {then}, as far as I know; {name} {verb} {when}.", [m.id])


#: Topic words of a question for news that ask for it rather than name what it is about.
_NEWS_ASKED = frozenset("news new happen lately recently gossip hear anything go week weekend today tonight tomorrow "
                         "town around people everyone anyone interest exciting late latest juicy".split())


def _news(q: AnswerInterview) -> answers.InterviewAnswer:
    """Recent news: the newest facts heard (up to two), each with who told it; of the thing,
    place or person the question names, when it names one ("Is anything happening at the
    pub?"): none heard, what the persona holds of it (a thought whispered to it), else "I
    haven't heard anything about bikes" (a memory sharing only the asking's words, "this week",
    is no news of it). A question naming nothing, with nothing heard: :func:`_general`."""
    news = _heard_news(q)
    topic = topic_words(q.question) - _ASKED_WORDS - _NEWS_ASKED
    if topic:
        news = [m for m in news if topic & topic_words(f"{_fields(m.fact)} {m.content}")]
        held = [m for m in _relevant(q) if topic & topic_words(f"{_fields(m.fact)} {m.content}")]
        if not news and held:  # what it holds of the thing itself (a thought whispered, a memory of its file)
            return _said(_realised(held[0], q), [held[0].id])
        if not news:  # never a memory sharing only a word of the asking ("this week")
            thing = " ".join(w for w in re.findall(r"[A-Za-z'-]+", q.question) if topic_words(w) & topic)
            return _said(f"I haven't heard anything about {thing}.", [])
    news = news[:2]
    if not news:
        return _general(q, "what")
    return _said(" ".join(_told(m, q) for m in news), [m.id for m in news])


def _trust(q: AnswerInterview) -> answers.InterviewAnswer:
    """Whom the persona trusts, or spends its time with (:data:`_TIME_WITH`): the person it heard
    from most often (``tellers``), then the one its file relates it to; with what they told it last."""
    asked = next((p for p in q.people if p != q.persona_name and p.split()[0] in q.question), None)
    if asked is not None:  # "Do you trust Tom?": how often they have talked
        talks = [m for m in q.memories if _talked_with(m, asked)]
        first = asked.split()[0]
        if talks:
            return _said(f"Yes, I trust {first}: we've talked {len(talks)} time{'s' if len(talks) > 1 else ''} lately, "
                         f"and {first} has been straight with me.", [m.id for m in talks][:3])
        return _said(f"I don't know {first} well enough yet to say.", [])
    counts: dict[str, int] = {}
    for m in q.memories:
        for t in m.tellers[:1]:
            if t != q.persona_name:
                counts[t] = counts.get(t, 0) + 1
    lead = "I spend the most time with" if _TIME_WITH.search(q.question) else "I trust"
    if not counts:  # nobody told it anything: whom its file or its memories name most
        named = [p for p in q.people if p != q.persona_name and p.split()[0] in q.persona_summary]
        if named:
            return _said(f"{lead} {named[0]}: we've known each other a long time.", [])
        seen = {p: [m.id for m in q.memories if is_about(m.content, p.split()[0])] for p in q.people
                if p != q.persona_name}
        best = max(sorted(seen), key=lambda p: len(seen[p]), default=None)
        if best is None or not seen[best]:
            return _said("I don't know anyone here well enough to say yet.", [])
        return _said(f"I'd say {best}: I see {best.split()[0]} often, though we haven't talked much yet.",
                     seen[best][:3])
    who = max(sorted(counts), key=lambda p: counts[p])
    theirs = sorted((m for m in q.memories if m.tellers[:1] == (who,)), key=lambda m: (m.created, m.id))
    facts = [m for m in theirs if m.fact is not None and not m.fact.question and sayable(m.fact)]
    said = f" Most recently, {_told(facts[-1], q)}" if facts else ""
    cited = ([facts[-1].id] if facts else []) + [m.id for m in theirs if not facts or m.id != facts[-1].id]
    return _said(f"{lead} {who}: {who.split()[0]} keeps me up to date, and we talk often.{said}", cited[:3])


def _greeting(q: AnswerInterview) -> answers.InterviewAnswer:
    """A greeting answered in kind ("Good morning!"), then the day so far."""
    now = _now(q)
    hi = hello(now.hour if now else 12)
    day = _day(q)
    opens = re.match(r"^\s*(?:good (?:morning|afternoon|evening)|hi|hello|hey)\b", q.question, re.I)
    remark = _REMARK.search(q.question) and not _GREETING.search(q.question)
    reply = "It is, isn't it? A good day for it." if remark else "It's going well, thanks."
    return _said(f"{hi + '! ' if opens else ''}{reply} {day.answer}", list(day.evidence or []))


def _stance(found: tuple[str, list[int]] | None, q: AnswerInterview) -> answers.InterviewAnswer:
    """A :mod:`town.scripted.stance` answer, or "I don't know" when no memory bore on it."""
    return _said(*found) if found is not None else _said(DONT_KNOW, [])


def _by_kind(q: AnswerInterview) -> answers.InterviewAnswer:
    plain = spelled_out(q.question)
    if plain != q.question:
        q = replace(q, question=plain)
    kind = kind_of(q.question)
    off = [m for m in q.memories if m.fact is not None and (m.fact.cancelled or m.fact.closed or m.fact.moved)
           and _bears(m, q)[0]]
    if off and re.match(r"\W*why\b", q.question, re.I):  # "Why did you cancel the party?": what called it off
        return _why(q, off[0], _realised(off[0], q))
    if kind == "self":
        return _about_self(q)
    if kind == "greeting":
        return _greeting(q)
    going = would_go(q) if kind == "hypothetical" else None
    if going is not None:  # "would you go ... if Sam invited you?": the stance on Sam
        return _said(*going)
    if kind == "hypothetical" and struck_place(q) is not None:  # about that place, not one's kitchen
        return _said(*hypothetical(q))
    if kind == "hypothetical":
        situation = react(q)
        return _said(*situation) if situation is not None else _said(*hypothetical(q))
    if kind == "intention":
        unheard = _unheard_event(q)
        if unheard is not None:
            return unheard
        why = q.question.lower().lstrip().startswith("why")  # why one does a thing of one's own: what one cares about
        found = (own_reason(q) if why else None) or intention(
            q, _asked_time(q) if _window(q.question, _now(q) or datetime.min) else None)
        return _said(*found) if found is not None else _plan(q)
    if kind == "feeling" and not any(p.split()[0] in q.question for p in q.people) and _related(q) is None:
        kind = "opinion"  # a place, a thing
    if kind == "feeling":
        return _feeling(q)
    if kind == "opinion":
        found = opinion(q)
        return _said(*found) if found is not None else _general(q, "opinion")
    if kind == "attendance":
        return _attendance(q)
    if kind == "day":
        return _day(q)
    if kind == "past":
        return _past(q)
    if kind == "news":
        return _news(q)
    if kind == "trust":
        return _trust(q)
    if kind == "family":
        return _family(q)
    if kind == "plan":
        return _plan(q)
    if kind == "reaction":
        situation = react(q)
        return _said(*situation) if situation is not None else _said(*hypothetical(q))
    if kind == "preference":
        found = preference(q) if not re.search(r"value most|matters? (most )?to you|could change|learned about",
                                               q.question, re.I) else None
        return _said(*found) if found is not None else _preference(q)
    if kind == "who":
        return _who(q)
    if kind == "work":
        return _work(q)
    seen = _SEEN.search(q.question) if kind == "yes/no" else None
    person = _asked_person(q, seen["name"]) if seen else None
    if person is not None:
        return _seen(q, person)
    where = _WHEREABOUTS.search(q.question) if kind in ("where", "when") else None  # "When did you last see X?"
    person = _asked_person(q, where["name"] or where["seen"]) if where else None
    if person is not None and person != q.persona_name:
        return _whereabouts(q, person)
    told = _TOLD_ME.search(q.question) if kind == "what" else None
    person = _asked_person(q, told["name"]) if told else None
    if person is not None and person != q.persona_name:
        return _told_me(q, person)
    slept = _sleep(q) if kind in ("when", "what") and _SLEEP_ASKED.search(q.question) else None
    return slept or _item_asked(q, kind) or _general(q, kind)
