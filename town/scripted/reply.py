"""A scripted persona's reply to the partner's last line: an answer, a reaction, or accepting or
declining an invitation.

A question is answered by the one answerer interviews use too (:func:`town.scripted.interview.answer`:
its kind picks the records it is answered from) on the memories retrieved for it (the
conversation retrieves on the partner's line and adds the speaker's newest plans), in the first
person; only the partner's name as they told it, and small talk ("How are you?", answered in kind
with news or one's own life), are answered here. News gets a reaction taking a stance from
the listener's own memories and traits ("I heard about that too", "Good luck with it"), never
quoting the line. An invitation is accepted or declined by the day plan's own decision
(:func:`town.scripted.attend.decide`: "I'd love to, but I have to serve customers at Hobbs Cafe
until 20:00").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from ..hearsay import depth, pronoun_of, told, unwrap
from ..perspective import own_voice, relative_days
from ..realise import heard, sayable, statement
from ..textevent import find_event, place_in, place_names, stated_day, stated_times
from ..thinking import answers
from ..thinking.dayplan import fact_event
from .attend import decide
from .recount import WORK_WORDS, dated, main_words
from ..thinking.views import MemoryView
from ..thinking.words import topic_words
from .interview import answer
from .voice import AGREED, BACK_AGAIN, IN_PERSON_FRAMES, KNOWN, KNOWN_FROM, NOTHING_NEW, WELL, Voice, opens_small_talk, passed_on

__all__ = ["is_question", "answer_question", "react", "is_news", "reply_to_invite", "first_name", "plan_items",
           "retell", "tie_name"]

_WORK_WORDS = WORK_WORDS - {"retired"}  # one's own work said in a line: not that one has stopped
_STOP = frozenset("""a an the and or but if of to in on at by for with about from into is are was were
be been am do does did have has had i me my you your he she it its we they them their what which who
when where why how that this there here any some not no yes just really very so""".split())


def first_name(name: str) -> str:
    """The first word of ``name`` (how a persona addresses another)."""
    return name.split()[0] if name.strip() else name


def plan_items(memories, now: datetime | None) -> list[tuple[str, str]]:
    """(HH:MM, what) items of the newest retrieved plan for ``now``'s day, in order ([] if none)."""
    if now is None:
        return []
    day = f"{now:%A %B} {now.day}:"
    plans = sorted((m for m in memories if m.kind == "plan" and day in m.content), key=lambda m: m.created)
    if not plans:
        return []
    items = [i.strip() for i in plans[-1].content.partition(": ")[2].split(";") if i.strip()]
    return [(i[:5], i[6:]) for i in items if re.match(r"^\d\d:\d\d ", i)]


def tie_name(name: str | None, ties) -> str | None:
    """How a speaker names someone its file relates it to as "my ...": "my wife Jennifer" for
    ("Jennifer Moore", "my wife, a watercolour painter"); None for anyone else."""
    said = next((d for n, d in ties if n == name), "") if name else ""
    tie = said.split(",")[0].strip()
    if not name or not re.fullmatch(r"my [a-z]+(?: [a-z]+)?", tie):
        return None
    return f"{tie} {first_name(name)}"


