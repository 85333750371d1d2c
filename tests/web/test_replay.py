"""The replay API and pages over a real recorded run: frames, the persona panel as of a tick,
jumps, procedures, interview, evaluation, and the weight lab against a brute-force reference.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

import numpy as np
import pytest

from town.analysis.evaluate import evaluate
from town.analysis.interview import interview
from town.events import EventKind
from town.recording import RunReader

#: Ticks of the ``recorded`` fixture's run (tests/web/conftest.py).
REPLAY_TICKS = 1500


def of(events, kind, persona=None):
    """Published events of ``kind`` (and ``persona``), in publication order."""
    return [e for e in events if e.kind is kind and (persona is None or e.persona == persona)]


@pytest.fixture
def reader(recorded):
    runs, name, _ = recorded
    with RunReader(runs / f"{name}.sqlite") as r:
        yield r


def test_runs_list_and_page_show_the_run(replay_client, recorded):
    """/api/runs gives town, personas, span, ticks, size and backend; the page lists them."""
    runs, name, events = recorded
    body = replay_client.get("/api/runs").get_json()
    (row,) = body["runs"]
    frames = of(events, EventKind.FRAME)
    assert row["name"] == name and row["town"] == "The Ville" and row["backend"] == "scripted"
    assert row["personas"] == ["isabella_rodriguez", "klaus_mueller", "maria_lopez"]
    assert (row["first_tick"], row["last_tick"], row["ticks"]) == (0, REPLAY_TICKS - 1, REPLAY_TICKS)
    assert (row["start"], row["end"]) == (frames[0].time.isoformat(sep=" "), frames[-1].time.isoformat(sep=" "))
    assert row["end"] == "2023-02-13 11:09:50"
    assert row["size_bytes"] == (runs / f"{name}.sqlite").stat().st_size
    html = replay_client.get("/runs").get_data(as_text=True)
    assert f'href="/replay/{name}"' in html and "The Ville" in html and ">1500<" in html


def test_frames_are_the_published_frames(replay_client, recorded):
    """A frame by tick and a batch equal the FRAME events the simulation published."""
    _, name, events = recorded
    frames = {e.tick: e for e in of(events, EventKind.FRAME)}
    for tick in (0, 777, REPLAY_TICKS - 1):
        body = replay_client.get(f"/api/runs/{name}/frames/{tick}").get_json()
        assert body["time"] == frames[tick].time.isoformat(sep=" ")
        assert body["personas"] == json.loads(json.dumps(frames[tick].data["personas"]))
    batch = replay_client.get(f"/api/runs/{name}/frames?start=100&end=159").get_json()["frames"]
    assert [f["tick"] for f in batch] == list(range(100, 160))
    assert batch[-1]["personas"] == json.loads(json.dumps(frames[159].data["personas"]))
    assert replay_client.get(f"/api/runs/{name}/frames/{REPLAY_TICKS}").status_code == 404
    assert replay_client.get(f"/api/runs/{name}/frames?start=0&end=600").status_code == 400


def test_persona_panel_as_of_a_tick(replay_client, recorded):
    """At tick T the panel shows T's frame, the memories and retrievals published by then."""
    _, name, events = recorded
    tick = 1100
    body = replay_client.get(f"/api/runs/{name}/personas/maria_lopez?tick={tick}").get_json()
    frame = next(e for e in of(events, EventKind.FRAME) if e.tick == tick)
    mine = frame.data["personas"]["maria_lopez"]
    assert (body["now"]["tick"], body["now"]["x"], body["now"]["y"], body["now"]["action"]) == (
        tick, mine["x"], mine["y"], mine["action"])
    written = sorted((e.data["id"] for e in of(events, EventKind.MEMORY, "maria_lopez") if e.tick <= tick),
                     reverse=True)
    assert [m["id"] for m in body["memories"]] == written[:12]
    retrieved = [e.seq for e in of(events, EventKind.RETRIEVAL, "maria_lopez") if e.tick <= tick][::-1]
    assert [r["seq"] for r in body["retrievals"]] == retrieved[:12]
    assert body["identity"]["name"] == "Maria Lopez" and body["identity"]["age"] == 21
    assert replay_client.get(f"/api/runs/{name}/personas/nobody").status_code == 404
    assert replay_client.get(f"/api/runs/{name}/personas/maria_lopez?tick=99999").status_code == 400


def test_retrievals_filter_by_purpose_and_time(replay_client, recorded):
    """purpose=, since= and until= keep exactly the published retrievals in that window."""
    _, name, events = recorded
    got = replay_client.get(
        f"/api/runs/{name}/personas/klaus_mueller/retrievals?purpose=act&since=300&until=900&limit=500"
    ).get_json()["retrievals"]
    want = [e.seq for e in of(events, EventKind.RETRIEVAL, "klaus_mueller")
            if e.data["purpose"] == "act" and 300 <= e.tick <= 900][::-1]
    assert [r["seq"] for r in got] == want and want


