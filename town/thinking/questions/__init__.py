"""The typed questions the mind asks, each in its own module with the rules of its answer.

``questions/<template>.py`` holds one question type: the frozen dataclass (what it shows), its
answer model (the pydantic model of ``A`` in ``Question[A]``), its schema narrowing
(``narrow``) and its answer checks (``checks``); ``prompts/<template>.j2`` is its prompt and the
scripted backend (:mod:`town.scripted`) holds its rule. :mod:`.base` is what every
question shares, :mod:`.checks` the checks and helpers several share.

To add a question: a module here named after its template, with the question, its answer model,
``purpose``, and its ``narrow`` and ``checks`` when it offers options or cites memories; its
template in ``prompts/``; a rule in ``ScriptedBackend``; and its names in ``__all__`` below.

Questions follow Park et al. 2023: importance (poignancy) rating §4.1, reflection focal points
and insights §4.2, day -> hour -> action planning §4.3, reacting and dialogue §4.3.2.
"""

from ..views import FactView, MemoryView, PlanItemView
from .answer_interview import AnswerInterview, InterviewAnswer
from .base import A, Question
from .checks import AnswerCheck, InvalidAnswer
from .choose_place import ChoosePlace, PlaceAnswer
from .decide_to_talk import DecideToTalk, TalkAnswer
from .decompose_task import DecomposeTask, StepAnswer, StepsAnswer
from .hear_line import HeardAnswer, HearLine
from .focal_points import FocalPoints, FocalPointsAnswer
from .generalise_procedure import GeneraliseProcedure, ProcedureAnswer
from .insights import InsightAnswer, Insights, InsightsAnswer
from .next_action import NextAction
from .next_line import LineAnswer, NextLine
from .plan_day import DayPlanAnswer, EventChoice, PlanDay, PlanItemAnswer
from .rate_importance import ImportanceAnswer, RateImportance
from .rate_importances import MAX_RATINGS, ImportancesAnswer, RateImportances
from .summarise_conversation import SummariseConversation, SummaryAnswer
from .write_conversation import ExchangeAnswer, ExchangeLine, KeptItem, Side, WriteConversation

__all__ = [
    "A",
    "AnswerCheck",
    "InvalidAnswer",
    "MemoryView",
    "FactView",
    "PlanItemView",
    "Question",
    "RateImportance",
    "RateImportances",
    "PlanDay",
    "DecomposeTask",
    "ChoosePlace",
    "NextAction",
    "DecideToTalk",
    "NextLine",
    "SummariseConversation",
    "WriteConversation",
    "Side",
    "HearLine",
    "HeardAnswer",
    "FocalPoints",
    "Insights",
    "AnswerInterview",
    "GeneraliseProcedure",
    # the answer models, each at home with its question (town.thinking.answers names them too)
    "MAX_RATINGS",
    "ImportanceAnswer",
    "ImportancesAnswer",
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
