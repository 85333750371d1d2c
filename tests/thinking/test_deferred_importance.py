"""Importance rated later (``[backend] importance = "deferred"``) on the fake server: a persona's
new memories wait unrated, out of its stream, until something reads it; then one request rates
them all. Nothing reads an unrated importance, and a resumed run is the uninterrupted one."""

from __future__ import annotations

import json
from datetime import timedelta

from cli_helpers import same_run
from fake_server import MODEL_SHIFT, FakeOpenAIServer, model_answer
from ville_runs import ville_config

from town.backends import make_backend
from town.importance import rate as scripted_rate
from town.events import EventKind
from town.mind import decide_action, maybe_reflect
from town.mind.effects import Note
from town.memory import Decided, PlanItem
from town.mind.context import MindContext, observe, recall, remember_later
from town.recording import RunReader
from town.persona import PlanBlock, Step
from town.scenario import load_scenario
from town.simulation import Simulation
from town.thinking.questions import RateImportances
from web.cli import main

SEEN = ("Maria Lopez is reading at the library.", "Klaus Mueller is writing at the desk.",
        "Isabella Rodriguez is baking bread in the kitchen.")


def _town(prompt_book, api_key, importance):
    """the_ville without seed memories on a fake server; (sim, its server, the questions it answered)."""
    asked = []

    def responder(messages):
        question = prompt_book[messages[-1]["content"]]
        asked.append(question)
        return model_answer(question)

    server = FakeOpenAIServer(responder)
    server.rating_responder = responder
    config = ville_config(server, api_key, cache=False, importance=importance, timeout_s=30.0)  # no retry on a busy machine
    parts = make_backend(config, backoff_s=0.01)
    sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=parts.stall,
                     seed_memories=False)
    return sim, server, asked


def _ctx(sim, tick):
    return MindContext(sim.services, tick, sim.clock.time_of(tick))


def _ratings(asked, persona):
    """The RateImportances asked for ``persona`` (the start-up calibration's are asked for nobody)."""
    return [q for q in asked if isinstance(q, RateImportances) and q.persona == persona]


def test_memories_of_three_ticks_are_rated_in_one_request_when_retrieval_reads_them(prompt_book, api_key):
    """Three observations at ticks 0, 1 and 2 ask nothing and stay out of the stream; the
    retrieval at tick 3 first asks ONE RateImportances of the three, in order, and scores them
    with the model's ratings (the scripted rater's + 1), each created when it was perceived.
    With "batch" the same three observations are three requests."""
    sim, server, asked = _town(prompt_book, api_key, "deferred")
    try:
        p = sim.personas["maria_lopez"]
        held = len(p.stream)
        for tick, seen in enumerate(SEEN):
            observe(p, _ctx(sim, tick), seen)
        assert _ratings(asked, p.id) == [] and len(p.stream) == held and len(p.unrated) == 3
        records, note = recall(p, _ctx(sim, 3), "Who is in town?", purpose="act")
        [batch] = _ratings(asked, p.id)
        assert batch.items == tuple(("observation", s) for s in SEEN)
        assert not p.unrated and len(p.stream) == held + 3
        new = p.stream.last_records(3)
        start = sim.clock.time_of(0)
        assert [r.created for r in new] == [start + timedelta(seconds=10 * i) for i in range(3)]
        expected = [min(10, scripted_rate(s, "observation") + MODEL_SHIFT) for s in SEEN]
        assert [r.importance for r in new] == expected
        scored = {c["id"]: c["importance"] for c in note.data["candidates"]}
        assert [scored[r.id] for r in new] == expected  # the retrieval scored them, rated
    finally:
        server.close()
    sim, server, asked = _town(prompt_book, api_key, "batch")
    try:
        p = sim.personas["maria_lopez"]
        for tick, seen in enumerate(SEEN):
            observe(p, _ctx(sim, tick), seen)
        assert len(_ratings(asked, p.id)) == 3
    finally:
        server.close()


def test_reflection_rates_the_unrated_only_when_they_could_reach_its_threshold(prompt_book, api_key):
    """Far below the threshold (0 + 3 unrated of at most 10 each < 150) the reflection check asks
    nothing and the memories stay unrated; at 146 they could reach 150: they are rated first (one
    request), counted (each at least 2: the rater's 1 + 1), and the persona reflects."""
    sim, server, asked = _town(prompt_book, api_key, "deferred")
    try:
        p = sim.personas["klaus_mueller"]
        for tick, seen in enumerate(SEEN):
            observe(p, _ctx(sim, tick), seen)
        assert not maybe_reflect(p, _ctx(sim, 3))
        assert not [q for q in asked if q.persona == p.id] and len(p.unrated) == 3 and p.importance_acc == 0
        sim.think(lambda ctx: p.gain_importance(146))
        assert maybe_reflect(p, _ctx(sim, 4))
        assert len(_ratings(asked, p.id)) == 1 and not p.unrated and p.importance_acc == 0
    finally:
        server.close()


