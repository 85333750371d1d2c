"""The servers behind the OpenAI-compatible backend: each endpoint, and the pool sharing the load.

Several endpoints (``--base-url`` given more than once) serve the same model. A request goes to
the endpoint with the fewest requests in flight, each endpoint holds at most ``slots`` at once
(the rest wait here, before their timeout starts), and an endpoint that fails is set aside for
:data:`SET_ASIDE_S` and checked again before it takes requests anew.
"""

from __future__ import annotations

import threading
import time

import openai

from .model import CallOutcome

__all__ = ["Endpoint", "EndpointPool", "SET_ASIDE_S", "error_text"]

#: Wall seconds an endpoint that failed is set aside before it is checked again.
SET_ASIDE_S = 5.0


class Endpoint:
    """One server of the pool: its client, its slots and its health (thread-safe).

    Args:
        base_url: the API root.
        client: the ``openai.OpenAI`` client for it.
        slots: requests it may hold at once.
    """

    def __init__(self, base_url: str | None, client: openai.OpenAI, slots: int):
        self.base_url = base_url
        self.client = client
        self.slots = max(1, int(slots))
        self.in_flight = 0
        self.set_aside_until = 0.0
        self.taken = 0  # requests given to it so far (ties go to the least used)

    @property
    def where(self) -> str:
        """The base URL, or "the OpenAI API"."""
        return self.base_url or "the OpenAI API"


class EndpointPool:
    """The endpoints of one backend and their free slots (thread-safe).

    Args:
        endpoints: the servers, in the order given.
    """

    def __init__(self, endpoints: list[Endpoint]):
        self.endpoints = endpoints
        self._cond = threading.Condition()

    def take(self) -> Endpoint:
        """Wait for a free slot; the endpoint with the fewest in flight.

        Set-aside endpoints come last; ties go to the one given the fewest requests so far.
        """
        with self._cond:
            while True:
                now = time.monotonic()
                free = [e for e in self.endpoints if e.in_flight < e.slots]
                ready = [e for e in free if e.set_aside_until <= now]
                if ready or (free and all(e.set_aside_until > now for e in self.endpoints)):
                    best = min(ready or free,
                               key=lambda e: (e.in_flight / e.slots, e.set_aside_until, e.taken))
                    best.in_flight += 1
                    best.taken += 1
                    return best
                waits = [e.set_aside_until - now for e in free if e.set_aside_until > now]
                self._cond.wait(timeout=min(waits) if waits else None)

    def give_back(self, endpoint: Endpoint, outcome: CallOutcome | None) -> None:
        """Free ``endpoint``'s slot after a request that failed with ``outcome`` (None: it got a reply).

        An unavailable outcome sets the endpoint aside for :data:`SET_ASIDE_S` (when another
        endpoint can serve); a reply ends its time aside.
        """
        with self._cond:
            endpoint.in_flight -= 1
            if outcome is not None and outcome.unavailable and len(self.endpoints) > 1:
                endpoint.set_aside_until = time.monotonic() + SET_ASIDE_S
            elif outcome is None:
                endpoint.set_aside_until = 0.0
            self._cond.notify_all()

    def revive(self, endpoint: Endpoint) -> bool:
        """Check a set-aside endpoint whose time is up (GET /models); True if it answers."""
        try:
            endpoint.client.models.list()
        except openai.APIStatusError:
            pass  # it answers HTTP: alive
        except Exception:
            with self._cond:
                endpoint.set_aside_until = time.monotonic() + SET_ASIDE_S
            return False
        return True


def error_text(exc: openai.APIStatusError) -> str:
    """The server's own words for a refused request (its error message), at most 200 characters."""
    body = exc.body
    if isinstance(body, dict):
        body = body.get("message") or body.get("error") or body
    return str(body or exc.message)[:200]
