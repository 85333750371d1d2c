"""Typed text read once, at its edge: what a whisper, a player's line, a persona file's memory or
the events file's news states, as a :class:`~town.memory.fact.Fact`.

Text typed by a person (not a model) is read where it enters the town, once; the memory it makes
keeps the fact, and nothing reads the memory's words back. The event's place and times come from
:func:`town.textevent.find_event` (parsedatetime and the clock-time patterns); the subject is the
first of the town's people the text names (or the persona itself, for "I ..."); the act is the
verb phrase after the subject, its verb in base form (:func:`town.perspective.verb_of`), up to
the first place, time or clause break. Of several clauses, the one stating the clock time states
the event when the first lacks it; an event of no one of the town is what there is ("be a
travelling circus", "be movie night"), and a state of no one at no time ("The oven broke") is
no fact.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta

from town.memory.fact import Fact
from town.inflection import (base_form, gerund, head_phrase, is_plural, is_verb, lemmas, participles, past_of,
                             simple_past)
from town.perspective import DETERMINERS, verb_of
from town.textevent import (HOUR_WORDS, PART_STARTS, WEEKDAYS, find_event, place_in, stated_day, stated_times, unread_hour,
                            without_unread_hour)

__all__ = ["read_fact", "spelled_out", "cased_names", "SHORTHAND", "neutral_act", "Situation", "read_situation", "SITUATION_WORDS", "UNTIL"]

#: What one was told, opening a text: "I heard that ...", "Someone told me ...": the fact is what
#: follows (who told is not the event's subject).
_HEARSAY = re.compile(r"^\s*(?:I(?:'ve| have)? heard|I was told|someone told me|people say|word is|rumou?r has it"
                      r"|(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))? (?:just )?(?:told me|says|said|mentioned|tells me|"
                      r"texted me|messaged me|wrote to me))"
                      r"\s*(?:that\s+|,\s*)?", re.I)  # "Jennifer told me the art club meets ...": the club's
#: Typed shorthand and common slips, read as the words they stand for (a whisper, a player's line,
#: a question): "how was teh party??".
SHORTHAND = {"u": "you", "r": "are", "ur": "your", "ya": "you", "wat": "what", "wut": "what", "w/": "with",
             "rn": "right now", "lol": "", "pls": "please", "plz": "please", "thx": "thanks", "tmrw": "tomorrow",
             "tmr": "tomorrow", "tmw": "tomorrow", "tmrow": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
             "tomoz": "tomorrow", "2day": "today", "2nite": "tonight", "tonite": "tonight", "wanna": "want to",
             "gonna": "going to", "gotta": "have to", "theres": "there's", "cuz": "because", "coz": "because",
             "how'd": "how did", "what'd": "what did", "where'd": "where did", "who'd": "who did",
             "let's": "we'll", "let’s": "we'll", "ngl": "", "tbh": "", "imo": "", "lmao": "", "haha": "",
             "teh": "the", "hte": "the", "waht": "what", "wht": "what", "abt": "about", "becuase": "because",
             "ppl": "people", "tho": "though", "gunna": "going to", "mornin": "morning", "evenin": "evening",
             "nite": "night", "libary": "library", "tommorow": "tomorrow", "tomorow": "tomorrow",
             "tommorrow": "tomorrow", "tomrrow": "tomorrow", "wensday": "Wednesday", "wednesay": "Wednesday",
             "saturaday": "Saturday", "resturant": "restaurant", "tue": "Tuesday", "tues": "Tuesday",
             "weds": "Wednesday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday", "n": "and",
             "comin": "coming", "goin": "going", "doin": "doing", "havin": "having", "gettin": "getting",
             "makin": "making", "takin": "taking", "nothin": "nothing", "somethin": "something",
             "evryone": "everyone", "everyon": "everyone", "saturdy": "Saturday", "closd": "closed",
             "clsd": "closed", "canceld": "cancelled", "cancelld": "cancelled", "cancled": "cancelled",
             "bday": "birthday", "bc": "because", "b/c": "because", "tix": "tickets", "nxt": "next",
             "tmorow": "tomorrow", "tomoro": "tomorrow", "tmoro": "tomorrow", "2mrw": "tomorrow", "tmro": "tomorrow"}
_SHORT_WORD = re.compile(r"(?<![\w/])(" + "|".join(map(re.escape, SHORTHAND)) + r")(?![\w/])", re.I)


#: A clause asking that something be kept in confidence: "but don't tell anyone yet", "it's a secret".
_CONFIDING = (r"(?:(?:don['’]?t|do\s+not|never)\s+tell\s+(?:anyone|anybody|a\s+soul|no\s*one|people|the\s+others|"
              r"others|everyone|him|her|them|(?-i:[A-Z]\w+))"
              r"|keep\s+(?:it|this|that)\s+(?:a\s+secret|secret|quiet|to\s+yourself|between\s+us)"
              r"|(?:it['’]?s|this\s+is|that['’]?s)\s+(?:a\s+)?secret|on\s+the\s+down\s*low)\b")
#: Words that tell something in confidence: such a clause, "Secret - ...", "between us", 🤫.
_IN_CONFIDENCE = re.compile(rf"\b{_CONFIDING}|^\s*(?:secret|shh+|psst|confession)\b|\bbetween\s+(?:you\s+and\s+me|us)\b"
                            r"|\U0001F92B", re.I)
#: Such a clause with what joins it, left out of what is read ("I'm pregnant!! but don't tell anyone yet").
_CONFIDING_CLAUSE = re.compile(rf"[\s,;:.!?-]*\b(?:but\s+|and\s+|so\s+)?(?:please\s+|pls\s+|just\s+)?{_CONFIDING}"
                               r"[^.;!?,]*", re.I)


def cased_names(text: str, names: Sequence[str]) -> str:
    """``text`` with the town's people's full and first names typed in lower case written as
    their names are ("ask klaus out" -> "ask Klaus out"), so that a name is read as a person's
    wherever it was typed."""
    for name in sorted({f for n in names for f in (n, n.split()[0])}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w'’-]){re.escape(name.lower())}(?![\w-])", name, text)
    return text


#: "off to" a place, said as going: "I'm off to the pub tonight".
_OFF_TO = re.compile(r"\b(am|['’]m|is|['’]s|are|['’]re)\s+off\s+to\b", re.I)
#: A title's or a saint's short form, whose full stop ends no sentence ("a St. Patrick's folk night").
_TITLE_STOP = re.compile(r"\b(St|Mr|Mrs|Ms|Dr|Mt|Jr|Sr|Prof)\.(?=\s+[A-Z])")


#: A typed face (":(", ":-)", ";D", "<3", "xD"), a space or the text's end either side.
_EMOTICON = re.compile(r"(?:^|\s+)(?:[:;=8][-'^]?[()\[\]DPpOo/\\|3*]+|<3|[xX]D)(?=\s|$)")


def spelled_out(text: str) -> str:
    """``text`` with its shorthand (:data:`SHORTHAND`) written out, its spaces made single and a
    title's full stop dropped (:data:`_TITLE_STOP`): "c u tmrw at the pub" -> "c you tomorrow at
    the pub", "a St. Patrick's night" -> "a St Patrick's night"; emoji left out ("my piano piece
    🎹🔥") and a typed face a sentence's end ("the party :( i'm ill" -> "the party. I'm ill"); "i"
    written "I" ("so i'm going" -> "so I'm going")."""
    text = "".join(c for c in text if unicodedata.category(c) not in ("So", "Sk", "Cf") and c != "\ufe0f")  # emoji
    text = _EMOTICON.sub(lambda m: "" if m.start() == 0 or m.end() == len(text) else ".", text)  # "the party :( I'm ill": two sentences
    text = _TITLE_STOP.sub(r"\1", _SHORT_WORD.sub(lambda m: SHORTHAND[m.group(1).lower()], text))
    text = re.sub(r"(?<=\w)\s+(?=[,;](?:\s|$))", "", text)  # "is off lol, prof ...": "is off, prof ..."
    text = _OFF_TO.sub(r"\1 going to", text)  # "I'm off to the pub at 8pm": going there
    text = re.sub(r"(?<![\w'’-])i(?=(?:['’](?:m|ve|ll|d))?(?![\w'’-]))", "I", text)  # "so i'm going": "I'm"
    return re.sub(r"\s+", " ", text).strip()
#: A heading or interjection before what a text states: "Reminder:", "Big news:", "Hey,", "FYI".
_HEADING = re.compile(r"^\s*(?:dear\s+[^,:;.!?]{1,40}[,:]\s*(?:please\s+note(?:\s+that)?[,:]?\s*)?|(?:hey|hi|yo|oh|omg|ok|okay|so|well|psa|fyi|(?:just )?(?:a )?reminder(?: that)?|"
                      r"remember that|don't forget that|big news|news|heads up|guess what|change of plans?|good news|"
                      r"attention|note|update|btw|by the way|listen|announcement|apparently|lol|unfortunately|sadly|"
                      r"bad news|ugh|argh|oops|damn|aw|secret|shh+|psst|between (?:us|you and me)|confession|"
                      r"sorry(?: (?:folks|everyone|all|guys|y'all))?)\b\s*[,:!.\-–—]*\s*)+(?=\S)",
                      re.I)
#: One's own telling of what a that-clause states: "I should remind my regulars that the party
#: starts at 5pm" states the party at 5pm, not a reminding then.
_SAYING_THAT = re.compile(r"^\s*(?:(?:I|we)\b[^.;!?]{0,40}?\b|(?:please\s+|remember to\s+|don't forget to\s+)?)"
                          r"(?:remind|tell|told|let \w+ know|inform|warn|announce|say|said|write|wrote)\w*\b"
                          r"[^.;!?]{0,40}?\bthat\s+(?=\S)", re.I)
#: One's own someone opening a text as its subject: "My cousin is", "My cousin Ana is", "Our
#: neighbours are" (up to the verb, which stays for the act).
_KIN_SUBJECT = re.compile(r"^\s*(?:my|our)\s+(?!own\b)[a-z'-]+(?:\s+[a-z'-]+)?(?=\s+(?:is|are|was|were|will|has|have|"
                          r"had|wants?|plans?|hosts?|runs?|holds?)\b)", re.I)
#: A verb of meaning to do something before the thing done: "want to", "decide to" (an event's act
#: is the thing done at its time: "Klaus wants to start a book club at the library next Monday at
#: 6pm" is Klaus starting one then, not "wanting" then).
_MEANS_TO = re.compile(r"^(?:want|decide|plan|hope|intend|mean|wish|aim|try|agree|promise|choose|need|would like|"
                       r"like|love)\s+to\s+(?=\w)")
#: A call for help before the thing to be done: "need volunteers to help", "am looking for people
#: to" (the event is the thing done, and anyone who comes helps: an open invitation).
_HELP_WANTED = re.compile(r"^(?:need|want|am looking for|are looking for|look for|seek|could use)\s+(?:some\s+|a few\s+"
                          r"|more\s+)?(?:volunteers|helpers|help|people|hands|a hand|someone|anyone|friends)\s+to\s+"
                          r"(?:help\s+(?:me\s+|us\s+)?(?:to\s+)?)?(?=\w)")
#: "I" or "we" as the subject of a clause, with a contracted auxiliary ("I'm", "we've").
_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:I|[Ww]e)(?:['’][a-z]+)?(?![\w'’])")
#: A verb's particle kept with it before an object ("putting on a potluck", "setting up a stall").
_PARTICLE = re.compile(r"^\s+(on|up|together|out)(?=\s+(?:a|an|the|my|our|his|her|their)\b)", re.I)
#: An open invitation: "everyone is welcome", "all are invited", "anyone can come", "I want to
#: invite everyone", "open to all", "all welcome".
_OPEN = re.compile(r"\b(?:everyone|everybody|anyone|anybody|all|volunteers|helpers|newcomers|beginners)\b[^.;!?]{0,20}"
                   r"\b(?:welcome|invited|can come|may come)\b"
                   r"|\binvit\w*\s+(?:everyone|everybody|the whole town|all\b(?! of\b| my\b| her\b| his\b| our\b| their\b))"
                   r"|\bopen to (?:all|everyone|everybody|anyone|the public)\b|\b(?:for|with) (?:everyone|everybody)\b"
                   r"|\b(?:volunteers|helpers) (?:needed|wanted)\b|\binvites? (?:everyone|everybody)\b"
                   r"|\b(?:let['’]s|we['’]ll) all (?:meet|come|go|get together|gather)\b", re.I)
#: A first-person possessive or reflexive in an act, and the neutral form a fact keeps it in.
_OWN = {"my": "one's", "our": "one's", "myself": "oneself", "ourselves": "oneself"}
_OWN_WORD = re.compile(r"\b(my|our|myself|ourselves)\b", re.I)


def neutral_act(act: str) -> str:
    """An act its subject stated in the first person, its possessives made the subject's own
    ("one's", "oneself"), so that whoever holds the fact says it in their own person
    (:func:`town.realise.act_phrase`): "run a rehearsal of my comedy show" -> "run a rehearsal of
    one's comedy show"."""
    return _OWN_WORD.sub(lambda m: _OWN[m.group(1).lower()], act)


#: The end of the act's phrase: a preposition of place or time ("on" only before a day: "a talk on
#: housing policy" keeps its topic), a reason ("cancel the party
#: because she is sick": "cancel the party"), or a clause break (a colon ends
#: it before the list it opens: "want the party to feel warm: red paper hearts, hot chocolate and
#: music" keeps "want the party to feel warm", not its list's first item; a relative
#: clause included: "announce my run to anyone who asks what I am up to" keeps "announce my
#: run", not the clause's own subject "I" nor its stranded "up to", and not "to anyone" either,
#: which without its clause says something else: :data:`_DANGLING`).
_PHRASE_END = re.compile(r"\s+on(?=\s+(?:the\s+)?(?:\d|Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|"
                         r"Sep|Oct|Nov|Dec|weekend|weekday))|\s+(?:at|in|from|this|tomorrow|today|tonight|yesterday|next|between|behind|near|beside|outside|until|till"
                         r"|inside|opposite|" + "|".join(WEEKDAYS) + r")\b|[,;.!?]|(?<!\d):(?!\d)"
                         r"|\s+(?:who|whom|whose|whoever|which|because|since)\b|\s+all\s+(?:day|night|morning|afternoon|evening|week)\b"
                         r"|\s+last(?=\s+(?:" + "|".join(WEEKDAYS) + r"|week|weekend|night|month|year)\b)"
                         r"|\s+and\s+(?=(?:everyone|everybody|anyone|all|you|i|we|they|he|she|it|there)\b)", re.I)
#: A relative pronoun opening a clause that ends the act (a match of :data:`_PHRASE_END`).
_RELATIVE = re.compile(r"\s+(?:who|whom|whose|whoever|which)$", re.I)
#: An act's last words naming whom only the relative clause cut off restricts: "to anyone" (who
#: asks what I am up to), left out, so that the act does not say it is done to everyone.
_DANGLING = re.compile(r"\s+(?:to|for|with)\s+(?:anyone|anybody|everyone|everybody|someone|somebody|those|people)$",
                       re.I)
#: What an invitation asks one to come to: "come to a poetry reading", "join us for a swap".
_INVITED_TO = re.compile(r"\b(?:com(?:e|ing)(?: along)? to|come for|make it to|join(?: us)?(?: at| for)?|attend|invited to"
                         r"|go(?:ing)? to|be at|^there(?:'s| is| will be| are))"
                         r"\s+((?:(?:a|an|the|my|our|this|his|her|their)\s+)?[^,;.!?]+)", re.I)
#: A thing opening a text as its subject, before its verb: "A travelling circus is setting up in
#: Johnson Park ...", "the Valentine's Day party at Hobbs Cafe starts at 5pm" (an event of no
#: one's: there is the thing, at its place and time).
_A_THING = r"(?:[Aa]|[Aa]n|[Tt]he)\s+[a-zA-Z][\w'-]*(?:\s+[a-zA-Z][\w'-]*){0,3}?"  # "A travelling circus"
_THING_SUBJECT = re.compile(r"^\s*(" + _A_THING + r")"
                            r"(?:\s+(?:at|in)\s+[^,.;!?]{1,40}?)?\s+"
                            r"(?:is|are|will|was|were|starts|begins|takes place|costs?)\b"
                            r"(?!\s+(?:closed|shut|open|cancelled|canceled)\b)")
#: The same with a verb of its own ("A jazz trio plays at the pub ...", "Food truck visits the
#: park ..."), the article left out in a headline (a noun opening it); what the thing is for
#: ("Study group for the sociology midterm meets ...") is kept apart, to follow its doing. A
#: word ending in "ss" or "us" is no verb's -s ("the yoga class at the park": no "yoga classing").
_THING_DOING = re.compile(r"^\s*(" + _A_THING +
                          r"|(?!(?:Every|Any|Some|No)(?:one|body)\b)[A-Z][a-z'-]+(?:\s+[a-z][\w'-]*){1,3}?)"
                          r"(?P<tail>\s+(?:for|of|about)\s+(?:the\s+|a\s+|an\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)?"
                          r"\s+(?!(?:is|was|has|does|costs)\b)(?P<verb>[a-z]*[a-rtv-z]s)\b(?:\s+(?P<next>[a-z]+))?")
#: The company someone does a thing with, named as theirs before the verb: "Klaus's band is playing
#: at the pub" (Klaus plays, with his band).
_COMPANY = re.compile(r"['’]s\s+(band|choir|team|club|trio|quartet|group|crew|troupe|class)\s+(?=(?:is|are|will|[a-z]+s)\b)",
                      re.I)
#: What an organiser does with an event after "is": "The town council is organising a cleanup"
#: states the cleanup, not the council.
_PUTS_ON = re.compile(r"\s*(?:hosting|holding|organi[sz]ing|running|putting on|throwing|arranging|staging|having)"
                      r"\s+(?:a|an|the)\b",
                      re.I)
#: A time put off to that names no day: "postponed until further notice", "til next week".
_NO_NEW_DAY = r"(?:further\s+notice|later|next\s+(?:week|month)|a\s+later\s+date)\b"
#: An event called off, said of it ("the karaoke night tonight is cancelled, gutted"), to its end;
#: put off to no day said is called off for now ("postponed til next week").
_CALLED_OFF = re.compile(r"(?:\s+(?:(?:has|have)\s+been|(?:is|are|was|were)(?:\s+now)?|got)|['’]s(?:\s+been)?)\s+"
                         r"(?:cancell?e?d|called\s+off|scrapped|off(?=\s*(?:$|[.,;!?]|for\b|now\b))|postponed"
                         rf"(?=\s*(?:$|[.,;!?]|indefinitely|(?:until|till?)\s+{_NO_NEW_DAY})))\b[^.;!?]*", re.I)
#: The same, done by someone: "I've decided to cancel the Valentine's Day party", "Sam called off
#: his talk"; the thing follows.
_CALLING_OFF = re.compile(r"^\s*(?:(?P<who>I|we|(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?)\s+"
                          r"(?:(?:have|has|had|['’]ve)\s+)?(?:(?:decided|had|have|need|needed)\s+to\s+|"
                          r"(?:am|['’]m|is|are|['’]re)\s+going\s+to\s+)?|(?:have|had|need)\s+to\s+)?"  # or none: "Cancelled the party"
                          r"(?:cancell?(?:ed|ing|s)?|call(?:ed|ing|s)?\s+off|scrap(?:ped|ping|s)?)\s+"
                          r"(?=(?:the|my|our|his|her|their|this|tonight's|today's|tomorrow's)\b)", re.I)
#: A place closing, said of it: "will be closed", "is shut", "is closing early", "says it will close".
_SHUT = re.compile(r"(?:\s+(?:is|are|was|were|will be|['’]ll be|['’]re)|['’]s)\s+(?:going to be\s+|being\s+)?"
                   r"(?:closed|shut)\b|\s+(?:(?:is|are|will be)\s+closing|will close|(?:closes|closing)\s+early)\b"
                   r"|\s+(?:(?:is|are|['’]s)\s+(?:shutting|closing)|will\s+(?:shut|close))\s+down\b", re.I)
#: A place open again or an event on again: no closure and no event of its own ("there is open
#: again" was said); its words are kept.
_BACK_ON = re.compile(r"\b(?:(?:is|are|['’]s|['’]re)\s+(?:open\s+again|back\s+(?:on|open))|re-?opens?|re-?opening)\b",
                      re.I)
#: An event moved to another day or time: "the quiz moved from Tuesday to Thursday", "has been
#: postponed until next Friday": what is told is the event where it now is.
_MOVED = re.compile(r"\s+(?:(?:has|have)\s+been\s+|(?:is|are)\s+(?:being\s+)?|was\s+|were\s+|got\s+|['’]s\s+(?:been\s+)?)?"
                    r"(?:moved|moving|postponed|rescheduled|pushed(?:\s+back)?|shifted|delayed|switched|changed)"
                    rf"(?:\s+from\s+[^.;!?]*?)?\s+(?:to|until|till?)\s+(?!{_NO_NEW_DAY})(?=\S)", re.I)
#: What a thing costs, as said: "$5", "£3.50", "10 dollars", "ten bucks" (bucks said as dollars),
#: with "each" or "a head" after it; or free ("it's free", "entry is free", "free entry").
_PRICE = re.compile(r"(?:[$£€]\s?\d+(?:[.,]\d\d)?|\b(?:\d+(?:[.,]\d\d)?|"
                    + "|".join([*HOUR_WORDS, "fifteen", "twenty", "thirty", "forty", "fifty", "a hundred"])
                    + r")\s*(?:dollars?|bucks?|pounds?|quid|euros?)\b)(?:\s+(?:each|a head|per person|a person|a ticket|per ticket|a go|a pound|per pound|"
                    r"a kilo|a dozen|an hour|per hour))?", re.I)
#: What a price said after it is of, when it is not the thing itself: "fruit is", "cookies r".
_ITEM_PRICED = re.compile(r"\b(?!(?:entry|admission|entrance|tickets?|it|fee|cover|price|cost|that|this)\b)[a-z]+"
                          r"\s+(?:is|are|r|cost|costs|at|for)\s+(?:only\s+|just\s+)?$", re.I)
_FREE = re.compile(r"\b(?:(?:it|entry|admission|entrance|tickets?)\s*(?:is|are|['’]s)\s+free|free\s+(?:entry|"
                   r"admission|of charge)|for free)\b", re.I)
#: Words of paid work: a sum said beside them is a wage, not what a thing costs.
_PAY = re.compile(r"\b(?:hiring|hire|job|jobs|wages?|salary|pays?|paid|earn|vacancy|position)\b", re.I)
#: Words of a day or a time, which end an event's phrase ("the concert on Saturday costs $12").
_WHEN_WORDS = {*WEEKDAYS, *PART_STARTS, "today", "tomorrow", "tonight", "am", "pm", "noon"} - {"day"}
#: A state of one's own before what one means to do about it: "I'm worn out and thinking of ...".
_STATE_AND = re.compile(r"^\s*I(?:\s+am|['’]m|\s+feel)(?:\s+feeling)?\s+(?:really\s+|so\s+|very\s+|a\s+bit\s+|quite\s+|too\s+)?"
                        r"(?:tired|exhausted|worn\s+out|sick|unwell|ill|stressed|busy|knackered|wiped\s+out|sleepy|drained|"
                        r"fed\s+up|overwhelmed)\s+and\s+(?:I\s+)?(?:am\s+|are\s+|['’]m\s+)?", re.I)
#: Tickets to a thing, said before it: "Tickets for the Saturday concert at Johnson Park cost $12".
_TICKETS = re.compile(r"^\s*(?:the\s+)?(?:tickets?|entry|admission|entrance)\s+(?:for|to)\s+"
                      r"(?=(?:the|a|an|this|tonight's|today's|tomorrow's|my|our|his|her|their)\s)", re.I)
#: A question's own answer after it, as heard: "Is the hike in Johnson Park at 9am? I heard it was."
_CONFIRMING = re.compile(r"(?<=\?)\s+(?:I\s+(?:heard|think|thought|believe|was told)|someone\s+said|apparently)"
                         r"(?:\s+(?:so|that|it|it's|it\s+(?:was|is|will\s+be)))*\s*[.!]*\s*$", re.I)
#: An opening with no subject, said of oneself: "gonna organise a bake sale ...", "want to start ...".
_NO_SUBJECT = re.compile(r"^\s*(going to|want to|have to|need to|planning to|hoping to|about to)(?=\s+[a-z])", re.I)
#: Others asked along to one's own act: "Wanna come fix the broken bench in the park with me ...?".
_COME_WITH_ME = re.compile(r"^\s*(?:(?:do|would)\s+(?:you|me|anyone|anybody)\s+)?(?:I\s+)?(?:want\s+to|like\s+to)\s+"
                           r"come\s+(?:and\s+|to\s+)?(?P<act>(?!to\b)[a-z][^?!.]*?)\s+with\s+me\b(?P<rest>.*)$", re.I)
#: The same, done by someone: "I've postponed the party until Friday", "Isabella has moved her
#: party to Wednesday", "Sam pushed the quiz back to 9pm"; the thing, then where it goes.
_MOVING = re.compile(r"^\s*(?P<who>I|we|(?-i:[A-Z][\w'-]*)(?: (?-i:[A-Z][\w'-]*))?)\s+"
                     r"(?:(?:have|has|had|['’]ve)\s+)?(?:(?:decided|had|have|need|needed)\s+to\s+|"
                     r"(?:am|['’]m|is|are|['’]re)\s+going\s+to\s+)?"
                     r"(?:move[sd]?|moving|postpone[sd]?|postponing|reschedule[sd]?|rescheduling|push(?:e[sd])?|pushing|"
                     r"shift(?:s|ed)?|delay(?:s|ed)?|bump(?:s|ed)?)\s+"
                     r"(?P<thing>(?:the|my|our|his|her|their|this|tonight's|today's|tomorrow's)\s+[^.;!?]+?)"
                     r"(?:\s+(?:back|forward|out))?(?=\s+(?:to|until|till)\s+\S)", re.I)
#: A written thing that says what a text states: "A sign on the door of the pub says (that) ...".
_NOTICE = re.compile(r"^\s*(?:a|an|the)\s+(?:[\w'-]+\s+)?(?:sign|notice|poster|flyer|leaflet|banner|board|note|"
                     r"newsletter|bulletin|email|e-mail|message|post|ad|advert|advertisement|announcement)\b"
                     r"[^.;!?]{0,60}?\s+(?:says|said|reads|announces|announced|states|claims|mentions)\b"
                     r"(?:\s+that)?\s+", re.I)
#: Acts of coming together whose point follows ("meet at the pub at 8 to watch the game"): the act
#: is its point.
_MEETING = ("meet", "meet up", "get together", "gather")
#: A feeling before what one means to do about it: "feel exhausted and (want to) close the cafe".
_FEELING_AND = re.compile(r"^(?:(?:feel|be)\s+[a-z]+(?:\s+[a-z]+)?|[a-z]+\s+[^,;.!?]{1,60}?)\s+and\s+(?:so\s+)?"
                          r"(?=(?:want|would\s+like|plan|hope|intend|mean)\s+to\b)")
#: Acts that are feelings, which happen at no place and time: "feel like throwing a party tonight".
_FEELINGS = ("feel", "love", "hate", "miss")
#: Someone closing a place: "close the cafe early", "shut up the shop".
_CLOSING = re.compile(r"(?:close|shut)(?:\s+(?:up|down))?\s+(.+?)(?:\s+(?:early|for\s+the\s+(?:day|night)))?")
#: Forms of "be" before a past participle: the passive ("I was invited", "has been offered").
_BE_FORMS = ("is", "are", "was", "were", "be", "been", "being", "am", "get", "got", "gets")
#: A place opening late on a day: closed from the day's start until the time said.
_OPENS_LATE = re.compile(r"\s+(?:will\s+|is\s+going\s+to\s+)?(?:open|opens|opening)\s+late\b", re.I)
#: An act's object that only points back ("hosting it").
_BACK = ("it", "this", "that")
_WORDS = re.compile(r"[A-Za-z][\w'’-]*")


def _subject(text: str, names: Sequence[str], own_name: str | None) -> tuple[str | None, int]:
    """(full name, where its mention ends) of the first person ``text`` names, by full or first
    name; the persona's own name for a first-person text ("I", "I'm", "we"); else (None, 0).
    Someone of one's own who is not of the town ("My cousin is running a stall ..., and I should
    bring friends") is the subject, not the "I" of a later clause: (None, where they are named)."""
    best: tuple[int, int, str] | None = None
    for name in names:
        for form in (name, name.split()[0]):
            m = re.search(rf"\b{re.escape(form)}\b", text)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), m.end(), name)
    kin = _KIN_SUBJECT.match(text)
    if kin and (best is None or best[0] >= kin.end()):  # "My friend Klaus is ..." names its subject
        return None, kin.end()
    first = _FIRST_PERSON.search(text)  # "I'm ...", "Tomorrow from 9am I'm hosting ..."
    if first and (best is None or best[0] > first.start()):
        return own_name, first.end()
    return (best[2], best[1]) if best else (None, 0)


