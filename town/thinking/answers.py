"""The shapes of the backends' answers, by name: pydantic models a model's JSON is validated against.

Each answer model lives with its question (``town/thinking/questions/<template>.py``), which
names it as ``answer_model``; this module gathers them for the code that builds answers (the
scripted rules) or reads them. A language model's reply is parsed into the model
(:mod:`town.thinking.validate`), and the scripted backend builds it directly. Field limits
(lengths, ranges) are the schema a constrained request sends (``Question.answer_schema``).

Answers follow Park et al. 2023: importance (poignancy) §4.1, reflection focal points and
insights §4.2, day -> hour -> action planning §4.3, reacting and dialogue §4.3.2.
"""

from .questions import (
    MAX_RATINGS,
    DayPlanAnswer,
    ExchangeAnswer,
    ExchangeLine,
    EventChoice,
    FocalPointsAnswer,
    HeardAnswer,
    ImportanceAnswer,
    ImportancesAnswer,
    InsightAnswer,
    InsightsAnswer,
    InterviewAnswer,
    KeptItem,
    LineAnswer,
    PlaceAnswer,
    PlanItemAnswer,
    ProcedureAnswer,
    StepAnswer,
    StepsAnswer,
    SummaryAnswer,
    TalkAnswer,
)

__all__ = [
    "MAX_RATINGS",
    "ImportanceAnswer",
    "ImportancesAnswer",
    "HeardAnswer",
    "PlanItemAnswer",
    "EventChoice",
    "DayPlanAnswer",
    "StepAnswer",
    "StepsAnswer",
    "PlaceAnswer",
    "TalkAnswer",
    "LineAnswer",
    "SummaryAnswer",
    "ExchangeAnswer",
    "ExchangeLine",
    "KeptItem",
    "FocalPointsAnswer",
    "InsightAnswer",
    "InsightsAnswer",
    "InterviewAnswer",
    "ProcedureAnswer",
]
