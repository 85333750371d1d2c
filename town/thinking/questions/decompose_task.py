"""Decompose a plan block into 5-15 minute actions at objects of its place (Park et al. 2023 §4.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..schema import enum_at
from ..views import MemoryView
from .base import Question
from .checks import InvalidAnswer, match_option, own_words
from .generalise_procedure import GeneraliseProcedure, ProcedureAnswer
from .sense import DESCRIPTION_PATTERN, not_copied, plain_descriptions

__all__ = ["STEP_MINUTES", "step_minutes", "StepAnswer", "StepsAnswer", "DecomposeTask",
           "objects_at_the_place", "names_the_finished_task"]

#: Lengths of one action (a decomposed step, or the next action without a plan), in game minutes:
#: the 5-15 minute actions of Park et al. 2023 §4.3, and longer ones for long activities. The
#: portable keywords have no ``minimum``, so an integer's range is an enum (SmolLM2 wrote 0).
STEP_MINUTES = [5, 10, 15, 20, 30, 45, 60]


def step_minutes(most: int) -> list[int]:
    """The :data:`STEP_MINUTES` up to ``most`` game minutes; ``[most]`` when that is under 5."""
    return [m for m in STEP_MINUTES if m <= most] or [max(1, most)]


class StepAnswer(BaseModel):
    """One 5-15 minute action of a decomposed task; ``object`` is a full address."""

    description: str = Field(min_length=1, max_length=200)
    object: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=1440)


class StepsAnswer(BaseModel):
    """The decomposition of a task into actions (Park et al. 2023 §4.3); with the task just
    finished offered (``DecomposeTask.finished``), the name and "when" of the procedure its
    verified steps become, as a ``GeneraliseProcedure`` answers them (else None)."""

    steps: list[StepAnswer] = Field(min_length=1, max_length=24)
    name: str | None = Field(default=None, max_length=120)
    when: str | None = Field(default=None, max_length=300)


def objects_at_the_place(q: DecomposeTask, a: StepsAnswer, prompt: str) -> StepsAnswer:
    """Each step uses one of the place's objects (resolved to its full address)."""
    objects = list(q.objects) or [q.place]
    steps = []
    for i, step in enumerate(a.steps):
        obj = match_option(step.object, objects)
        if obj is None:
            raise InvalidAnswer(f"steps[{i}].object: {step.object!r} is not an object at {q.place}")
        steps.append(step.model_copy(update={"object": obj}))
    return a.model_copy(update={"steps": steps})


def names_the_finished_task(q: DecomposeTask, a: StepsAnswer, prompt: str) -> StepsAnswer:
    """With the task just finished offered (``q.finished``), the answer names its procedure as a
    ``GeneraliseProcedure`` answer passing that question's checks (resolved to the listed
    titles); without, a name a model wrote anyway is dropped."""
    if q.finished is None:
        return a.model_copy(update={"name": None, "when": None}) if a.name or a.when else a
    if not a.name or not a.when:
        raise InvalidAnswer(f"name, when: the procedure of {q.finished.task!r}, the task just finished, is not named")
    named = q.finished.check(ProcedureAnswer(name=a.name, when=a.when), prompt)
    return a.model_copy(update={"name": named.name, "when": named.when})


@dataclass(frozen=True, kw_only=True)
class DecomposeTask(Question[StepsAnswer]):
    """Decompose a plan block into 5-15 minute actions at objects of its place (§4.3).

    ``procedures`` are reliable procedures of the persona's own that retrieval brought back for
    the task and that fit in ``minutes``: ``{"name", "steps": [{description, object, minutes}]}``
    each, steps filled in for this place. The answer may repeat one's steps as a part of the task
    (Voyager's skills as building blocks, Wang et al. 2023). ``workplaces`` are the sectors the
    persona works at (:func:`town.world.objects.workplaces` of its own routine): there it uses
    objects as their staff, elsewhere as a guest. ``finished``, when set, names the procedure
    of the task just finished, asked in the same request: the answer's ``name`` and ``when``.
    """

    template: ClassVar[str] = "decompose_task"
    answer_model = StepsAnswer
    purpose: ClassVar[str] = "plan"
    checks = (own_words, objects_at_the_place, names_the_finished_task, not_copied, plain_descriptions)
    task: str
    place: str
    start: str
    minutes: int
    objects: tuple[str, ...]
    memories: tuple[MemoryView, ...] = ()
    procedures: tuple[dict, ...] = ()
    workplaces: tuple[str, ...] = ()
    finished: GeneraliseProcedure | None = None

    def context(self) -> dict:
        """The fields, and the finished task's titles to choose from (``choices``, empty without one)."""
        return {**super().context(), "choices": self.finished.choices() if self.finished else ()}

    def narrow(self, schema: dict[str, Any]) -> None:
        """Steps at the place's objects, :func:`step_minutes` long, described in words
        (:data:`.sense.DESCRIPTION_PATTERN`), as many as fill the block with steps of 5 minutes or more;
        with ``finished``, its ``name`` and ``when`` among its titles (required)."""
        enum_at(schema, ("steps", "[]", "object"), list(self.objects) or [self.place])
        enum_at(schema, ("steps", "[]", "minutes"), step_minutes(self.minutes))
        schema["properties"]["steps"]["items"]["properties"]["description"]["pattern"] = DESCRIPTION_PATTERN
        steps = schema["properties"]["steps"]  # steps of 5 minutes or more fill the chunk
        steps["maxItems"] = max(1, min(steps.get("maxItems", 24), self.minutes // 5))
        if self.finished is not None:  # the finished task's name and kind, as its own question has them
            named = self.finished.answer_schema()["properties"]
            schema["properties"].update(name=named["name"], when=named["when"])
            schema["required"] = [*schema["required"], "name", "when"]