def _act(text: str, after: int) -> str | None:
    """The verb phrase after character ``after``: its first verb as a lemma and the words up to
    the first place, time or clause break ("is planning a party at ..." -> "plan a party")."""
    rest = text[after:]
    head = text[:after].split()
    said = f"I{rest}" if head and _FIRST_PERSON.fullmatch(head[-1]) else rest  # "I still need ...": "need" is its verb
    said = re.sub(r"^I\s+(?:all|both)\b", "I", said)  # "We'll all meet ...": "meet"
    verb = (verb_of(said) if after else None) or verb_of(text)  # "I've set up": the verb after "I've"
    first = next((w.lower() for w in _WORDS.findall(rest) if w.lower() not in _TENSELESS), "") if after else ""
    if verb is None and past_of(first):  # "Klaus quit his job", "Maria set up a stall": a past, after a name
        verb = past_of(first)[0]
    if verb is None:
        return None
    words = list(_WORDS.finditer(rest))
    for i, word in enumerate(words):
        if verb_of(f"I {word.group(0)}") == verb or word.group(0).lower().startswith(verb[:4]):
            tail = rest[word.end():]
            particle = _PARTICLE.match(tail)
            if particle:
                verb, tail = f"{verb} {particle.group(1).lower()}", tail[particle.end():]
            cut = _PHRASE_END.search(tail)
            phrase = (tail[: cut.start()] if cut else tail).strip()
            if cut and _RELATIVE.match(cut.group(0)):  # "to anyone" meant only those the clause names
                phrase = _DANGLING.sub("", phrase)
            said_as = word.group(0).lower()
            before = ([w.lower() for w in rest[: word.start()].split()] or [head[-1].lower()[-3:]]) if head else []
            if before and said_as != verb and said_as in participles(verb) and (
                    before[-1] in _BE_FORMS or before[-1].endswith(("'m", "’m", "'re", "’re"))):
                perfect = before[-1] == "been" and len(before) > 1 and before[-2] in ("have", "has", "had", "'ve", "’ve")
                verb = f"{'have been' if perfect else 'be'} {said_as}"  # "I was invited to ...": passive
            return " ".join([verb, phrase]).strip()
    if verb == "be" and head and _FIRST_PERSON.fullmatch(head[-1]):  # "I'm pregnant": the state after "I'm"
        cut = _PHRASE_END.search(rest)
        state = (rest[:cut.start()] if cut else rest).strip()
        return f"be {state}" if state else verb
    return verb


