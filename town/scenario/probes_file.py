"""The evaluation probes file (``probes.yaml``) -> Probes and the NetworkProbe (Park et al. 2023 §7.1).

Read only by the evaluation: the mind never sees a probe.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..world import TileMap
from ..world.fields import Fields
from .checks import ID, game_time, map_place, read_yaml
from .town_spec import Gathering, NetworkProbe, Probe

__all__ = ["read_probes"]


def _paper(f: Fields, value: Any, pp: str) -> dict[str, Any]:
    """A checked ``paper`` table: citation, then optional diffusion/density shares, attendance counts."""
    paper = dict(f.mapping(value, pp, ("citation", "diffusion", "attendance", "density")))
    f.get(paper, "citation", str, pp)
    for key, parts in (("diffusion", ("start", "end")), ("density", ("start", "end")),
                       ("attendance", ("invited", "came"))):
        if paper.get(key) is not None:
            sub = f.mapping(paper[key], f"{pp}.{key}", parts)
            for part in parts:
                f.check(sub.get(part), float, f"{pp}.{key}.{part}")
    return paper


def read_probes(path: Path, tilemap: TileMap, ids: set[str]) -> tuple[tuple[Probe, ...], NetworkProbe]:
    """The checked probes of ``path`` and how to ask about relationships (``ids``: the town's personas).

    Raises:
        ConfigError: naming the file and the field for any invalid probe.
    """
    f = Fields(path)
    data = f.mapping(read_yaml(path) or {}, "", ("probes", "network"))
    network = NetworkProbe()
    if data.get("network") is not None:
        net = f.mapping(data["network"], "network", ("question", "paper"))
        question = f.get(net, "question", str, "network", default=network.question)
        if "{name}" not in question:
            raise f.error("network.question", "must contain {name} (the other persona's full name)")
        network = NetworkProbe(question=question, paper=None if net.get("paper") is None
                               else _paper(f, net["paper"], "network.paper"))
    probes, seen = [], set()
    for i, n in enumerate(f.get(data, "probes", list, default=[])):
        p = f"probes[{i}]"
        f.mapping(n, p, ("name", "question", "facts", "gathering", "paper"))
        name = f.get(n, "name", str, p)
        if not ID.match(name):
            raise f.error(f"{p}.name", f"{name!r} must match [a-z0-9_]+")
        if name in seen:
            raise f.error(f"{p}.name", f"duplicate probe name {name!r}")
        seen.add(name)
        facts = f.get(n, "facts", list, p)
        if not facts:
            raise f.error(f"{p}.facts", "must list at least one fact (a regular expression)")
        for j, fact in enumerate(facts):
            f.check(fact, str, f"{p}.facts[{j}]")
            try:
                re.compile(fact)
            except re.error as exc:
                raise f.error(f"{p}.facts[{j}]", f"not a regular expression: {exc}") from None
        gathering = None
        if n.get("gathering") is not None:
            gp = f"{p}.gathering"
            g = f.mapping(n["gathering"], gp, ("place", "start", "end", "host"))
            g_start, g_end = game_time(f, g, "start", gp), game_time(f, g, "end", gp)
            if g_end <= g_start:
                raise f.error(f"{gp}.end", "must be after the gathering's start")
            host = f.get(g, "host", str, gp, default=None)
            if host is not None and host not in ids:
                raise f.error(f"{gp}.host", f"unknown persona {host!r}; personas: {', '.join(sorted(ids))}")
            gathering = Gathering(place=map_place(f, tilemap, g.get("place"), f"{gp}.place"),
                                  start=g_start, end=g_end, host=host)
        paper = None if n.get("paper") is None else _paper(f, n["paper"], f"{p}.paper")
        probes.append(Probe(name=name, question=f.get(n, "question", str, p),
                            facts=tuple(facts), gathering=gathering, paper=paper))
    return tuple(probes), network

