"""Checks that a model's answer makes sense, not only that it parses (shared by several questions).

Answers a small model wrote passed the schema and the form checks and still said nothing of their
own: a conversation line or a plan step that was a memory copied word for word, a step or a plan
block with its address, its clock time or "10 min" written into its description. Stored, such
text becomes an observation that the next prompts read again. These checks reject it, so the
question is asked again or falls back to the scripted answer; each is an answer check
(:mod:`.checks`) that names itself in its rejection, so ``town stats`` counts what each rejects.

The checks only one question needs live in its own module: a day plan's date, place and routine
(:mod:`.plan_day`), a procedure's name (:mod:`.generalise_procedure`), a summary's end
(:mod:`.summarise_conversation`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from ...inflection import is_verb
from ...textevent import stated_times
from .checks import QUOTED, InvalidAnswer, free_texts, word_runs

__all__ = ["COPY_WORDS", "SUMMARY_COPY_WORDS", "DESCRIPTION_PATTERN", "LINE_PATTERN", "SENTENCE_PATTERN", "ANSWER_PATTERN", "REASON_PATTERN",
           "SUMMARY_PATTERN", "not_copied", "plain_descriptions"]

#: Consecutive words an answer may share with a line of its prompt; this many is a copy.
COPY_WORDS = 8
#: The same for a conversation's summary, which names what was talked about, often in the words
#: a line said it in: SmolLM2's "I talked with Maria about the effects of gentrification on
#: low-income communities" (8 words of Klaus's line) is a summary; "A research paper on the effects
#: of gentrification on low-income communities" (11) is the line.
SUMMARY_COPY_WORDS = 10

#: An address written as text: words joined by ":" ("the_ville:Hobbs Cafe", "cafe:counter").
_ADDRESS = re.compile(r"[^\W\d]:[^\W\d]")
#: An address as the prompt shows it: a world's name and two or more parts after it, ":"-joined.
_SHOWN_ADDRESS = re.compile(r"\b\w+(?::[^:\n,()]+){2,}")


def _rejoined_address(text: str, prompt: str) -> bool:
    """Whether ``text`` writes two consecutive parts of an address the prompt shows joined by a
    mark instead of ":" ("The Willows Market and Pharmacy,aisles,grocery shelf", as SmolLM2 wrote
    a plan block); joined by words ("the shelf of the aisles") it is a description."""
    flat = text.replace("_", " ").lower()
    for shown in _SHOWN_ADDRESS.findall(prompt):
        parts = [part.strip().replace("_", " ").lower() for part in shown.split(":")[1:]]
        for a, b in zip(parts, parts[1:]):
            if a and b and re.search(rf"{re.escape(a)}\s*[,/|>-]\s*{re.escape(b)}", flat):
                return True
    return False


#: A length of time: "10 min", "30-minute", "2 hours", "an hour", "half an hour".
_DURATION = re.compile(r"\b\d+\s*-?\s*(?:min|mins|minutes?|h|hrs?|hours?)\b|\b(?:an?|one|half an?)\s+hours?\b",
                       re.I)


def _shown(question: Any, answer: BaseModel, n: int = COPY_WORDS) -> set[tuple[str, ...]]:
    """The runs of ``n`` words an answer may not copy: those of the memories the question showed
    (``memories``, ``recalled``; not those whose news the answer passes on: a line's ``shared``
    ids, only those: SmolLM2 copied one memory citing another) and of the conversation's lines (``history``), less those of what the answer may name:
    the task it is about, the persona's own routine and the titles of a task just finished that
    it names (``task``, ``habit``, ``routine``, ``finished``)."""
    told = set(getattr(answer, "shared", None) or ())  # passed on as news: its words may be used
    memories = [m for m in (*getattr(question, "memories", ()), *getattr(question, "recalled", ()))
                if m.id not in told]
    shown = [m.content for m in memories] + [line for _, line in getattr(question, "history", ())]
    habit = getattr(question, "habit", None)
    finished = getattr(question, "finished", None)
    own = [getattr(question, "task", "")] + [b.description for b in (*getattr(question, "routine", ()),
                                                                      *([habit] if habit else []))]
    own += list(finished.choices()) if finished is not None else []
    return {run for text in shown for run in word_runs(text, n)} - {run for text in own for run in word_runs(text, n)}


def not_copied(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No text of the answer repeats :data:`COPY_WORDS` consecutive words of a memory or a line
    of the conversation the question showed.

    A line of talk, a plan step or a summary that is a memory copied out ("Isabella Rodriguez is
    planning a Valentine's Day party at Hobbs Cafe ...") is rejected, however it was cut. What
    the question asks for is not a copy: news a line passes on (it cites the memories in
    ``shared``) may be told in the memories' words, a step may name its task, a goodbye the
    persona's own routine. A reason to talk or a conversation's summary runs it too (SmolLM2 gave
    its memory "I am writing a research paper on the effects of gentrification on low-income
    communities" as its reason, and a line of the talk as its summary; a summary may quote a line
    in quotation marks, as said, and name its topic in a line's words: :data:`SUMMARY_COPY_WORDS`
    is its copy); an interview, which asks
    for what the persona remembers, does not; the prompt's instructions are
    :func:`.checks.own_words`'.

    Raises:
        InvalidAnswer: naming the field, its text and the words it copies.
    """
    for where, key, text in free_texts(answer.model_dump(mode="json")):
        n = SUMMARY_COPY_WORDS if key == "summary" else COPY_WORDS
        shown = _shown(question, answer, n)
        said = QUOTED.sub(" ", text) if key == "summary" else text  # a summary may quote what was said
        copied = next((run for run in word_runs(said, n) if run in shown), None)
        if copied is not None:
            raise InvalidAnswer(f"{where}: {text[:60]!r} copies {n} words of what it was shown "
                                f"({' '.join(copied)!r})")
    return answer


