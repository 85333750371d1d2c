"""A judge model ranks the study's conditions from pairwise judgements (Park et al. 2023 §6.5).

The paper's evaluators ranked the conditions' interview answers and the ranks became TrueSkill
ratings. Here a judge model (any OpenAI-compatible server) compares two conditions' answers to
the same reactions or reflections question for the same persona, with the written rubric of
``town/analysis/judge_prompts/judge_pairwise.j2``; each judgement is a match, and the conditions are
rated with ``openskill`` (Plackett-Luce, a maintained Bayesian rating in the TrueSkill family:
mu starts at 25, sigma at 25/3). The order of A and B alternates so a position bias cancels.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path
from typing import Any, Literal

import jinja2
import openai
from pydantic import BaseModel, ValidationError

from ..errors import ThinkingError

__all__ = ["JUDGED", "Judgement", "Judge", "rate"]

#: Categories a judge grades (the automatic grader cannot: no ground truth).
JUDGED = ("reactions", "reflections")
PROMPTS = Path(__file__).parent / "judge_prompts"


class Judgement(BaseModel):
    """The judge's reply: which answer is better ("A", "B" or "tie"), and why."""

    better: Literal["A", "B", "tie"]
    reason: str = ""


def rate(matches: list[tuple[str, str, str]], names: list[str]) -> dict[str, dict[str, float]]:
    """Ratings from matches ``(a, b, winner)``; winner is a, b or "tie".

    Returns:
        name -> ``{"mu", "sigma", "wins", "losses", "ties"}`` (openskill Plackett-Luce).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    counts = {n: {"wins": 0, "losses": 0, "ties": 0} for n in names}
    for a, b, winner in matches:
        ranks: list[float] = [1, 1] if winner == "tie" else ([1, 2] if winner == a else [2, 1])
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
        for n, r in ((a, ranks[0]), (b, ranks[1])):
            counts[n]["ties" if winner == "tie" else "wins" if r == 1 else "losses"] += 1
    return {n: {"mu": ratings[n].mu, "sigma": ratings[n].sigma, **counts[n]} for n in names}


class Judge:
    """Pairwise judgements of battery answers by a model on an OpenAI-compatible server.

    Args:
        base_url: the server's API root (``http://host:port/v1``).
        model: the judge model's name.
        api_key_env: environment variable holding the key ("unused" when unset: local servers).
        timeout_s: wall seconds per request.
    """

    def __init__(self, base_url: str, model: str, *, api_key_env: str = "OPENAI_API_KEY", timeout_s: float = 60.0):
        self.model = model
        self._client = openai.OpenAI(base_url=base_url, api_key=os.environ.get(api_key_env) or "unused",
                                     timeout=timeout_s, max_retries=2)
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)), undefined=jinja2.StrictUndefined,
                                 autoescape=False)
        self._template = env.get_template("judge_pairwise.j2")
        self.invalid = 0

    def prompt(self, **context: Any) -> str:
        """The rendered judge prompt (see ``judge_pairwise.j2`` for the context keys)."""
        return self._template.render(**context)

    def judge(self, **context: Any) -> Judgement | None:
        """Ask for one judgement; None (and ``invalid`` += 1) for a reply that is not a verdict.

        Raises:
            ThinkingError: when the server cannot be reached.
        """
        try:
            reply = self._client.chat.completions.create(
                model=self.model, temperature=0,
                messages=[{"role": "user", "content": self.prompt(**context)}])
        except openai.APIError as exc:
            raise ThinkingError(f"judge model {self.model!r}: {exc}") from None
        text = reply.choices[0].message.content or ""
        found = re.search(r"\{.*\}", text, re.DOTALL)
        try:
            return Judgement.model_validate(json.loads(found.group(0) if found else text))
        except (ValueError, ValidationError):
            self.invalid += 1
            return None

    def rank(self, batteries: dict[str, dict[str, Any]], *,
             personas: dict[str, tuple[str, str]] | None = None) -> dict[str, dict[str, float]]:
        """Judge every pair of conditions on every judged question of every persona; rate them.

        Args:
            batteries: condition -> :func:`town.analysis.battery.ask_battery` output (same personas and
                questions in each).
            personas: persona id -> (full name, a paragraph about the persona); default: the id.

        Returns:
            :func:`rate` of the matches, plus ``"judgements"`` and ``"invalid"`` counts under each.
        """
        names = list(batteries)
        keyed = {c: {(a["persona"], a["category"], a["index"]): a for a in b["answers"]
                     if a["category"] in JUDGED} for c, b in batteries.items()}
        matches = []
        keys = sorted(set.intersection(*(set(k) for k in keyed.values()))) if keyed else []
        for n, (key, (a, b)) in enumerate(itertools.product(keys, itertools.combinations(names, 2))):
            first, second = (a, b) if n % 2 == 0 else (b, a)
            row_1, row_2 = keyed[first][key], keyed[second][key]
            name, summary = (personas or {}).get(key[0], (key[0], key[0]))
            verdict = self.judge(persona_name=name, persona_summary=summary,
                                 category=key[1], question=row_1["question"], answer_a=row_1["answer"],
                                 answer_b=row_2["answer"])
            if verdict is None:
                continue
            winner = "tie" if verdict.better == "tie" else first if verdict.better == "A" else second
            matches.append((first, second, winner))
        out = rate(matches, names)
        for r in out.values():
            r["judgements"] = len(matches)
            r["invalid"] = self.invalid
        return out
