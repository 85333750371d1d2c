"""Inputs: what people outside the simulation do to a town, typed, queued and applied in order.

A whisper, a player's join, leave, move or line is an :data:`Input` (a pydantic model, checked
when it is made: :func:`parse_input`). A viewer's request only puts it in the queue
(:meth:`Inputs.submit`, any thread) and answers with its id; the simulation applies the queued
inputs in the order they came at one point between ticks (``Simulation.drain_inputs``, on the
thread that steps it, before the next tick starts; under run-ahead, once every persona is at
that tick). Each applied input is published as an INPUT event ``{"id", "input", "ok", "result" |
"error"}`` with the tick it was applied at, so the run file holds every input at its tick, the
replay shows it, and a run given the same inputs at the same ticks is the same run. What it did
is also kept for :meth:`Inputs.outcome` (the viewer's ``GET /api/inputs/<id>``).

After the design of a16z-infra/ai-town's ``convex/aiTown/inputs.ts`` (inputs as typed, validated
records that the engine's step drains in order); nothing of its code is used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, TypeAdapter, ValidationError, field_validator, model_validator

from ..errors import ConfigError, TownError
from ..events import EventKind
from ..player import player_id
from ..text import check_texts, typed_text

__all__ = ["Whisper", "Join", "Leave", "Move", "Say", "Input", "parse_input", "Inputs", "Control", "parse_control",
           "WHISPER_CHARS", "LINE_CHARS", "NAME_CHARS"]

#: The longest whisper, a player's line and a player's name, in characters.
WHISPER_CHARS, LINE_CHARS, NAME_CHARS = 500, 300, 40
#: Outcomes kept for :meth:`Inputs.outcome` (the oldest are forgotten first).
KEPT = 1000
#: Inputs that may wait at once; more are refused (a viewer cannot queue without bound).
MAX_PENDING = 256


class _Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Whisper(_Input):
    """An inner-voice memory for persona ``persona`` (``Simulation.whisper``)."""

    kind: Literal["whisper"] = "whisper"
    persona: str
    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        return typed_text(v, "text", limit=WHISPER_CHARS)


class Join(_Input):
    """A player called ``name`` joins the town; its id ``player`` is made from the name
    (:func:`town.player.player_id`: never a persona's id), whatever the data said."""

    kind: Literal["join"] = "join"
    player: str = ""
    name: str

    @model_validator(mode="before")
    @classmethod
    def _id(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            return {**data, "player": player_id(data["name"])}
        return data

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return typed_text(v, "player", limit=NAME_CHARS)


class Leave(_Input):
    """Player ``player`` leaves; its conversation ends as by walking away."""

    kind: Literal["leave"] = "leave"
    player: str


class Move(_Input):
    """Player ``player`` walks to tile (x, y), one tile a tick."""

    kind: Literal["move"] = "move"
    player: str
    x: StrictInt
    y: StrictInt


class Say(_Input):
    """Player ``player`` says ``text`` to persona ``to`` (a conversation starts if need be)."""

    kind: Literal["say"] = "say"
    player: str
    to: str
    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        return typed_text(v, "text", limit=LINE_CHARS)


Input = Annotated[Whisper | Join | Leave | Move | Say, Field(discriminator="kind")]
_ADAPTER: TypeAdapter[Input] = TypeAdapter(Input)

#: The controls of a runner's pace.
OPS = ("pause", "resume", "step", "speed", "talk_pace")


class Control(_Input):
    """A control of the runner's pace: ``pause``, ``resume``, ``step`` (``value`` ticks, default
    1; digits are read as a number), ``speed`` (ticks per wall second, or null/"max") or
    ``talk_pace`` ("on": slow while a player talks, the default; "off": keep the speed). The
    runner applies it between ticks; it changes no town, so it is not recorded. The bounds that
    depend on the runner (a game day of steps, speeds 1..64) are the runner's to check."""

    kind: Literal["control"] = "control"
    op: str
    value: StrictInt | StrictFloat | str | None = None  # strict: true was read as 1.0

    @field_validator("op")
    @classmethod
    def _op(cls, v: str) -> str:
        if v not in OPS:
            raise ConfigError(f"must be one of {', '.join(OPS)}, got {v!r}", field="op")
        return v

    @model_validator(mode="after")
    def _step(self) -> Control:
        if self.op == "step" and isinstance(self.value, str) and self.value.isdigit():
            return self.model_copy(update={"value": int(self.value)})
        if self.op == "step" and self.value is None:
            return self.model_copy(update={"value": 1})
        if self.op == "talk_pace" and self.value not in ("on", "off"):
            raise ConfigError(f'must be "on" or "off", got {self.value!r}', field="value")
        return self


def _checked(adapter: TypeAdapter[Any], data: Any, kinds: tuple[str, ...]) -> Any:
    """``data`` validated by ``adapter``; a refusal as one ConfigError naming the field."""
    try:
        return adapter.validate_python(check_texts(data))
    except ValidationError as exc:
        error = exc.errors()[0]
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, ConfigError):
            raise cause from None
        loc = [str(part) for part in error["loc"] if part not in kinds]  # inputs are flat
        field = loc[0] if loc else "kind"
        if len(loc) > 1:  # a member of a union named (Control.value): say what it takes
            raise ConfigError(f"must be a number, text or null, got {error['input']!r}", field=field) from None
        raise ConfigError(error["msg"], field=field) from None


def parse_input(data: Any) -> Input:
    """The input ``data`` (a dict with ``kind``) describes, checked.

    Raises:
        ConfigError: naming the first field at fault and what is wrong (one line).
    """
    return _checked(_ADAPTER, data, ("whisper", "join", "leave", "move", "say"))


_CONTROL: TypeAdapter[Control] = TypeAdapter(Control)


def parse_control(data: Any) -> Control:
    """The control ``data`` (``{"op", "value"?}``, other keys such as ``token`` aside) describes, checked.

    Raises:
        ConfigError: naming ``op`` or ``value`` (one line).
    """
    if not isinstance(data, dict):
        raise ConfigError('send one {"op": ..., "value": ...} object', field="control")
    return _checked(_CONTROL, {k: data[k] for k in ("op", "value") if k in data}, ())


#: Called when an input is applied: its outcome (:meth:`Inputs.outcome`) and its refusal, if any.
Done = Callable[[dict[str, Any], TownError | None], None]


class _Waiting:
    __slots__ = ("id", "input", "done")

    def __init__(self, id_: int, inp: Input, done: Done | None):
        self.id, self.input, self.done = id_, inp, done


class Inputs:
    """The queue of inputs a simulation has not applied yet, and what the applied ones did.

    Thread-safe: :meth:`submit` and :meth:`outcome` from any thread, :meth:`drain` from the one
    that steps the simulation.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[_Waiting] = deque()
        self._next = 1
        self._outcomes: OrderedDict[int, dict[str, Any]] = OrderedDict()

    @property
    def pending(self) -> int:
        """Inputs waiting to be applied."""
        return len(self._queue)

    def submit(self, inp: Input, done: Done | None = None) -> int:
        """Queue ``inp``; returns its id at once. ``done(outcome, refusal)`` is called when it is
        applied (on the simulation's thread; ``outcome`` as :meth:`outcome` gives it).

        Raises:
            ConfigError: naming ``input`` when :data:`MAX_PENDING` inputs wait already.
        """
        with self._lock:
            if len(self._queue) >= MAX_PENDING:
                raise ConfigError(f"{MAX_PENDING} inputs wait already; try again in a moment", field="input")
            waiting = _Waiting(self._next, inp, done)
            self._next += 1
            self._queue.append(waiting)
            self._outcomes[waiting.id] = {"id": waiting.id, "state": "queued"}
            self._forget()
            return waiting.id

    def outcome(self, input_id: int) -> dict[str, Any] | None:
        """``{"id", "state": "queued"}``, ``{"id", "state": "done", "tick", "result"}`` or
        ``{"id", "state": "refused", "tick", "error"}``; None for an id unknown or forgotten."""
        with self._lock:
            found = self._outcomes.get(input_id)
            return None if found is None else dict(found)

    def drain(self, apply: Callable[[Input], Any], publish: Callable[[EventKind, str | None, dict[str, Any]], int],
              tick: int) -> None:
        """Apply every queued input in order: ``apply(input)`` (its result JSON-able), then
        ``publish(EventKind.INPUT, persona, data)``; ``tick``: the clock's. An input that ``apply`` refuses with a
        :class:`~town.errors.TownError` is published as refused; any other error propagates
        (the inputs after it stay queued)."""
        while True:
            with self._lock:
                if not self._queue:
                    return
                waiting = self._queue.popleft()
            inp = waiting.input
            data: dict[str, Any] = {"id": waiting.id, "input": inp.model_dump()}
            refusal: TownError | None = None
            try:
                data.update(ok=True, result=apply(inp))
            except TownError as exc:
                refusal = exc
                data.update(ok=False, error=str(exc))
            publish(EventKind.INPUT, getattr(inp, "player", None) or getattr(inp, "persona", None), data)
            outcome = {"id": waiting.id, "state": "done" if data["ok"] else "refused", "tick": tick,
                       **({"result": data["result"]} if data["ok"] else {"error": data["error"]})}
            with self._lock:
                self._outcomes[waiting.id] = outcome
            if waiting.done is not None:
                waiting.done(outcome, refusal)

    def _forget(self) -> None:
        """(under the lock) Keep the newest :data:`KEPT` outcomes."""
        while len(self._outcomes) > KEPT:
            self._outcomes.popitem(last=False)