def test_an_action_only_citing_its_retrieval_leaves_the_unrated_waiting(prompt_book, api_key):
    """Maria reads at her desk, two steps of it still to come: starting the next one retrieves
    (the action cites it) but no question reads what it returns, so nothing is rated and her
    observation waits, in no candidate; with no steps left, the retrieval feeds the decomposition
    and rates it first (one request of that one memory)."""
    sim, server, asked = _town(prompt_book, api_key, "deferred")
    try:
        p = sim.personas["maria_lopez"]
        start = sim.clock.time_of(0)
        desk = "the_ville:Dorm for Oak Hill College:Maria Lopez's room:desk"
        sim.think(lambda ctx: p.adopt_plan([PlanBlock(start=start, end=start + timedelta(hours=2),
                                                      description="study", place=desk, task="study")],
                                           start.date().isoformat()))
        steps = [Step(description=f"read chapter {i}", object=desk, minutes=10, task="study") for i in (1, 2)]
        sim.think(lambda ctx: p.set_steps(steps))
        observe(p, _ctx(sim, 1), SEEN[1])
        ctx = _ctx(sim, 2)
        decide_action(p, ctx)
        [retrieval] = [n for n in ctx.out.effects if isinstance(n, Note) and n.kind is EventKind.RETRIEVAL]
        assert not _ratings(asked, p.id) and len(p.unrated) == 1
        assert SEEN[1] not in {c["content"] for c in retrieval.data["candidates"]}
        sim.think(lambda ctx: p.set_steps(()))
        decide_action(p, _ctx(sim, 3))
        assert [q.items for q in _ratings(asked, p.id)] == [(("observation", SEEN[1]),)] and not p.unrated
    finally:
        server.close()


def test_an_unrated_plan_memory_keeps_every_field_through_the_persona_state(prompt_book, api_key):
    """A plan memory (its blocks, its decision about an event, its evidence) waits unrated as
    JSON: the persona state, dumped to JSON text and read back, still yields, once a retrieval
    rates it, a record with the very fields given."""
    sim, server, asked = _town(prompt_book, api_key, "deferred")
    try:
        p = sim.personas["isabella_rodriguez"]
        start = sim.clock.time_of(0)
        cafe = "the_ville:Hobbs Cafe:cafe:cafe customer seating"
        items = (PlanItem(start=start, end=start + timedelta(hours=1), description="open the cafe", place=cafe),)
        decided = (Decided(place=cafe, start=start + timedelta(hours=10), end=start + timedelta(hours=12), go=True,
                           reason="I host it", evidence=(0,)),)
        remember_later(p, _ctx(sim, 0), [dict(kind="plan", content="Isabella's plan for today: open the cafe.",
                                              evidence=(0,), plan_items=items, decisions=decided)])
        sim.think(lambda ctx: p.set_state(json.loads(json.dumps(p.get_state()))))
        recall(p, _ctx(sim, 1), "the cafe", purpose="act")
        record = p.stream.last_records(1)[0]
        assert (record.kind.value, record.created, record.evidence) == ("plan", start, (0,))
        assert (record.plan_items, record.decisions) == (items, decided)
    finally:
        server.close()


#: A snapshot every 15 game minutes: a run cut at 07:15 resumes from one, as a run that never stopped has.
EVERY = ("--set", "recording.snapshot_every_hours=0.25")


def _cli(server, api_key, *args):
    """``town ARGS`` on the fake server (a resume keeps the run's "no cache")."""
    return main([*args, "--quiet", "--backend", "openai", "--base-url", server.base_url, "--model", server.model,
                 "--api-key-env", api_key])


def test_a_resumed_deferred_run_is_the_uninterrupted_run(fake_server, api_key, tmp_path):
    """the_ville for 30 game minutes, and for 15 then resumed for 15 more (cut at a snapshot),
    with memories left unrated at the cut (the persona state carries them):
    ``scripts/same_run.py --ignore-timing`` says the same run."""
    server = fake_server()
    whole, cut = tmp_path / "whole.sqlite", tmp_path / "cut.sqlite"
    assert _cli(server, api_key, "simulate", "--hours", "0.5", "--out", str(whole), "--embedder", "hashing", *EVERY,
                "--no-cache") == 0
    assert _cli(server, api_key, "simulate", "--hours", "0.25", "--out", str(cut), "--embedder", "hashing", *EVERY,
                "--no-cache") == 0
    with RunReader(cut) as reader:
        _, _, state = reader.snapshot_at_or_before(10 ** 9)
    assert any(p.get("unrated") for p in state["personas"].values()), "nothing unrated at the cut"
    assert _cli(server, api_key, "resume", str(cut), "--hours", "0.25") == 0
    compared = same_run(whole, cut, "--ignore-timing")
    assert (compared.returncode, compared.stdout) == (0, "same run\n"), compared.stdout