def test_jump_to_next_and_previous_conversation_and_reflection(replay_client, recorded):
    """The jump API finds the first conversation of a persona starting after T (and before)."""
    _, name, events = recorded
    talks = [e for e in of(events, EventKind.CONVERSATION) if "isabella_rodriguez" in e.data["participants"]]
    starts = [e.data["start_tick"] for e in talks]
    assert starts, "the run has a conversation with Isabella"
    url = f"/api/runs/{name}/jump?kind=conversation&persona=isabella_rodriguez"
    assert replay_client.get(f"{url}&after=0").get_json()["tick"] == starts[0]
    assert replay_client.get(f"{url}&after={starts[0]}").get_json()["tick"] == (starts[1] if len(starts) > 1 else None)
    assert replay_client.get(f"{url}&after={REPLAY_TICKS}&direction=prev").get_json()["tick"] == starts[-1]
    reflections = of(events, EventKind.REFLECTION)
    first = reflections[0]
    hit = replay_client.get(f"/api/runs/{name}/jump?kind=reflection&after=0&persona={first.persona}").get_json()
    assert (hit["tick"], hit["time"]) == (first.tick, first.time.isoformat(sep=" "))
    assert replay_client.get(f"/api/runs/{name}/jump?kind=dance").status_code == 400


def test_procedures_as_of_a_tick_are_the_last_published_descriptions(replay_client, recorded):
    """Each library lists, per procedure, the description carried by its last event up to T."""
    _, name, events = recorded
    tick = 1079
    body = replay_client.get(f"/api/runs/{name}/procedures?tick={tick}").get_json()
    last: dict[tuple[str, str], dict] = {}
    uses: dict[tuple[str, str], list[str]] = {}
    for e in of(events, EventKind.PROCEDURE):
        if e.tick <= tick:
            last[(e.data["library"], e.data["name"])] = e.data["procedure"]
            uses.setdefault((e.data["library"], e.data["name"]), []).append(e.data["op"])
    shown = {(lib, p["name"]): p for lib, procs in body["libraries"].items() for p in procs}
    assert set(shown) == set(last) and len(last) >= 8
    for key, proc in shown.items():
        assert (proc["reliability"], proc["status"], proc["successes"], proc["failures"]) == (
            last[key]["reliability"], last[key]["status"], last[key]["successes"], last[key]["failures"])
        assert [h["op"] for h in proc["history"]] == uses[key]
    assert body["threshold"] == 0.6


def test_interview_answers_as_of_the_tick_and_leaves_the_run_unchanged(replay_client, recorded, reader):
    """The replay interview equals town.analysis.interview at that tick's time; the file's bytes stay."""
    runs, name, _ = recorded
    path = runs / f"{name}.sqlite"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    q = "Do you know about a party?"
    body = replay_client.get(f"/api/runs/{name}/personas/klaus_mueller/interview",
                             query_string={"q": q, "tick": 300}).get_json()
    want = interview(reader, "klaus_mueller", reader.frame(300)["time"], q).to_dict()
    assert body == json.loads(json.dumps(want))
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert replay_client.get(f"/api/runs/{name}/personas/klaus_mueller/interview").status_code == 400


def test_evaluation_is_the_evaluate_report(replay_client, recorded, reader):
    """/evaluation returns town.analysis.evaluate.evaluate of the run (diffusion, density, attendance)."""
    _, name, _ = recorded
    body = replay_client.get(f"/api/runs/{name}/evaluation").get_json()
    assert body == json.loads(json.dumps(evaluate(reader)))
    assert set(body["diffusion"]) == {"party", "market_renovation"}


# -- the weight lab -----------------------------------------------------------------------


def brute_force(reader: RunReader, seq: int, weights, k: int) -> tuple[dict[int, float], list[int]]:
    """Park et al. 2023 §4.1 written out: min-max normalised recency (0.995^hours since last
    access), importance and cosine relevance over the stream as it was before ``seq``; returns
    (id -> total, the top-k ids best first, ties to newer created then higher id).
    """
    trace = reader.retrieval(seq)
    stream = reader.stream_as_of(trace["persona"], seq)
    now = datetime.fromisoformat(trace["game_time"])
    hours = np.array([(now - t).total_seconds() / 3600 for t in stream.last_accessed], np.float64)
    query = np.asarray(trace["query_embedding"], np.float64)
    emb = stream.embeddings.astype(np.float64)
    relevance = (emb @ query) / (np.linalg.norm(emb, axis=1) * np.linalg.norm(query))

    def norm(v):
        v = np.asarray(v, np.float64)
        return np.full_like(v, 0.5) if v.max() == v.min() else (v - v.min()) / (v.max() - v.min())

    total = (weights[0] * norm(0.995 ** hours) + weights[1] * norm(stream.importance)
             + weights[2] * norm(relevance))
    order = sorted(range(len(total)), key=lambda i: (-total[i], -stream.created[i].timestamp(), -stream.ids[i]))
    return {int(stream.ids[i]): float(total[i]) for i in range(len(total))}, [int(stream.ids[i]) for i in order[:k]]