def retell(m, now: datetime | None = None, me: str = "", voice: Voice | None = None, *,
           ties=(), pronouns=()) -> str:
    """Say a memory of the persona named ``me`` aloud, days relative to ``now``.

    A heard memory holding a fact (an event: a place and a start; or any statement it was told as
    news) is said from its fields by the realiser, never from its words: 'Maria told me that S'
    (the first teller's first name, one level; :func:`town.realise.heard`; told by the one who
    does it, they are named once: "Isabella told me in person: she is ..."); an event not heard from anyone likewise, in the
    first person when ``me`` is its subject ("I am holding ..."), else as news. Others: own first-person ones as they
    are (the persona's own words), heard ones as 'Maria told me that S', anything else as news.
    With a ``voice`` (:class:`town.scripted.voice.Voice`), a heard event is passed on in one of
    its frames ("I heard from Maria that S.") and the speaker's lead-in; its doer with their
    ``pronouns``' possessive, and named by the speaker's tie when ``ties`` (its file's
    relationships) call them "my ..." ("I heard from Maria that my husband Sam has decided ...").
    """
    fact = getattr(m, "fact", None)
    event = fact is not None and bool(fact.place and fact.start)
    if fact is not None and not fact.question and sayable(fact) and (event or m.tellers or fact.moved):
        if m.tellers:
            teller = first_name(m.tellers[0])
            doer = fact.subject or fact.host
            if voice is not None and not (doer and first_name(doer) == teller):
                return voice.heard(teller, statement(fact, me, now=now, pronoun=dict(pronouns).get(doer or ""),
                                                     subject_as=tie_name(doer, ties)))
            if voice is not None:  # the teller is who does it: told at first hand, named once
                pronoun = pronoun_of(m.content) or "they"
                frame = voice.pick(*IN_PERSON_FRAMES)
                said = statement(fact, me, now=now, pronoun=pronoun, subject_as=pronoun)
                return voice.say(frame.format(t=teller, s=said))
            return heard(fact, [(teller, now or datetime.min)], me, pronoun=pronoun_of(m.content), now=now)
        said = statement(fact, me, now=now)
        said = said[:1].upper() + said[1:]
        own = fact.subject == me or (fact.subject is None and fact.host == me)
        if voice is not None:
            return voice.say(said if own else f"Did you hear? {said}")
        return said + "." if own else f"Did you hear? {said}."
    text = dated(m)
    if now is not None:
        text = relative_days(text, now)
    if unwrap(text)[0]:
        return _heard_aloud(text)
    if text.startswith(("I ", "I'")) or re.search(r"\b(?:I|my)\b", text):  # one's own: "The paper is due ...
        return voice.say(text.rstrip(".")) if voice is not None else text  # and I still need sources", no "Did you hear?"
    return voice.say(f"Did you hear? {text.rstrip('.')}") if voice is not None else f"Did you hear? {text}"


def _heard_aloud(text: str) -> str:
    """A heard memory said aloud: 'Maria told me that S.' (the teller's first name, one level,
    the teller named once: :func:`town.hearsay.told`)."""
    names, statement = unwrap(text)
    return told(first_name(names[0]), statement.rstrip("."), pronoun_of(text)) + "."


def _words(text: str) -> set[str]:
    """Topic words of ``text``: lower-case words (names left out), no function words."""
    return {w.lower() for w in re.findall(r"\b[a-z][a-z']+", text) if len(w) > 2 and w not in _STOP}


#: "Did you hear? " opening news, after a lead-in or not ("So, did you hear? ..."): it asks nothing.
_DID_YOU_HEAR = re.compile(r"\b[Dd]id you hear\? ")


def is_question(line: str) -> bool:
    """Whether ``line`` asks something (a sentence of it ends with "?"; "Did you hear?" does not ask)."""
    return "?" in _DID_YOU_HEAR.sub("", line)


def _question(line: str) -> str:
    """The question a line asks: its last sentence ending "?", and the one before when that is a
    bare follow-up ("Are you going to the party? Why?")."""
    parts = [p for p in re.split(r"(?<=[.!?])\s+", line.strip()) if p.endswith("?")]
    if len(parts) > 1 and len(parts[-1].split()) <= 3:
        return " ".join(parts[-2:])
    return parts[-1] if parts else line


def _said(m, now: datetime | None) -> str:
    """A memory said in the first person by its owner, days relative to ``now``."""
    text = relative_days(dated(m), now) if now else dated(m)
    if unwrap(text)[0]:
        return _heard_aloud(text)
    return text if text.endswith((".", "!", "?")) else text + "."


def _from(memory, name: str) -> bool:
    """Whether ``memory`` is something ``name`` told (its first teller, in its words)."""
    names = unwrap(memory.content)[0]
    return bool(names) and first_name(names[0]) == first_name(name)