#: What a description may hold in a request's schema: a few words, without digits or ``:``, so a
#: grammar-bound model writes no address, clock time or duration into it (SmolLM2 wrote "go to
#: the_ville:The Willows Market and Pharmacy:aisles:grocery shelf" as a step and "Hobbs Cafe opens
#: at 8am" as a plan block, which :func:`plain_descriptions` then rejected), and too short to hold
#: a memory's sentence. :func:`plain_descriptions` stays for servers that ignore the schema.
DESCRIPTION_PATTERN = "^[A-Za-z(),' -]{1,60}$"

#: What a conversation line may hold in a request's schema: words opening with a capital letter
#: and ending as a sentence ends, without ":" or quotes, one or two sentences (at most 320
#: characters). SmolLM2 answered lines that were only a timestamp ("2023-02-13 14:57:56.879"),
#: JSON debris ("');") or a persona's traits cut mid-list ("20. Traits: energetic, enthusiastic,");
#: under this a grammar-bound model writes none of them. The line's checks stay for servers that
#: ignore the schema.
LINE_PATTERN = "^[A-Z][A-Za-z0-9 ,.!?'()-]{1,318}[.!?]$"
#: A line of a conversation written whole: one sentence (no ".", "!" or "?" inside), at most 160
#: characters, so a whole exchange with what each side keeps fits the 400-token output budget
#: (SmolLM2's exchanges of two-sentence lines were cut there into broken JSON).
SENTENCE_PATTERN = "^[A-Z][A-Za-z0-9 ,'()-]{1,158}[.!?]$"
#: An interview answer: whole sentences of words told as I ("I", "I'm" first), at least ten
#: characters, at most 3 x 160 (SmolLM2 answered "Lisa", "She is a social media influencer ..."
#: and "You are Isabella Rodriguez, a local baker ...").
ANSWER_PATTERN = "^I[A-Za-z0-9 ,.!?'()-]{8,478}[.!?]$"
#: A reason to talk or not: what the persona wants, in a few words ("I want ..."), ended by ".", at
#: most 81 characters (SmolLM2's reasons ran on into a memory copied out, most of them about the
#: other: "Maria Lopez is a fellow student in the dorm who streams games"; bounded at 60 without an
#: end, one was cut there: "... a paper on your research so"; opening only "I", 3 of 16 were a
#: memory of its own copied out, "I am writing a research paper on the effects of gentrification").
REASON_PATTERN = "^I want [A-Za-z ,']{2,72}[.]$"
#: A conversation's summary in a request's schema: one sentence told as I, ended by ".", "!" or
#: "?" (none inside it), at most 2 x 160 characters, so a grammar-bound model ends it itself
#: instead of being cut at its bound ("... still available at Hobbs Cafe after 08:00", which
#: ``whole_sentence`` rejected) and speaks as the persona, not to the other ("You and Klaus ...").
SUMMARY_PATTERN = "^I [A-Za-z0-9 ,'()-]{8,316}[.!?]$"