#: Words between a subject and its verb that leave its tense as it is ("I just adopted ...").
_TENSELESS = frozenset("just already finally recently also actually officially secretly suddenly only really "
                       "totally even never ever".split())
#: A time before now, which makes a verb whose past is its present form past ("I quit my job last week").
_BEFORE_NOW = re.compile(r"\b(?:yesterday|ago|last\s+(?:night|week|weekend|month|year|" + "|".join(WEEKDAYS) + r"))\b",
                         re.I)


#: A day something lasts until, not one it happens on ("Everything is 30% off until Wednesday").
_UNTIL_DAY = re.compile(r"\b(?:until|till|til|through|thru)\s+(?:next\s+|this\s+)?(?:" + "|".join(WEEKDAYS)
                        + r"|tomorrow|tonight|the\s+(?:end|weekend))\b", re.I)
#: A weekday named alone ("on Sunday", not "next Sunday"), which a past tense puts in the week gone.
_LAST_WEEKDAY = re.compile(r"(?<!next )(?<!this )\b(?:on\s+)?(?:" + "|".join(WEEKDAYS) + r")\b", re.I)
#: Guests named to one's own event: "invite only Klaus to a private dinner", "invite Maria Lopez,
#: and only her, to a movie night", "inviting Sam and Jane over for a dinner".
_GUESTS = re.compile(r"\binvit(?:e|es|ing)\s+(?:only\s+|just\s+)?(?P<who>(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*))?"
                     r"(?:\s*,?\s*(?:and|&)\s+(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*))?)*)"
                     r"(?:\s*,?\s*(?:and\s+)?(?:only|just)\s+(?:him|her|them)\s*,?)?\s+(?:over\s+)?(?:to|for)\s+"
                     r"(?P<thing>(?:a|an|the|my|our)\s+[^,.;!?]+?)"
                     r"(?=\s+(?:at|in|on|tomorrow|today|tonight|this|next|from)\b|\s+\d|[,.;!?]|$)", re.I)


