"""Concrete values -> ``{parameters}``: generalising a verified success, anonymising for sharing.

A persona's procedure keeps the task's place as ``{place}``, the persona's home as ``{home}`` and
its name as ``{persona}``, so the same procedure serves the task at another place or for another
persona. Before a procedure enters the shared town library, every persona-specific value left
(any persona's name or home, account-like numbers) becomes a parameter too (docs/design, §2).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from .procedure import Procedure, ProcedureStep

__all__ = [
    "home_of",
    "persona_values",
    "generalise_text",
    "generalise_steps",
    "compose",
    "anonymise",
]

_NUMBER = re.compile(r"(?<![{\w])\d{4,}(?![\w}])")


def home_of(home_address: str, name: str) -> str:
    """The persona's own part of its home address: the first of sector/arena naming it.

    "the_ville:Isabella Rodriguez's apartment:bedroom:bed" -> "the_ville:Isabella Rodriguez's
    apartment"; "the_ville:Dorm for Oak Hill College:Klaus Mueller's room:bed" -> "the_ville:Dorm
    for Oak Hill College:Klaus Mueller's room". Falls back to the sector when no part names it.
    """
    parts = home_address.split(":")
    words = {w.lower() for w in name.split() if len(w) > 2}
    for i in range(1, len(parts)):
        if words & {w.lower() for w in re.split(r"[\s']+", parts[i])}:
            return ":".join(parts[: i + 1])
    return ":".join(parts[:2])


def persona_values(*, name: str, home_address: str, place: str) -> dict[str, str]:
    """The parameters of a persona's task: ``{"persona", "home", "place"}`` -> concrete values."""
    return {"persona": name, "home": home_of(home_address, name), "place": place}


@functools.lru_cache(maxsize=65536)
def _scrub_terms(name: str, home: str) -> tuple[str, re.Pattern, tuple[str, ...]]:
    """(home part, name pattern, name and name words) of one persona, for :func:`anonymise`.

    Cached: a town's roster is scrubbed from every procedure it shares.
    """
    return home_of(home, name), _name_pattern(name), (name, *(w for w in name.split() if len(w) > 2))


def _name_pattern(name: str) -> re.Pattern:
    """Whole-word match of the full name, then of its first and last name."""
    parts = [re.escape(name)] + [re.escape(w) for w in name.split() if len(w) > 2]
    return re.compile(r"\b(?:" + "|".join(parts) + r")\b")


def generalise_text(text: str, values: Mapping[str, str]) -> str:
    """Replace concrete values in ``text`` by ``{parameter}``, longest value first.

    Addresses are replaced as substrings; the ``persona`` value (a name) also as its first and
    last name, whole words.
    """
    for param, value in sorted(values.items(), key=lambda kv: -len(kv[1])):
        if not value:
            continue
        if param == "persona":
            text = _name_pattern(value).sub("{" + param + "}", text)
        else:
            text = text.replace(value, "{" + param + "}")
    return text


def generalise_steps(
    steps: Iterable[ProcedureStep], values: Mapping[str, str]
) -> tuple[ProcedureStep, ...]:
    """:func:`generalise_text` over each action step's description and object."""
    return tuple(
        s
        if s.procedure is not None
        else ProcedureStep(
            description=generalise_text(s.description, values),
            object=generalise_text(s.object, values),
            minutes=s.minutes,
        )
        for s in steps
    )


def compose(
    steps: Sequence[ProcedureStep],
    planned: Sequence[Mapping],
    known: Mapping[str, Sequence[Mapping]],
) -> tuple[ProcedureStep, ...]:
    """Replace each run of verified steps that a known procedure covers by a call to it.

    Scanning the steps in order, a run of ``planned`` equal to a known procedure's concrete
    steps (same descriptions, objects and minutes, in order) becomes one step naming that
    procedure; longer known procedures are tried first. A run must have at least two steps and
    leave at least one step of the task's own (else it is the same task, not a part of it).

    Args:
        steps: the generalised steps, one per verified step.
        planned: the verified concrete steps, ``{"description", "object", "minutes"}`` each.
        known: procedure name -> its expanded steps filled with this task's values.

    Returns:
        The steps with the covered runs replaced (``steps`` itself when nothing is covered).
    """
    key = lambda s: (s["description"], s["object"], int(s["minutes"]))  # noqa: E731
    concrete = [key(s) for s in planned]
    runs = sorted(
        ((name, [key(s) for s in run]) for name, run in known.items()),
        key=lambda kv: (-len(kv[1]), kv[0]),
    )
    runs = [(name, run) for name, run in runs if 2 <= len(run) < len(concrete)]
    out: list[ProcedureStep] = []
    i = 0
    while i < len(concrete):
        hit = next((kv for kv in runs if concrete[i : i + len(kv[1])] == kv[1]), None)
        if hit is None:
            out.append(steps[i])
            i += 1
        else:
            out.append(ProcedureStep(procedure=hit[0]))
            i += len(hit[1])
    return tuple(out)


def anonymise(
    procedure: Procedure, *, owner: tuple[str, str], others: Iterable[tuple[str, str]] = ()
) -> Procedure:
    """The procedure with every persona-specific value left turned into a parameter.

    Args:
        procedure: a (generalised) persona procedure.
        owner: (name, home address) of the persona it came from -> ``{persona}``, ``{home}``.
        others: (name, home address) of every other persona -> ``{other}``, ``{other_home}``.

    Returns:
        A copy whose name, ``when`` and steps hold no persona name, no home address and no run
        of 4+ digits (-> ``{number}``).
    """

    def scrub(text: str) -> str:
        for (name, home), (p_name, p_home) in (
            (owner, ("persona", "home")),
            *((o, ("other", "other_home")) for o in others),
        ):
            own, pattern, words = _scrub_terms(name, home)
            # A persona whose home part and name words are all absent from the text as it is now
            # has nothing to replace: skipping it changes nothing, and keeps a town of N personas
            # from costing N regex runs per text.
            if own not in text and not any(w in text for w in words):
                continue
            # the home's own part (it prefixes the full home address) before the name inside it
            text = text.replace(own, "{" + p_home + "}")
            text = pattern.sub("{" + p_name + "}", text)
        return _NUMBER.sub("{number}", text)

    others = list(others)
    steps = tuple(
        s
        if s.procedure is not None
        else ProcedureStep(
            description=scrub(s.description), object=scrub(s.object), minutes=s.minutes
        )
        for s in procedure.steps
    )
    return replace(procedure, name=scrub(procedure.name), when=scrub(procedure.when), steps=steps)