def answer_question(line: str, q, now: datetime | None, news: list, voice: Voice | None = None,
                    own: Callable[[], answers.LineAnswer | None] | None = None) -> answers.LineAnswer | None:
    """The answer to the question in ``line`` from the retrieved memories and the persona's file:
    the asker's name as they told it, small talk in kind, else the one answerer
    (:func:`town.scripted.interview.answer`) on the retrieved memories without lines kept as
    said (the asker's own words are never the answer).

    ``own``: a line of the persona's own life (:func:`town.scripted.topics.own_life`), said after
    "I'm well" when asked how it is and no news is left.

    Returns None for a question that needs no answer of its own (none is asked).
    """
    asked = _question(line)
    low = asked.lower()
    listener = q.listener_name
    if q.recalled:  # the whole retrieval for the question, things told before included
        q = replace(q, memories=q.recalled)
    if re.search(r"\bmy name\b|\bwho am i\b", low):
        for m in q.memories:
            names, statement = unwrap(m.content)
            found = re.search(r"\bname is ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", statement)
            if found and (not names or first_name(names[0]) == first_name(listener)):
                return answers.LineAnswer(line=f"Your name is {found.group(1).rstrip('.')}: you told me.")
        return answers.LineAnswer(line="I'm sorry, I don't think you've told me your name.")
    if re.search(r"\bwhat(?:'?s| is) (?:new|happening|going on)\b|\bany news\b|\banything (?:new|happening|going on)\b|"
                 r"\bbeen up to\b|\bhow (?:are|have) you\b|\bhow'?s (?:it|your \w+) going\b|\bhow are things\b|"
                 r"\bbusy with\b|\bhow'?s everything\b|\bisn't it\b|\bhow about you\b|\bkeeping you busy\b|"
                 r"\bback again\b", low):
        well = voice.pick(*WELL) if voice else WELL[0]
        lead = well + " " if re.search(r"\bhow (?:are|have)|\bhow'?s \w+ \w*\s?going|\bhow are things|"
                                       r"\bhow'?s everything", low) else ""
        if re.search(r"\bisn't it\b", low):  # small talk agreed with, in kind
            lead = (voice.pick(*AGREED) if voice else AGREED[0]) + " "
        if re.search(r"\bback again\b", low):  # a greeting's question, answered in kind
            lead = (voice.pick(*BACK_AGAIN) if voice else BACK_AGAIN[0]) + " "
        if news:
            told_now = retell(news[0], now, q.persona_name, voice, ties=q.ties, pronouns=q.pronouns)
            return answers.LineAnswer(line=(lead + told_now)[:1000], shared=[news[0].id])
        mine = own() if own is not None else None
        if mine is not None:
            return mine.model_copy(update={"line": (lead + mine.line)[:1000]})
        return answers.LineAnswer(line=lead + NOTHING_NEW if not lead else lead.strip())
    # any other question: the one answerer, from the memories retrieved for it (never a line
    # kept as it was said or asked: the asker's own words back; what they told is kept as a
    # fact, for the decision or the opinion it bears on)
    shown = tuple(m for m in q.memories if not m.content.startswith(f"{listener} asked me")
                  and " said to me: " not in m.content and (m.fact is not None or not _from(m, listener)))
    said = answer(asked, persona=q.persona, persona_name=q.persona_name, persona_summary=q.persona_summary,
                  memories=shown, now=now, routine=q.routine, people=(q.persona_name, listener), seed=q.seed,
                  ties=q.ties, pronouns=q.pronouns)
    return answers.LineAnswer(line=_one_told(said.answer)[:1000])


def _one_told(text: str) -> str:
    """``text`` with one sentence passing on what someone told at most (the first): a spoken
    line passes on one level of hearsay, and two tellers in one line read as a chain ("Sam told
    me that S. Isabella told me that T." counts as hearsay two deep, :func:`town.hearsay.depth`)."""
    kept: list[str] = []
    for said in re.split(r"(?<=[.!?])\s+", text.strip()):
        if not (depth(said) and any(depth(k) for k in kept)):
            kept.append(said)
    return " ".join(kept)


def _self_line(q, marks: frozenset[str], fallback: str, without: str = "") -> str:
    """The persona file's sentence holding the most of ``marks`` in its main clause
    (:func:`town.scripted.recount.main_words`), in its own first person; none naming ``without``
    (a first name: the listener, who is not told of themselves in the third person)."""
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", q.persona_summary.strip())
                 if x and not (without and re.search(rf"\b{re.escape(without)}\b", x))]
    scored = [(len(marks & main_words(x)), -i, x) for i, x in enumerate(sentences)]
    best = max(scored, default=(0, 0, ""))
    return own_voice(best[2], q.persona_name) if best[0] else fallback


def _told_part(line: str) -> str:
    """``line`` past a first sentence of reaction or small talk that more follows ("How lovely,
    Isabella! Hey, did you hear? A sign ...": what it goes on to tell)."""
    parts = re.split(r"(?<=[.!])\s+", line.strip(), maxsplit=1)
    return parts[1] if len(parts) == 2 and opens_small_talk(parts[0]) else line