def _told_done(said: str, after: int) -> tuple[str, ...]:
    """The verbs (lemmas) of the act after its subject (which ends at character ``after``) when
    it is told as done, else (): its verb in the simple past ("Klaus sold his bike", "I just
    adopted a kitten", "Maria had a baby", "I got promoted"), or a perfect ("has finished", "I've
    finished"). Not a passive or a state ("was invited", "has been offered", "was going to"), not
    "didn't"; a verb whose past is its present form ("put", "quit") only after a third-person
    subject or with a time before now."""
    head = said[:after].split()
    words = [w.lower().replace("’", "'") for w in _WORDS.findall(said[after:])[:8]]
    words = [w for w in words if w not in _TENSELESS]
    perfect = bool(head) and head[-1].lower().replace("’", "'").endswith("'ve")
    if words and words[0] in ("have", "has"):
        perfect, words = True, words[1:]
    if not words:
        return ()
    first = words[0]
    if perfect:
        return () if first == "been" else tuple(v for v in lemmas(first).get("VERB", ()) if first in participles(v))
    if first in ("is", "are", "was", "were", "be", "been", "being", "am", "didn't", "hadn't"):
        return ()
    if first in lemmas(first).get("VERB", ()) and (head and _FIRST_PERSON.fullmatch(head[-1])
                                                    and not _BEFORE_NOW.search(said)):
        return ()  # "I quit my job": the past is the present's form, and nothing says which
    return past_of(first)


