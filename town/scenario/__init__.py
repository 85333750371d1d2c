"""Scenario loading: a town folder (map, town file, persona files, optional events) -> Scenario.

A town is ``personas/<town>/`` holding ``map.yaml`` (or ``map.tmj``), ``town.yaml``, one
``<persona_id>.yaml`` per persona and optionally ``events.yaml`` and ``probes.yaml`` (evaluation
probes, read only by the evaluation and never by a mind); the schemas are documented in
``docs/scenario-files.md``. Every file is checked on load and every error is a
:class:`~town.errors.ConfigError` naming the file, the field (e.g. ``routine[3].place``) and the
reason. Persona identity and daily routine follow Park et al. 2023 §3 (seed descriptions) and
§4.3 (plans).

Parts:
    persona_spec: :class:`PersonaSpec` and its routine, relationships and seed memories (what a
        persona's file declares: the only part of a scenario a mind may read).
    town_spec: :class:`Scenario`, :class:`Probe`, :class:`Gathering`, :class:`NetworkProbe`,
        :class:`TimedEvent` (read by the evaluation and the simulation, never by a mind).
    persona_file, probes_file, events_file: one file kind each, read and checked.
    checks: what every file's checks share (YAML, ids, map places, probe names, game times).
    load: :func:`load_scenario` (the folder -> Scenario, every place reachable).
    fingerprint: a hash per field of each persona file, recorded by a run and checked by resume.
"""

from .fingerprint import check_persona_files, persona_fingerprints
from .load import TOWNS_DIR, load_scenario
from .persona_spec import PersonaSpec, Relationship, RoutineItem, SeedMemory
from .town_spec import EventType, Gathering, NetworkProbe, Probe, Scenario, TimedEvent

__all__ = [
    "RoutineItem",
    "Relationship",
    "SeedMemory",
    "PersonaSpec",
    "Gathering",
    "Probe",
    "NetworkProbe",
    "EventType",
    "TimedEvent",
    "Scenario",
    "load_scenario",
    "TOWNS_DIR",
    "persona_fingerprints",
    "check_persona_files",
]