def test_lab_with_the_recorded_weights_reproduces_every_recorded_top_k(replay_client, recorded, reader):
    """For every recorded retrieval, the lab at the recorded weights and k returns its top k."""
    _, name, events = recorded
    wrong = []
    for e in of(events, EventKind.RETRIEVAL):
        body = replay_client.get(f"/api/runs/{name}/retrievals/{e.seq}/lab").get_json()
        returned = [c["id"] for c in e.data["candidates"] if c["in_top_k"]]
        if body["top"] != returned or body["entered"] or body["left"]:
            wrong.append(e.seq)
    assert wrong == []


@pytest.mark.parametrize("weights,k", [((0.5, 2.0, 1.0), 5), ((0.0, 0.0, 1.0), 10), ((2.0, 0.3, 0.0), 3)])
def test_lab_with_other_weights_equals_a_brute_force_ranking(replay_client, recorded, reader, weights, k):
    """Other weights: each lab total equals the brute-force total, the lab's top k is a top k of
    the brute force (ties within 1e-6 aside), and entered/left compare it with the recorded one.
    """
    _, name, events = recorded
    for e in of(events, EventKind.RETRIEVAL)[10::23]:
        w = ",".join(str(x) for x in weights)
        body = replay_client.get(f"/api/runs/{name}/retrievals/{e.seq}/lab?w={w}&k={k}").get_json()
        totals, top = brute_force(reader, e.seq, weights, k)
        assert body["n_scored"] == len(totals) and body["weights"] == list(weights) and body["k"] == k
        for c in body["candidates"]:
            assert abs(c["total"] - totals[c["id"]]) < 1e-6
        assert [round(totals[i], 6) for i in body["top"]] == [round(totals[i], 6) for i in top]
        outside = [t for i, t in totals.items() if i not in body["top"]]
        assert not outside or min(totals[i] for i in body["top"]) >= max(outside) - 1e-6
        recorded_top = [c["id"] for c in e.data["candidates"] if c["in_top_k"]]
        assert body["entered"] == [i for i in body["top"] if i not in recorded_top]
        assert body["left"] == [i for i in recorded_top if i not in body["top"]]


def test_lab_refuses_bad_weights_and_k(replay_client, recorded):
    """W must be three numbers >= 0, not all zero; k in 1..500; an unknown seq is 404."""
    _, name, events = recorded
    seq = of(events, EventKind.RETRIEVAL)[0].seq
    for query, field in (("w=1,2", "w"), ("w=a,b,c", "w"), ("w=-1,1,1", "w"), ("w=0,0,0", "weights"),
                         ("k=0", "k"), ("k=x", "k")):
        response = replay_client.get(f"/api/runs/{name}/retrievals/{seq}/lab?{query}")
        assert response.status_code == 400 and field in response.get_json()["error"]
    memory_seq = of(events, EventKind.MEMORY)[0].seq
    assert replay_client.get(f"/api/runs/{name}/retrievals/{memory_seq}/lab").status_code == 404


HUGE = 10**23  # beyond a SQLite INTEGER (2**63 - 1)


@pytest.mark.parametrize("path", [
    "/api/runs/{run}/frames/{huge}",
    "/api/runs/{run}/retrievals/{huge}",
    "/api/runs/{run}/retrievals/{huge}/lab",
    "/api/runs/{run}/jump?after={huge}",
    "/api/runs/{run}/jump?after={max}",
    "/api/runs/{run}/personas/{pid}/retrievals?since={huge}",
    "/api/runs/{run}/personas/{pid}/retrievals?until={huge}",
    "/api/runs/{run}/frames?start={huge}",
    "/api/runs/{run}/frames?start=-{huge}",
    "/api/retrievals/{huge}",
])
def test_huge_integers_are_a_json_4xx_not_a_500(replay_client, recorded, path):
    """Integers beyond SQLite's range are refused (400 naming the parameter, or 404) as JSON."""
    url = path.format(run=recorded[1], huge=HUGE, max=2**63 - 1, pid="klaus_mueller")
    response = replay_client.get(url)
    assert response.status_code in (400, 404), (url, response.status_code)
    assert response.is_json and response.get_json()["error"]


def test_the_largest_sqlite_integer_is_still_accepted(replay_client, recorded):
    """A start of 2**63 - 1 is a valid (empty) frame range: 200 with no frames, not an overflow."""
    response = replay_client.get(f"/api/runs/{recorded[1]}/frames?start={2**63 - 1}")
    assert response.status_code == 200 and response.get_json() == {"frames": []}