def _invited_to(text: str, places: dict[str, str]) -> str | None:
    """The thing an invitation in ``text`` asks one to come to, up to its place or time: "Would
    you like to come to a poetry reading at Hobbs Cafe ...?" -> "a poetry reading", "How about
    coming to auditions for a play ...?" -> "auditions for a play"; never a place ("come to
    Hobbs Cafe")."""
    found = _INVITED_TO.search(text)
    if not found:
        return None
    before = text[: found.start()].split()
    if found.group(0)[:2].lower() == "go" and before and "NOUN" in lemmas(before[-1].lower()) \
            and before[-1].lower() not in ("i", "you", "we", "they", "everyone", "everybody", "people", "all", "folks"):
        return None  # "all proceeds go to the animal shelter": where money goes, no invitation
    np = found.group(1)
    cut = _PHRASE_END.search(np)
    np = (np[: cut.start()] if cut else np).strip()
    bare = re.sub(r"^(?:the)\s+", "", np, flags=re.I).lower()
    return np if len(np.split()) > 1 and np.lower() not in places and bare not in places else None


def _being(act: str) -> str:
    """An event's act done by no one of the town, said as what there is: "run a free bike repair
    stall" -> "be a free bike repair stall" (it is told as "there is ..."), "host trivia" (the pub
    is hosting it) -> "be trivia"; an act whose object is no noun phrase ("decide to ...") stays."""
    verb, _, rest = act.partition(" ")
    rest = re.sub(r"^(?:on|up|together|out|away|off)\s+", "", rest, count=1, flags=re.I)  # "give away free coffee"
    if not rest or re.match(r"(?:to|that|it|this|them|him|her|me|us)\b", rest, re.I):  # no noun phrase
        return act
    return f"be {rest}"


def _timed_clause(text: str, names: Sequence[str], own_name: str | None) -> tuple[str, str]:
    """(the clause of ``text`` that states the event, the full name of the one an earlier clause
    is about, one's own someone it opens with ("My cousin Ana"), or ""): a later clause holding the clock time the first lacks, when it names its
    subject ("Klaus has a birthday on Wednesday; I want to throw him a surprise party in the
    common room at 7pm": the party, for Klaus); else ``text`` itself ("I'm hosting a quiz on
    Wednesday. It starts at 7pm": the quiz)."""
    clauses = _CLAUSE_BREAK.split(text)
    timed = stated_times(clauses[0]) is not None
    if len(clauses) < 2 or (timed  # "The inspector comes at 10am, so I ... at 6pm": mine
                            and _subject(clauses[0], names, own_name)[0] is not None):
        return text, ""
    for i, clause in enumerate(clauses[1:], 1):
        if stated_times(clause) is not None and _subject(clause, names, own_name)[0] is not None:
            earlier = _subject(" ".join(clauses[:i]), names, None)[0]
            kin = _KIN_SUBJECT.match(" ".join(clauses[:i]))  # "My cousin Ana is visiting on Wednesday; we're ..."
            return clause, earlier if earlier not in (None, own_name) else kin.group(0).strip() if kin else ""
    if timed and own_name is not None and all(_aside(c, own_name) for c in clauses[1:]):
        return clauses[0], ""  # "Movie marathon ... tonight at 9 - I'll make popcorn!": the marathon
    return text, ""


def _aside(clause: str, own_name: str) -> bool:
    """Whether ``clause`` is one's own aside to an event told before it: "I'll make popcorn!" (an
    act of one's own with a thing of its own), not "I'm hosting it" nor "Sam hopes everyone comes"."""
    subject, after = _subject(clause, (), own_name)
    act = _act(clause, after) if subject == own_name else None
    return act is not None and " " in act and not _POINTS_BACK.search(clause)


#: Where a text's clauses part: after a sentence, before "so", "but" or "and then", at a dash
#: between words (not "5 - 7pm").
_CLAUSE_BREAK = re.compile(r"(?<=[;.!?])\s+|,\s+(?:so|and so|but|and then)\s+|\s+[-–—]+\s+(?=[A-Za-z])(?!noon|midnight)")
#: A clause pointing back at an earlier one's thing ("Klaus is hosting it", "See you there").
_POINTS_BACK = re.compile(r"\b(?:it|this|that|there|then)\b", re.I)


def _no_verb(opening: str) -> bool:
    """Whether a text's opening words hold no verb: none at all ("Movie marathon"), or only a
    gerund after a noun, naming a thing ("Town hall meeting about the bike lanes")."""
    if verb_of(opening) is None:
        return True
    words = opening.split()
    ing = next((i for i, w in enumerate(words) if w.lower().endswith("ing") and "VERB" in lemmas(w.lower())), None)
    return ing is not None and ing > 0 and "NOUN" in lemmas(words[ing - 1].lower()) \
        and verb_of(" ".join(words[:ing])) is None


def _owned_place(text: str, doer: str | None, own_name: str | None, places: dict[str, str]) -> str | None:
    """The address of a place ``text`` names by its owner's possessive: "at his apartment" (the
    doer's, "Carlos Gomez's apartment"), "in my room" (``own_name``'s); None when there is no
    such place."""
    for m in re.finditer(r"\b(?:at|in|to)\s+(my|his|her|their|our)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", text, re.I):
        owner = own_name if m.group(1).lower() in ("my", "our") else doer
        if owner is None:
            continue
        words = m.group(2).lower().split()
        for n in range(len(words), 0, -1):  # "his apartment tonight": "apartment"
            found = places.get(f"{owner.lower()}'s {' '.join(words[:n])}")
            if found is not None:
                return found
    return None


def _named_thing(text: str, places: dict[str, str]) -> str | None:
    """An event named without a verb, as what there is: "Movie night at the pub, Friday 9pm!" ->
    "be movie night"; None when what opens the text is a place or nothing."""
    cut = _PHRASE_END.search(text)
    named = (text[: cut.start()] if cut else text).strip()
    if not named or named.lower() in places or re.sub(r"^the\s+", "", named, flags=re.I).lower() in places:
        return None
    return f"be {_lowered(named)}"


def _lowered(named: str) -> str:
    """``named`` (a thing opening a sentence) with its first word in lower case when that is a
    common word ("Karaoke night", "A jazz trio"), not a name's ("Valentine's Day party")."""
    first = named.split()[0]
    if (len(first) == 1 or first[1:].islower()) and (lemmas(first) or "'" not in first):
        named = f"{first.lower()}{named[len(first):]}"
    return _counted(named)


def _counted(named: str) -> str:
    """A headline's thing given the article it left out: "movie marathon" -> "a movie marathon",
    "jazz trio" -> "a jazz trio"; not a name, one thing of no number ("karaoke", "live music",
    "free coffee": an adjective opening it) nor things ("food trucks")."""
    words = head_phrase(named).split()  # "town hall meeting about ...": "town hall meeting"
    first, head = words[0], words[-1].lower()
    found = lemmas(first)
    if len(words) < 2 or not first.islower() or re.match(r"(?:a|an|the|some|my|our)$", first) \
            or "ADJ" in found or "ADV" in found or "NOUN" not in lemmas(head) or is_plural(head):
        return named
    return f"{'an' if first[0] in 'aeiou' else 'a'} {named}"


