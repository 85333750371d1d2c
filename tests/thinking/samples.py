"""One hand-built question of every type, with the options each offers (for schema tests)."""

from __future__ import annotations

import jsonschema

from town.thinking.questions import (
    AnswerInterview,
    ChoosePlace,
    DecideToTalk,
    DecomposeTask,
    FocalPoints,
    HearLine,
    GeneraliseProcedure,
    Insights,
    MemoryView,
    NextAction,
    NextLine,
    PlanDay,
    PlanItemView,
    RateImportance,
    RateImportances,
    Side,
    SummariseConversation,
    WriteConversation,
)

WHO = {"persona": "klaus_mueller", "persona_name": "Klaus Mueller",
       "persona_summary": "Klaus is a sociology student who studies gentrification."}

MEMORIES = (
    MemoryView(id=3, content="Isabella is planning a Valentine's party at Hobbs Cafe.", kind="chat",
               importance=6, created="2023-02-13 07:00:00"),
    MemoryView(id=7, content="Maria Lopez is studying at the library.", kind="observation",
               importance=2, created="2023-02-13 07:05:00"),
)

CAFE = "the_ville:Hobbs Cafe:cafe"
OBJECTS = (f"{CAFE}:counter", f"{CAFE}:cafe customer seating")
HOME = "the_ville:Klaus Mueller's apartment:main room"
LIBRARY = "the_ville:Oak Hill College:library"

ROUTINE = (
    PlanItemView(start="00:00", end="07:00", description="sleeping", place=f"{HOME}:bed"),
    PlanItemView(start="07:00", end="24:00", description="reading about gentrification",
                 place=f"{LIBRARY}:library table"),
)

#: question -> {dotted path in the answer: the values its schema must allow (worked out by hand)}
SAMPLES = [
    (RateImportance(**WHO, content="Klaus Mueller is brushing his teeth.", kind="observation"),
     {"importance": list(range(1, 11))}),
    (PlanDay(**WHO, date="2023-02-13", routine=ROUTINE, memories=MEMORIES, places=(CAFE,)),
     {"add[].place": [f"{HOME}:bed", f"{LIBRARY}:library table", CAFE], "drop[]": [1, 2]}),
    (PlanDay(**WHO, date="2023-02-13", routine=ROUTINE, memories=MEMORIES, places=(CAFE,),
             first=DecomposeTask(**WHO, task="reading about gentrification", place=f"{LIBRARY}:library table",
                                 start="07:00", minutes=25, objects=(f"{LIBRARY}:library table",))),
     {"add[].place": [f"{HOME}:bed", f"{LIBRARY}:library table", CAFE], "drop[]": [1, 2],
      "steps[].object": [f"{LIBRARY}:library table"], "steps[].minutes": [5, 10, 15, 20]}),
    (RateImportances(**WHO, items=(("observation", "Klaus is reading."), ("chat", "A party on Friday."))),
     {"ratings[]": list(range(1, 11))}),
    (DecomposeTask(**WHO, task="have coffee", place=CAFE, start="08:00", minutes=30,
                   objects=OBJECTS, memories=MEMORIES),
     {"steps[].object": list(OBJECTS), "steps[].minutes": [5, 10, 15, 20, 30]}),
    (ChoosePlace(**WHO, task="have coffee", usual_place=CAFE, reason="it is closed",
                 candidates=(LIBRARY, HOME)),
     {"place": [LIBRARY, HOME]}),
    (NextAction(**WHO, now="2023-02-13 08:00", habit=ROUTINE[1], seen=("Maria Lopez is studying",),
                objects=OBJECTS, max_minutes=30, memories=MEMORIES),
     {"object": list(OBJECTS), "minutes": [5, 10, 15, 20, 30]}),
    (DecideToTalk(**WHO, other="maria_lopez", other_name="Maria Lopez", other_action="studying",
                  own_action="reading", memories=MEMORIES), {}),
    (NextLine(**WHO, listener="maria_lopez", listener_name="Maria Lopez",
              history=(("Maria Lopez", "Hi Klaus!"),), memories=MEMORIES, told=(7,)),
     {"shared[]": [3]}),
    (SummariseConversation(**WHO, other_name="Maria Lopez",
                           history=(("Maria Lopez", "Hi Klaus!"), ("Klaus Mueller", "Hello."))), {}),
    (WriteConversation(**WHO, me=Side(id="klaus_mueller", name="Klaus Mueller", memories=MEMORIES),
                       other=Side(id="maria_lopez", name="Maria Lopez"), now="2023-02-13 08:00:00",
                       names=("Klaus Mueller", "Maria Lopez"), places=("Hobbs Cafe",)),
     {"kept[].hearer": ["Klaus Mueller", "Maria Lopez"],
      "kept[].importance": list(range(1, 11)), "kept[].place": ["", "Hobbs Cafe"]}),
    (FocalPoints(**WHO, memories=MEMORIES), {}),
    (Insights(**WHO, focal_point="What is Klaus working on?", memories=MEMORIES),
     {"insights[].evidence[]": [3, 7]}),
    (AnswerInterview(**WHO, question="Do you know about a party?", memories=MEMORIES), {}),
    (GeneraliseProcedure(**WHO, task="have coffee", place=CAFE,
                         steps=({"description": "order coffee", "object": OBJECTS[0], "minutes": 5},),
                         parameters=(("place", CAFE),)),
     {"name": ["have coffee", "order coffee"], "when": ["have coffee", "order coffee"]}),
    (HearLine(**WHO, speaker_name="Maria Lopez", line="Isabella holds a party at Hobbs Cafe at 5pm.",
              content="Maria Lopez told me that Isabella holds a party at Hobbs Cafe at 5pm.",
              now="2023-02-13 08:00:00", names=("Isabella Rodriguez", "Maria Lopez"), places=("Hobbs Cafe",)),
     {"importance": list(range(1, 11)), "subject": ["", "Isabella Rodriguez", "Maria Lopez"],
      "place": ["", "Hobbs Cafe"]}),
]


def fits(schema: dict, value) -> bool:
    """Whether ``value`` fits ``schema`` (jsonschema's reading: what a grammar-bound server can write)."""
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError:
        return False
    return True
