"""The scripted backend: deterministic rules answering every question without a network, and the
language helpers only those rules use.

Parts:
    backend: :class:`ScriptedBackend`, one rule per question type.
    talk, reply, reaction: what a scripted persona says in a conversation; topics: its own
        life as a topic when it has no news; voice: the phrasing rules with seeded alternatives.
    interview, recount: answers to an interviewer, and heard memories told again.
    insight: reflections from retrieved memories. attend: whether to go to an event.
    words: the word helpers of these rules.

The engine (``town/memory``, ``town/simulation``, ``town/mind``, ``town/recording``) never imports
this package: only where a backend is chosen (:mod:`town.backends`, which also makes it the model
backends' fallback).
"""

from town.scripted.backend import ScriptedBackend

__all__ = ["ScriptedBackend"]