def _is_thing(phrase: str) -> bool:
    """Whether ``phrase`` names a thing there can be ("a storm", "live music", "trivia"), not a
    state ("shut", "closed all day", "busy"): its first word is no past participle (that is no
    noun too), and a single word is a noun or a word the dictionary does not know ("karaoke")."""
    words = phrase.split()
    if not words:
        return False
    first = words[0].lower()
    found = lemmas(first)
    if "NOUN" in found:
        return True
    if any(first != lemma and first in participles(lemma) for lemma in found.get("VERB", ())):
        return False
    return len(words) > 1 or not found


def _called_off(text: str, off: re.Match, created: datetime, places: dict[str, str], names: Sequence[str],
                own_name: str | None) -> Fact | None:
    """The cancellation ``text`` states (``off`` the words calling it off): the thing called off
    (a possessive said as "the": "my party" -> "be the party"), where and when it was to be
    where the text says, and who called it off as its host ("I", a named person); None when no
    thing is named."""
    if off.re is _CALLED_OFF:
        host, rest, thing = None, text[: off.start()] + text[off.end():], text[: off.start()]
    else:
        who = off.group("who") or "I"  # "have to cancel the party": one's own
        host = own_name if who.lower() in ("i", "we") else _subject(who, names, own_name)[0]
        rest = text[off.end():]
        thing = re.split(r"[,;.!?]", rest, maxsplit=1)[0]
    named = _named_thing(_OWNER.sub("the ", thing, count=1), places)
    if named is None:
        return None
    own_words = named[3:]  # "the farmers market": no place of its own words ("market")
    where = re.sub(re.escape(own_words), " ", rest, count=1, flags=re.I)
    event = find_event(rest, created, places, place="", parts=True) if stated_day(rest, created) or stated_times(rest) \
        else None
    place = place_in(where, places)  # the event's own address where one is named outside the thing's words
    return Fact(act=named, place=(event.place if event is not None and event.place else place) if place else None,
                start=event.start if event else None,
                part=event.part if event else None, host=host, cancelled=True)


def _closure(text: str, shut: re.Match, created: datetime, places: dict[str, str]) -> Fact | None:
    """The closure ``text`` states (``shut`` its words): the place named before them, closed
    from its clock time ("closing early at 3pm") or all the day named ("closed all day
    tomorrow"; today when it says the place is closed now), or from now until a day ("closed
    until Friday": until Friday's start); None without a place, or a day for what will be."""
    said = re.split(r"[,;:!?]|\b(?:says|said|reads|announces)\b", text[: shut.start()])[-1]  # "a sign ... says it"
    head = _BESIDE.split(said, maxsplit=1)
    if len(head) > 1 and place_in(head[0], places) is None:
        return None  # "the main road by the park is closed": the road, not the park
    inner = re.split(r"\s+(?:at|in|of)\s+", said, maxsplit=1)[0]  # "the library at Oak Hill College": the library
    place = place_in(inner, places) or place_in(text[: shut.start()], places)
    if place is None:
        return None
    event = find_event(text, created, places, place=place, parts=True) if stated_day(text, created) \
        or stated_times(text) else None
    if event is None and not re.match(r"\s+(?:is|are|['’]s|['’]re)\b", shut.group(0)):
        return None  # "will be closed" of no day said: no closure known
    times = stated_times(text)
    lasting = _UNTIL_DAY.search(text) if not times else None
    until = stated_day(text[lasting.start():], created) if lasting else None
    if until is not None and until > created.date():  # "closed until Friday": from now to Friday's start
        return Fact(act="close", place=place, start=created, end=datetime.combine(until, time()), closed=True)
    return Fact(act="close", place=place, start=event.start if event else datetime.combine(created.date(), PART_STARTS["day"]),
                end=event.end if event and times and times[1] else None,  # an end only as said
                part=event.part if event else "day", closed=True)


#: A place named beside what is closed, not closed itself: "the main road by the park", "the
#: bridge on the road to the college".
_BESIDE = re.compile(r"\s+(?:by|near|behind|beside|next\s+to|outside|on|to|into|towards?|along|across|over|past|"
                     r"through|leading\s+to|between|around)\s+", re.I)
#: Whose a thing called off was, said as "the" ("my party" -> "the party").
_OWNER = re.compile(r"^\s*(?:my|our|his|her|their|this|tonight's|today's|tomorrow's)\s+", re.I)


def read_fact(text: str, created: datetime, places: dict[str, str], names: Sequence[str],
              own_name: str | None = None) -> Fact | None:
    """The fact typed ``text`` states, or None when no act can be read from it.

    Args:
        text: one sentence or a few, as typed.
        created: when it was typed (game time; "tomorrow" counts from it).
        places: lower-case place name -> address (:func:`town.textevent.place_names`).
        names: full names of the town's people.
        own_name: the persona the text is about when it says "I".

    Returns:
        A fact with place, start and end when the text states an event (place, day and clock
        time; the end only when it states one, never one made up); ``invited`` ``("everyone",)`` for an open invitation; ``question`` when it ends
        with "?" and is not about ``own_name`` (who states its own plan, then asks, states it); ``host`` the subject of a stated event;
        ``secret`` when it is told in confidence (:data:`_IN_CONFIDENCE`); ``done`` when its act is
        told as done.
    """
    secret = _IN_CONFIDENCE.search(text) is not None  # before the emoji go: "🤫"
    told = _CONFIDING_CLAUSE.sub("", text).lstrip(" ,;:.!?-") if secret else text  # "..., it's a secret": not stated
    fact = _read_fact(cased_names(spelled_out(told), names), created, places, names, own_name)  # "tmrw", "klaus"
    return replace(fact, secret=True) if fact is not None and secret else fact


def _read_fact(text: str, created: datetime, places: dict[str, str], names: Sequence[str],
               own_name: str | None) -> Fact | None:
    """:func:`read_fact` of a text spelled out."""
    text = _HEADING.sub("", text, count=1)  # "Reminder: X", "Hey, X": what is stated is X
    text = _HEARSAY.sub("", text, count=1)  # "I heard that X": so is this
    text = _SAYING_THAT.sub("", text, count=1)  # "I should remind them that X": so is this
    text = _CONFIRMING.sub("", text)  # "Is the hike at 9am? I heard it was.": the question
    text = _NO_SUBJECT.sub(lambda m: f"I{chr(39) + 'm' if m.group(1).lower().endswith('ing to') else ''} "
                           f"{m.group(1).lower()}", text, count=1) if own_name else text  # "gonna organise ...": one's own
    invite = _COME_WITH_ME.match(text) if own_name else None
    if invite:  # "Wanna come fix the bench with me on the 14th at 3pm?": one's own, others asked along
        text = f"I'm going to {invite.group('act')}{invite.group('rest')}"
    if not text:
        return None
    text = _TICKETS.sub("", text, count=1)  # "Tickets for the concert ... cost $12": the concert costs it
    text = _STATE_AND.sub("I ", text, count=1)  # "I'm worn out and (am) thinking of closing ...": the closing
    text = re.sub(r"^\s*I\s+(?:am\s+)?(?:thinking\s+(?:of|about)|considering)\s+(?=[a-z]+ing\b)", "I'm ", text)
    moving = _MOVING.match(text)
    mover = None
    if moving:  # "I've postponed the party until Friday": the party is moved, by its host
        who = moving.group("who")
        mover = own_name if who.lower() in ("i", "we") else _subject(who, names, own_name)[0]
        text = f"{_OWNER.sub('the ', moving.group('thing'), count=1)} is moved{text[moving.end():]}"
    moved = _MOVED.search(text)
    said = text
    whose = re.match(r"\s*((?-i:[A-Z][\w-]*)(?: (?-i:[A-Z][\w-]*))?)['’]s\s+", text) if moved and not moving else None
    if whose and _subject(whose.group(1), names, own_name)[0]:  # "Maria's study group is moved to ...": hers
        mover = _subject(whose.group(1), names, own_name)[0]
        text = f"The {text[whose.end():]}"
    text = _MOVED.sub(lambda m: " at " if text[m.end():m.end() + 1].isdigit() else " " if re.match(  # the new day
        r"(?:tomorrow|today|tonight|next|this|the day)\b", text[m.end():], re.I) else " on ", text)
    fact = _read(text, created, places, names, own_name)
    if invite and fact is not None and fact.start is not None:  # "... with me?": whoever hears it is asked
        fact = replace(fact, invited=("everyone",))
    price = price_of(text, f"{fact.act} {fact.place or ''}") \
        if fact is not None and (fact.start is not None or fact.place is not None) else None
    if price is not None and fact is not None and not (fact.cancelled or fact.closed or fact.done):  # "ten bucks"
        fact = replace(fact, price=price)
    if fact is not None and fact.start is not None:  # "the Saturday concert ... on Saturday": "the concert"
        fact = replace(fact, act=re.sub(rf"\b(the|a) {fact.start:%A}\s+(?=[a-z])", r"\1 ", fact.act, count=1))
    if moved is not None and (fact is None or fact.start is None and fact.place is None):
        before, after = said[:moved.start()], said[moved.end():]
        thing = _named_thing(_OWNER.sub("the ", before, count=1), places)
        to = place_in(after, places)
        when = find_event(without_unread_hour(after), created, places, place=to or place_in(before, places) or "",
                          parts=True) \
            if stated_day(after, created) or stated_times(after) else None
        if thing and (to or when) and not _subject(before, names, own_name)[0]:  # "the party is moving to Johnson
            return Fact(act=thing, place=when.place or None if when else to, start=when.start if when else None,  # Park,
                        part=when.part if when else None, host=mover, moved=True)  # same time", "... to friday evening"
    if moved is None or fact is None or fact.subject is not None or not fact.act.startswith("be "):
        return fact  # "Klaus is moving to Berlin": his act, no event moved
    if fact.start is None:  # "the party is moved to Wednesday at 6pm": its place is the one it had
        event = find_event(without_unread_hour(text), created, places, place="", parts=True)  # "weds at 6": Wednesday
        times = stated_times(text)
        if event is not None:
            fact = replace(fact, start=event.start, part=event.part, end=event.end if times and times[1] else None)
    if fact.start is None and fact.place is None:
        return fact
    return replace(fact, host=mover or fact.host, moved=True, question=False)