def is_news(line: str) -> bool:
    """Whether ``line`` tells something (a statement of five words or more), not a greeting,
    a question, a reaction or a goodbye; a reaction opening it may go on to tell news ("How
    lovely, Isabella! Hey, did you hear? A sign on the door ...")."""
    told = _told_part(line)
    if opens_small_talk(told) or "?" in _DID_YOU_HEAR.sub("", told):
        return False
    return len(told.split()) >= 5


def reply_to_invite(line: str, q, now: datetime | None, voice: Voice | None = None) -> answers.LineAnswer | None:
    """Accept or decline an event ``line`` states at a place, a day and a time (or part of a day), by the same
    decision the day plan makes (:func:`town.scripted.attend.decide`).

    The line is the evidence, heard from the partner; the decision sees the persona's own
    routine (``q.routine``), its retrieved memories, its file's summary and its ``attend_seed`` (the day plan's).
    A clash (an obligation elsewhere: a task at another place, not leisure) is declined in the
    decision's words ("I'd love to, but I have to serve customers at Hobbs Cafe until 20:00.").
    None when the line states no such event, one already under way, or is itself an answer to one.
    """
    if now is None or not _INVITING.search(line) or line.startswith(("I'd love to", "Thanks")):
        return None
    places = place_names(tuple(q.places))
    event = find_event(line, now, places, parts=True)  # "tomorrow morning" will do
    if event is None or event.start <= now:  # under way already: nothing to come to later
        return None
    day = event.start.date()
    held = [m.fact for m in (q.recalled or q.memories) if m.fact is not None and not m.fact.cancelled
            and (m.kind == "whisper" or q.listener_name not in m.tellers and not _from(m, q.listener_name))  # not
            # the line just heard; one's own thought, told back, is known
            and (e := fact_event(m.fact, places)) is not None and e.start == event.start
            and e.place.split(":")[:2] == event.place.split(":")[:2]]  # this event, already held
    if any(q.persona_name in (f.host, f.subject) for f in held):  # one's own, told back: no thanks for it
        name = f", {voice.first}" if voice is not None and voice.first else ""
        return answers.LineAnswer(line=f"Yes, that's mine{name}! I hope you can make it.")
    heard = MemoryView(id=-1, content=told(q.listener_name, line), kind="chat", importance=1,
                       created=f"{now:%Y-%m-%d %H:%M:%S}")
    d = decide(event, [heard], routine=q.routine, memories=q.memories, summary=q.persona_summary, seed=q.attend_seed,
               now=now)
    if not d.go:
        if voice is not None:
            return answers.LineAnswer(line=voice.decline(d.reason, bool(d.clash)))
        return answers.LineAnswer(line=f"I'd love to, but {d.reason}." if d.clash else f"Thanks, but {d.reason}.")
    when = relative_days(f"on {day:%B} {day.day}", now)  # "on Friday" within the week, else "on February 24"
    if voice is not None:
        return answers.LineAnswer(line=voice.accept(when, "", relayed=passed_on(line), known=bool(held)))
    return answers.LineAnswer(line=f"I'd love to come {when}! Thanks for telling me.")


#: Words that make a line stating a day and a time an invitation (or news of a thing there is, to go to).
_INVITING = re.compile(r"\b(?:party|invit\w*|come|join|dinner|gathering|night|celebrat\w*|event|meet\w*)\b"
                       r"|\bthere (?:is|are|will be)\b", re.I)  # "there is a movie marathon at ... at 9pm"


#: A feeling of one's own confided in a line ("I have a crush on Klaus").
_CONFIDED = re.compile(r"^(?:\w+,?\s+)?i (?:have a crush on|am in love with|['’]m in love with|have feelings for|"
                       r"fancy|miss)\b")
#: News that is glad to hear, though it names no day: a party, a win, a new start.
_GLAD = re.compile(r"\b(?:party|parties|celebrat\w*|won|wins?|winning|engaged|married|wedding|baby|promot\w*|free|"
                   r"birthday|festival|concert|fun|welcome|new|opening|opens?|launch\w*|accepted|passed|got the job|"
                   r"hired|offered|(?:is|are|came|got) back|better|recovered|found)\b")