#: A description that speaks to someone ("you need to pick up ingredients", "You are at the
#: University of Oxford in your dorm room", "You're celebrating a birthday"): what the persona
#: does is said of it, not told to a reader.
_ADDRESSED = re.compile(r"^\W*(?:then\s+|now\s+)?you\s*(?:need|should|must|have to|can|will|could|may|might|'ll|"
                        r"(?:are|'re)\s+(?:a|an|the|at|in|on|\w+ing))\b", re.I)
#: A description told by the persona ("I work at the village's grocery store", "I'm working on a
#: new project", "Myself and the other one has a crush on ..."): what is done is said without a teller.
_TOLD = re.compile(r"^\W*(?:I|I'm|I’m|I've|I’ve|we|we're|myself|me)\s", re.I)
#: A description that states what is, not what is done: it opens with no verb and goes on to "is",
#: "are", "has" or "have" ("The library is a nice place to think about science", "The Smiths have
#: a big dining table in the library", "Today is  a day I've been trying to remember", SmolLM2's
#: plan blocks for Maria's afternoon); "have lunch with Klaus" opens with its verb, and "Valentine's
#: Day party at Hobbs Cafe" states nothing.
#: Who a description opening with a pronoun speaks to or of is judged by :data:`_ADDRESSED` and
#: :data:`_TOLD` ("You are welcome, says the clerk" is a phrase said).
_PRONOUNS = frozenset("i you he she it we they".split())
_STATED = re.compile(r"\b(?:is|are|was|were|has|have|had)\b", re.I)


def _states(text: str) -> bool:
    """Whether a description states what is (:data:`_STATED`) instead of saying what is done."""
    first = re.match(r"([A-Za-z']+)", text.strip())  # a text opening with a mark is another check's
    return (first is not None and first.group(1).lower() not in _PRONOUNS and not is_verb(first.group(1).lower())
            and bool(_STATED.search(text)))


def plain_descriptions(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """A description says what is done, in words: no clock time, address or duration in it, it
    speaks to no one ("you need to ..."), is told by no one ("I work at ...") and states nothing
    ("The library is a nice place ...", :func:`_states`).

    The answer's own fields hold those (a block's start and minutes, a step's object and
    minutes); written into the description ("Have lunch at the_ville:Hobbs Cafe:cafe:corner
    table", "12:00 Have lunch", "wipe the counter 10 min", an address shown in the prompt with
    its parts joined by commas) they are read as what the persona does.

    Raises:
        InvalidAnswer: naming the field, its text and what it holds.
    """
    for where, key, text in free_texts(answer.model_dump(mode="json")):
        if key != "description":
            continue
        held = ("a clock time" if stated_times(text) is not None
                else "an address" if _ADDRESS.search(text) or _rejoined_address(text, prompt)
                else "a duration" if _DURATION.search(text)
                else "someone addressed" if _ADDRESSED.search(text)
                else "a teller (I ...)" if _TOLD.search(text)
                else "a statement of what is" if _states(text) else None)
        if held is not None:
            raise InvalidAnswer(f"{where}: {text[:60]!r} holds {held}; say only what is done")
    return answer