def price_of(text: str, thing: str = "") -> str | None:
    """What ``text`` says a thing costs, as said ("$5", "$5 a head", "ten dollars"; "bucks" said
    as dollars, "quid" as pounds), "free" when it says so, else None. The price of something
    sold at it is none of its own ("fruit is $1 a pound", "cookies are $2 each": the sale is
    not $1), unless that something is a word of ``thing`` (the fact's act and place: "the
    concert at Johnson Park costs $12")."""
    own = {w.lower() for w in _WORDS.findall(thing.replace(":", " "))} | _WHEN_WORDS
    if _PAY.search(text):  # "hiring ..., $15 an hour": a wage, no cost
        return None
    found = next((m for m in _PRICE.finditer(text) if not (item := _ITEM_PRICED.search(text[:m.start()]))
                  or item.group(0).split()[0].lower() in own), None)
    if found is not None:
        said = re.sub(r"\bbucks?\b", "dollars", re.sub(r"\bquid\b", "pounds", found.group(0), flags=re.I), flags=re.I)
        return re.sub(r"\bone dollars\b", "one dollar", re.sub(r"\s+", " ", said))
    return "free" if _FREE.search(text) else None


def _read(text: str, created: datetime, places: dict[str, str], names: Sequence[str],
          own_name: str | None) -> Fact | None:
    """:func:`read_fact` of a text whose heading, hearsay and move words are gone."""
    off = _CALLED_OFF.search(text) or _CALLING_OFF.search(text)
    if off is not None:  # "the karaoke night at the pub tonight is cancelled", "I've cancelled the party"
        return _called_off(text, off, created, places, names, own_name)
    if _BACK_ON.search(text):  # "Hobbs Cafe is open again from tomorrow", "the party is back on"
        return None
    late = _OPENS_LATE.search(text)
    place = place_in(text[: late.start()], places) if late else None
    times = stated_times(text[late.end():]) if late else None
    day = stated_day(text, created) if late else None
    if place is not None and times is not None and day is not None:  # "the library will open late tomorrow, at 11"
        return Fact(act="close", place=place, start=datetime.combine(day, time()),
                    end=datetime.combine(day, times[0]), closed=True)
    shut = _SHUT.search(text)
    if shut is not None:  # "closed every Sunday": its hours, no closure and no event
        return None if re.search(r"\bevery\b", text, re.I) else _closure(text, shut, created, places)
    said, before = _timed_clause(text, names, own_name)
    notice = _NOTICE.match(said)
    if notice:  # "A sign at the pub says there's a quiz at 8pm": the quiz (its place read from the whole)
        said = said[notice.end():]
        if re.match(r"(?:it|they|this|that|he|she)\b", said, re.I):  # "... says it will close": of the place, no event
            return None
    subject, after = _subject(said, names, own_name)
    act = _act(said, after)
    done = _told_done(said, after) if subject is not None else ()
    company = _COMPANY.match(said, after) if subject is not None and act else None
    if company:  # "Klaus's band is playing at the pub": Klaus is playing, with his band
        act = f"{act} with one's {company.group(1).lower()}"
    if act and before:  # "Klaus has a birthday on Wednesday; I want to throw him ...": him is Klaus
        mine = before[:1].lower() + before[1:] if before.lower().startswith(("my ", "our ")) else ""  # "my cousin Ana"
        act = re.sub(r"\b(?:him|her|them)\b", mine or before, act, count=1)
        if mine and mine not in act and re.match(r"\s*we\b", said, re.I):  # "we're having lunch": with them
            act = f"{act} with {mine}"
    thing = _invited_to(said, places)
    if thing is None and act and act.split()[-1].lower() in _BACK and said == text:  # "Movie night at the pub,
        named = _named_thing(_CLAUSE_BREAK.split(text, 1)[0], places)  # Friday 9pm! Klaus is hosting it."
        thing = named[3:] if named else None
    host = subject
    if thing and act and act.split()[-1].lower() in _BACK:  # "Ayesha is hosting it" -> "host a poetry reading"
        act = f"{act.rsplit(' ', 1)[0]} {thing}"
    elif thing and (subject is None or act is None or thing.split()[-1].lower() not in act.lower()):
        # "Would you like to come to a quiz ...?", "There will be a breakfast ..., hosted by Sam
        # Moore", "Can you make it to ...? Sam hopes everyone comes": there is the thing, and the
        # one named beside it is its host
        act, subject = f"be {thing}", None
    times = stated_times(text)
    timed = times is not None or stated_day(text, created) is not None and not unread_hour(text)  # or a day alone
    headline = _no_verb(_PHRASE_END.split(said, 1)[0]) and (  # a day alone: no verb in the clause at all
        times is not None or _no_verb(re.split(r"[,;.!?]", said, maxsplit=1)[0]))  # ("The oven at Hobbs Cafe broke")
    if timed and subject is None and (not act or thing is None and headline):
        act = _named_thing(said, places) or act  # "Movie night at the pub, Friday 9pm!": the thing alone
    if not act:
        return None
    purpose = re.search(r"\bto\s+([a-z]+(?:\s+[^\s,.;!?]+){0,4})", said[after:]) if act in _MEETING else None
    if purpose and is_verb(purpose.group(1).split()[0]):  # "Let's all meet at the pub ... to watch the game"
        act = _act(f"I {purpose.group(1)}", 1) or act
    asked_to = re.match(r"invite (?:everyone|everybody|all|people|the town|us|you) to ((?:a|an|the|one's|my|our|his|her|their) .+)", act)
    if asked_to and subject is not None:  # "Sam invites everyone to a campaign barbecue": his barbecue
        act = f"host {asked_to.group(1)}"
    asking = _GUESTS.search(said) if subject is not None and timed else None
    guests = tuple(_subject(who, names, own_name)[0] or "" for who in re.split(r"\s*(?:,|\band\b|&)\s*",
                                                                             asking["who"]) if who) if asking else ()
    if guests and all(g not in ("", subject) for g in guests):  # "invite only Klaus to a private dinner": his alone
        act = f"host {asking['thing']}" if asking else act
    else:
        guests = ()
    if timed and _MEANS_TO.match(act):  # "want to start a book club" at a time: the event is starting it
        act = _MEANS_TO.sub("", act, count=1)
    feeling = _FEELING_AND.match(act) if timed else None
    if feeling:  # "feel exhausted and want to close the cafe early tonight": the closing
        act = _MEANS_TO.sub("", act[feeling.end():], count=1)
    if act.split()[0] in _FEELINGS:  # "feel like throwing a party tonight": a feeling, no event
        timed = False
    going = re.match(r"go to ([a-z]+)\b", act) if timed else None
    if going and is_verb(going.group(1)) and going.group(1) not in ("bed", "church", "school", "class", "town"):
        act = act[len("go to "):]  # "I'm going to organise a bake sale ...": organising it
    wanted = _HELP_WANTED.match(act) if timed else None
    if wanted:  # "need volunteers to help deep-clean the kitchen" at a time: the deep-clean, open to all
        act = act[wanted.end():]
    kin = _KIN_SUBJECT.match(said) if subject is None and own_name is not None else None
    done_to = re.fullmatch(r"(\w+) (?:me|us)", act)
    if kin and done_to:  # "My thesis advisor wants to meet me ...": I am meeting with them
        subject = host = own_name
        act = f"{done_to.group(1)} with {kin.group(0).strip()}"
    found = _THING_SUBJECT.match(said) if subject is None and timed and not after else None
    doing = _THING_DOING.match(said) if subject is None and timed and not after and not found else None
    if doing and (not is_verb(doing["verb"]) or said[:doing.start("verb")].split()[-1].lower() in DETERMINERS
                  or not re.match(r"(?:a|an|the)\s", doing.group(1), re.I)
                  and "NOUN" not in lemmas(doing.group(1).split()[0].lower())  # not "Everyone comes"
                  or set(lemmas(doing["next"] or "")) == {"VERB"}):  # "The food trucks arrive": "trucks" no verb
        doing = None
    opening = found or doing
    named = opening.group(1) if opening else ""
    if found and _PUTS_ON.match(said, found.end()):  # "The town council is organising a cleanup": the cleanup
        named = ""
    if named and re.sub(r"^the\s+", "", named, flags=re.I).lower() not in places and named.lower() not in places:
        # "A travelling circus is setting up ...", "A jazz trio plays ...": not "The pub is ..."
        doing_act = (_act(said, doing.start("verb")) or base_form(doing["verb"])) if doing else ""
        going = (re.match(r"\s+([a-z]+ing)\b", said[found.end():])
                 if found and named[:4].lower() == "the " and found.group(0).endswith(("is", "are")) else None)
        went = (_act(said, found.end() + going.start(1)) or base_form(going.group(1))) if found and going else ""
        if going and is_verb(going.group(1)) and not re.search(r"\b(?:to|at|in|on|from|for)$", went):
            doing_act = went  # "The art club is meeting ...": the art club meeting; "is moving to Saturday" is no doing
        tail = doing["tail"] or "" if doing else ""  # "Study group for the sociology midterm meets ..."
        act = f"be {_lowered(named)}{' ' + gerund(doing_act) if doing_act else ''}{tail}"  # "a jazz trio playing"
    if subject is None and timed and act.split()[0] != "be":
        act = _being(act)
    if subject is None and timed and act.split()[0] != "be" and all(  # "Food trucks at the park ...": nouns,
            "NOUN" in lemmas(w.lower()) for w in _WORDS.findall(_PHRASE_END.split(said, 1)[0])):  # no verb after all
        act = _named_thing(said, places) or act
    if times is not None:  # "The book club meets every Tuesday at 7pm": the next one, at its time
        act = re.sub(r"\s+every\b.*$", "", act)
    if subject is None and own_name is not None and re.match(r"be (?:my|our) ", act, re.I):
        subject = host = own_name  # "Come to my birthday drinks at the pub ...": one's own, had by oneself
        act = f"have {act[3:]}"
    if subject is None and (act.split()[0] != "be" or not _is_thing(act.partition(" ")[2])):
        return None  # "The oven at Hobbs Cafe broke", "The pub is shut": no one's act and no thing there is
    if own_name is not None and host == own_name:
        act = neutral_act(act)
    if own_name is not None and subject not in (None, own_name):  # "Klaus owes me $20": owes the teller
        act = re.sub(r"(?<=\s)(?:me|us)\b", own_name, act)
    dated = said if said != text and stated_day(said, created) is not None else text  # the clause's own day first
    owned = _owned_place(text, subject or host, own_name, places)  # "at his apartment": Carlos Gomez's apartment
    whole = find_event(text, created, places, place=owned, parts=True) if timed else None
    event = find_event(dated, created, places, place=whole.place if whole else None, parts=True) or whole if timed else None
    ranged = times is not None and times[1] is not None  # no end is made up for "at 7pm"
    if event is not None:  # "giving a talk there on Monday": the place is said apart
        act = re.sub(r"\s+there$", "", act)
    closing = _CLOSING.fullmatch(act) if subject is not None and event is not None else None
    closed_place = place_in(closing.group(1), places) if closing else None
    if event is not None and closed_place is not None:  # "I'm closing the cafe early tonight": a closure, no event
        return Fact(act="close", place=closed_place, start=event.start, end=event.end if ranged else None, part=event.part,
                    host=subject, closed=True)
    at = event if event is not None and not (times is None and _UNTIL_DAY.search(text)) else None  # "30% off until
    past = subject is not None and bool(act.split()) and act.split()[0] in done
    if at is not None and past and at.start.date() > created.date() and _LAST_WEEKDAY.search(text) \
            and simple_past(act.split()[0]) != act.split()[0]:  # "set up a stall on Friday": to come, as it may be
        at = event = replace(at, start=at.start - timedelta(days=7), end=at.end - timedelta(days=7))  # "got married
        # on Sunday", told on Monday: the Sunday before
    return Fact(subject=subject, act=act, place=event.place if event else None,  # Wednesday": on till then, no event
                start=at.start if at else None, end=at.end if at and ranged else None,
                host=host if at else None, invited=guests or (("everyone",) if _OPEN.search(text) or wanted else ()),
                question=text.endswith("?") and (host is None or host != own_name), part=at.part if at else None,
                done=past  # "decided to throw a party": no party thrown
                and (event is None or event.start.date() <= created.date()))  # "... on Friday": to come


