"""A model server's speed, measured before a run: the request timeout, and the wall time to expect.

The start-up check (:mod:`.server_check`) times requests of three sizes on the first server: a
*tiny* one (the schema-dialect check: a few tokens in, a few out), a *reading* one (a prompt as
long as the prompt budget, one token out) and a *writing* one (a short prompt, a list of at
least 40 words out in the requests' dialect: over a hundred answer tokens, so that writing, not
the request's overhead, takes most of its time). :func:`measure` reads from them the seconds a
request costs besides its tokens (the tiny request's time: an upper bound), per prompt token and
per answer token; the writing rate is always a measured one (when the overhead leaves nothing to
time, the writing request's whole time counts as writing: a rate no higher than the true one).
A request of ``n`` tokens in and ``m`` out is then expected to take ``overhead + n * per prompt
token + m * per answer token``.

The timeout rule (:func:`timeout_for`): twice the longest request the settings allow (the whole
prompt budget read and ``max_tokens`` written) at the measured speed, held within
``backend.min_timeout_s`` and ``backend.max_timeout_s``. Twice, so that a machine twice as busy
as at the start still answers every request in time; a usual request writes about a tenth of
``max_tokens``, so it has far more room than that. When twice does not fit under
``max_timeout_s`` but once does (a busy machine: SmolLM2-135M wrote 1.7 tokens/s at load 16),
the timeout is ``max_timeout_s``; a server whose longest request alone would take longer is
refused before the run starts.

The wall time to expect per game hour (:func:`expected_hours`): what one persona costs per game
hour (:data:`FIRST_HOUR`, when everyone plans the day, and :data:`LATER_HOUR`; measured by
``benchmarks/model_cost.py``) at the measured speed, for the town's personas, over the requests
its servers work on at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ThinkingError

__all__ = ["Timing", "Speed", "HourCost", "FIRST_HOUR", "LATER_HOUR", "measure", "timeout_for", "expected_hours",
           "expected_run_s", "wall_text", "describe"]


@dataclass(frozen=True, kw_only=True)
class Timing:
    """One timed request: its prompt and answer tokens (the server's counts, or estimates) and
    its wall seconds from sending to the reply's end."""

    tokens_in: int
    tokens_out: int
    seconds: float


@dataclass(frozen=True, kw_only=True)
class Speed:
    """A server's speed: wall seconds per request besides its tokens, per prompt token and per
    answer token; ``token_ratio`` is the server's prompt tokens per estimated token (characters
    / 4), to turn the prompt budget into the server's tokens."""

    overhead_s: float
    prompt_s: float
    output_s: float
    token_ratio: float = 1.0

    def request_s(self, tokens_in: float, tokens_out: float) -> float:
        """Expected wall seconds of a request of ``tokens_in`` prompt and ``tokens_out`` answer
        tokens (the server's)."""
        return self.overhead_s + tokens_in * self.prompt_s + tokens_out * self.output_s

    def to_meta(self, timeout_s: float) -> dict[str, Any]:
        """The speeds as the run's meta ``model_server`` records them, with the timeout used."""
        return {"prompt_tokens_per_s": _rate(self.prompt_s), "output_tokens_per_s": _rate(self.output_s),
                "overhead_s": round(self.overhead_s, 3), "token_ratio": round(self.token_ratio, 3),
                "timeout_s": round(timeout_s, 1)}


def _rate(seconds_per_token: float) -> float | None:
    """Tokens per second; None when the cost was too small to time."""
    return round(1.0 / seconds_per_token, 1) if seconds_per_token > 0 else None


def _rate_text(rate: float | None) -> str:
    """A rate as text: "at 212.0 tokens/s", or "faster than the check could measure"."""
    return "faster than the check could measure" if rate is None else f"at {rate:,.1f} tokens/s"


def measure(*, reading: Timing, writing: Timing, tiny: Timing | None = None, estimated_in: int = 0) -> Speed:
    """The speed the three timed requests show (see the module's docstring).

    Args:
        reading: a long prompt, (about) one token out.
        writing: a short prompt, many tokens out.
        tiny: a few tokens in and out (its time is the overhead); None: no overhead counted.
        estimated_in: the reading prompt's estimated tokens (characters / 4), for
            ``token_ratio`` (0: 1.0).
    """
    overhead = tiny.seconds if tiny is not None else 0.0
    prompt_s = max(0.0, reading.seconds - overhead) / max(1, reading.tokens_in)
    output_s = max(0.0, writing.seconds - overhead - writing.tokens_in * prompt_s) / max(1, writing.tokens_out)
    if output_s <= 0:  # the overhead took it all: count the whole request as writing
        output_s = writing.seconds / max(1, writing.tokens_out)
    ratio = reading.tokens_in / estimated_in if estimated_in > 0 else 1.0
    return Speed(overhead_s=overhead, prompt_s=prompt_s, output_s=output_s, token_ratio=ratio)


def timeout_for(speed: Speed, *, prompt_tokens: int, max_tokens: int, least_s: float, most_s: float,
                where: str = "the model server") -> float:
    """The request timeout: twice the longest request's expected seconds, within [least_s, most_s].

    Args:
        speed: the measured speed.
        prompt_tokens: the longest prompt, in estimated tokens (the prompt budget and the system
            prompt; 0: no budget, then the longest prompt is taken as 2,000).
        max_tokens: the most answer tokens a request asks for.
        least_s, most_s: the bounds (``backend.min_timeout_s``, ``backend.max_timeout_s``).
        where: the server, for the message.

    Raises:
        ThinkingError: one line naming what was measured, when the longest request alone
            would take longer than ``most_s``.
    """
    tokens_in = (prompt_tokens or 2000) * speed.token_ratio
    longest = speed.request_s(tokens_in, max_tokens)
    if longest > most_s:
        raise ThinkingError(
            f"{where} is too slow for any request timeout up to {most_s:g} s (backend.max_timeout_s): it read "
            f"prompts {_rate_text(_rate(speed.prompt_s))} and wrote answers {_rate_text(_rate(speed.output_s))} "
            f"({speed.overhead_s:.1f} s per request besides), so a request of {tokens_in:,.0f} tokens in "
            f"and {max_tokens} out would take about {longest:,.0f} s; use a faster server or a smaller model, "
            "lower backend.max_prompt_tokens, or raise backend.max_timeout_s")
    return min(most_s, max(least_s, 2 * longest))


@dataclass(frozen=True)
class HourCost:
    """What one persona asks of a model in one game hour: requests, prompt and answer tokens
    (estimated: characters / 4)."""

    requests: float
    tokens_in: float
    tokens_out: float


#: One persona's first game hour from 07:00, when everyone plans the day (the_ville on the fake
#: server, ``benchmarks/model_cost.py``; docs/performance.md).
FIRST_HOUR = HourCost(requests=3.7, tokens_in=2800.0, tokens_out=350.0)
#: One persona's game hour after the first: the average of the 11 that follow it (the same run).
LATER_HOUR = HourCost(requests=1.6, tokens_in=960.0, tokens_out=145.0)


def expected_hours(speed: Speed, personas: int, at_once: int) -> tuple[float, float]:
    """Wall seconds expected for the first game hour and for each one after it.

    Args:
        speed: the measured speed.
        personas: the town's personas.
        at_once: the requests its servers work on at once (their slots; at most ``personas``).
    """
    ways = max(1, min(at_once, personas))

    def hour(cost: HourCost) -> float:
        one = (cost.requests * speed.overhead_s + cost.tokens_in * speed.token_ratio * speed.prompt_s
               + cost.tokens_out * speed.token_ratio * speed.output_s)
        return personas * one / ways

    return hour(FIRST_HOUR), hour(LATER_HOUR)


def expected_run_s(first_hour_s: float, later_hour_s: float, hours: float) -> float:
    """Wall seconds expected for a run's first ``hours`` game hours from its start."""
    return first_hour_s * min(hours, 1.0) + later_hour_s * max(hours - 1.0, 0.0)


def describe(server: dict[str, Any], hours: float | None = None) -> str:
    """A run's meta ``model_server`` in one line: the speed measured, the timeout, and the wall
    time to expect per game hour (and for ``hours`` game hours from the start, when given)."""
    line = (f"the model server read prompts {_rate_text(server['prompt_tokens_per_s'])} and wrote answers "
            f"{_rate_text(server['output_tokens_per_s'])} ({server['overhead_s']:.2f} s per request besides); "
            f"request timeout {server['timeout_s']:g} s")
    if "first_hour_s" not in server:
        return line
    line += (f"; expected wall time for {server['personas']} personas, {server['at_once']} request(s) at once: "
             f"about {wall_text(server['first_hour_s'])} for the first game hour (everyone plans the day), "
             f"{wall_text(server['later_hour_s'])} for each after it")
    if hours is not None:
        line += f"; about {wall_text(expected_run_s(server['first_hour_s'], server['later_hour_s'], hours))} " \
                f"for these {hours:g} game hours"
    return line


def wall_text(seconds: float) -> str:
    """Wall seconds as "2 h 05 min", "9 min 20 s" or "40 s"."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"