#: A line telling the speaker's own plan ahead ("Later I'm going to ...", "At 19:00 I'll be ...").
_OWN_PLAN = re.compile(r"^(?:\w+,?\s+)?(?:later |tonight |then )?(?:i['’]m going to|i am going to|i still have to|"
                       r"i need to|i have to|at \d\d:\d\d i['’]ll be|i['’]ll be)\b")


def _own_told_off(low: str, q) -> bool:
    """Whether ``low``, a heard clause saying a thing is off, names an event of the listener's own
    that it holds on (its fact's host or subject; two words of its act in the clause)."""
    said = topic_words(low)
    for m in q.recalled or q.memories:
        f = m.fact
        if f is not None and q.persona_name in (f.host, f.subject) and f.start is not None \
                and not (f.cancelled or f.closed or f.moved) and len(said & topic_words(f.act)) >= 2:
            return True
    return False


def react(line: str, q, now: datetime | None, voice: Voice) -> answers.LineAnswer | None:
    """A reaction to news in ``line`` (None when the line is not news): a stance of the
    listener's own, from its memories (already heard, a clash with its plan) and its traits."""
    if not is_news(line) or now is None:
        return None
    speaker = q.listener_name.split()[0]
    said = _DID_YOU_HEAR.sub("", re.sub(r"^.*? told me that ", "", _told_part(line)))
    heard = _words(said)
    places = place_names(tuple(q.places))
    where = place_in(said, places)  # the place it names, by name: "The Willows Market and Pharmacy is closed"
    event = find_event(said, now, places, parts=True) if where else None
    shut = where is not None and re.search(r"\b(?:clos\w*|shut)\b", said, re.I) is not None
    for m in q.recalled or q.memories:  # all it holds, not only what it may tell; not the line itself
        names, statement = unwrap(m.content)
        if m.kind not in ("observation", "whisper") and (q.listener_name in m.tellers or _from(m, q.listener_name)):
            continue  # what they told, not what one saw oneself (and they told again)
        f = m.fact
        same = where is not None and f is not None and f.place is not None \
            and f.place.split(":")[:2] == where.split(":")[:2] and (  # its place held closed, or its event
                f.closed and shut or event is not None and f.start == event.start and not f.closed)
        if m.kind != "plan" and (same or len(heard & _words(statement)) >= max(3, len(heard) // 2)):
            teller = names[0].split()[0] if names and names[0].split()[0] != speaker else ""
            name = f", {voice.first}" if voice.first else ""  # a short line, said to one person
            said = voice.pick(*KNOWN_FROM) if teller else voice.pick(*KNOWN)
            return answers.LineAnswer(line=said.format(teller=teller, name=name))
    told_now = _DID_YOU_HEAR.sub("", _told_part(line)).strip(" ,")  # "Did you hear? A sign ...": the sign's
    low = re.split(r"[;.!?]", told_now, maxsplit=1)[0].lower()  # its own clause: not a crush "on ... his research"
    if _CONFIDED.search(low):  # "I have a crush on Klaus Mueller": a feeling confided, not news to cheer
        return answers.LineAnswer(line=voice.react("confided"))
    if re.search(r"\b(?:paper|research|exam|thesis|project|essay|studying|finish\w*|deadline|due)\b", low):
        return answers.LineAnswer(line=voice.react("luck"))
    if _OWN_PLAN.search(low):  # "Later I'm going to cook and eat dinner at 21:00": no "What good news!"
        return answers.LineAnswer(line=voice.react("plan"))
    off = re.search(r"\b(?:clos\w*|shut|renovation|cancel\w*|call(?:ed|ing)? off|scrap\w*|postpone\w*|sick|broke\w*"
                    r"|burst|flood\w*|lost|missing|stolen|shame|gutted|sadly|unfortunately|repairs?|roadworks|"
                    r"accident|injur\w*|died|passed away|fired|quit\w*|anxious|worried|worry\w*|"
                    r"scared|afraid|loose|ran away|escaped|storm|snow\w*|warning)\b", low)
    if off and _own_told_off(low, q):  # "Isabella called off her party", told to Isabella: it is on
        return answers.LineAnswer(line=voice.react("rumour"))
    if off:
        return answers.LineAnswer(line=voice.react("trouble"))
    if _GLAD.search(low) or stated_times(told_now) is not None or stated_day(told_now, now) is not None:
        return answers.LineAnswer(line=voice.react("good"))  # something on, or glad news
    return answers.LineAnswer(line=voice.react("plain"))  # "Klaus owes me 20 dollars": no "What good news!"