#: What a situation's words say it touches, and whether it is good news for the one in it (True),
#: bad (False) or either (None): the one word list a hypothetical is read with.
SITUATION_WORDS: dict[str, tuple[str | None, bool | None]] = {
    "lottery": ("money", True), "won": ("money", True), "win": ("money", True), "inherited": ("money", True),
    "inherit": ("money", True), "rich": ("money", True), "million": ("money", True), "money": ("money", None),
    "broke": ("money", False), "power": ("power", False), "electricity": ("power", False),
    "blackout": ("power", False), "outage": ("power", False), "rain": ("weather", False),
    "rained": ("weather", False), "storm": ("weather", False), "snow": ("weather", False),
    "snowed": ("weather", False), "flood": ("weather", False), "sunny": ("weather", True),
    "sick": ("health", False), "ill": ("health", False), "hurt": ("health", False), "injured": ("health", False),
    "holiday": ("time", True), "vacation": ("time", True), "free": ("time", True), "spare": ("time", True),
    "job": ("work", None), "fired": ("work", False), "lost": (None, False), "cancelled": (None, False),
    "canceled": (None, False), "burned": ("place", False), "burnt": ("place", False), "burn": ("place", False),
    "fire": ("place", False), "destroyed": ("place", False), "collapsed": ("place", False),
    "shut": ("place", False), "closed": ("place", False), "demolished": ("place", False),
}
#: What ends a bad situation, by what it touches ("I'd put it off until the power came back").
UNTIL = {"power": "the power came back", "weather": "the weather cleared", "health": "I felt better",
         "money": "things were sorted out", "work": "things were sorted out"}


@dataclass(frozen=True)
class Situation:
    """What a hypothetical's situation touches, read from its words (:func:`read_situation`).

    Attributes:
        affects: what it touches, keys of :data:`SITUATION_WORDS`'s values ("money", "power",
            "weather", "health", "time", "work", "place": a place lost or shut), in the order
            the question names them.
        good: good news for the one in it (True), bad (False), or not said (None).
        place: the name of a place it names ("Hobbs Cafe"), or None.
        person: the full name of a person it names, or None.
    """

    affects: tuple[str, ...] = ()
    good: bool | None = None
    place: str | None = None
    person: str | None = None


def read_situation(text: str, places: Sequence[str], names: Sequence[str], own_name: str | None = None) -> Situation:
    """The situation ``text`` ("What would you do if the power went out?") describes: what it
    touches and whether it is good news, by :data:`SITUATION_WORDS`; the first of ``places``
    (place names) and of ``names`` (full names, by full or first name; ``own_name`` left out) it
    names."""
    affects: list[str] = []
    good: bool | None = None
    for word in _WORDS.findall(text.lower()):
        affect, sign = SITUATION_WORDS.get(word, (None, None))
        if affect is not None and affect not in affects:
            affects.append(affect)
        if good is None and sign is not None:
            good = sign
    place = next((p for p in places if re.search(rf"\b{re.escape(p)}\b", text, re.I)), None)
    person = next((n for n in names if n != own_name and (
        re.search(rf"\b{re.escape(n)}\b", text) or re.search(rf"\b{re.escape(n.split()[0])}\b", text))), None)
    return Situation(affects=tuple(affects), good=good, place=place, person=person)
