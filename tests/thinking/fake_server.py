"""A local fake server speaking the OpenAI chat-completions protocol, with fault injection.

``GET /v1/models`` lists one model; ``POST /v1/chat/completions`` answers with the text a
``responder(messages)`` returns (only ``/v1/...`` paths exist, as on real servers).

Structured output: the server *obeys* the schema dialects in ``dialects`` (for the start-up
check's one-value enum it answers the allowed word) and answers the others as ``reject`` says:
HTTP 400 or 500, or ``"ignore"`` (a 200 reply that ignores the schema). Each chat request's body
is kept in ``bodies``, and ``log`` holds one entry per request with its wall start and end and
how many requests the server held at once; ``latency_s`` is how long every chat answer takes
(the reply is worked out within it; the server works on for all of it when the client goes, as
llama-cpp-python's does), ``check_latency_s`` how long a start-up check's request takes, and
``tokens_per_s`` its writing speed: every answer (the start-up check's included) takes its
completion tokens / ``tokens_per_s`` seconds more. The start-up check's writing request (its
prompt asks for ``N`` animals) is answered with ``N`` words, its importance check (a check
whose user prompt is a question's) by ``rating_responder`` (None: ``{}``, no valid answer). A
request being worked on watches its connection: ``closed_at`` records when a client gave up and
closed it. With ``models_wait_for_slot`` (as llama-cpp-python's, whose model list takes the lock
its completions hold), ``GET /v1/models`` waits for a free slot. Faults (chosen by a seeded generator at
``fault_rate``, in turn from ``faults``): ``"500"``, ``"429"`` (with ``Retry-After``), ``"slow"`` (answers after
``slow_s`` wall seconds, past the client's timeout), ``"malformed"`` (content that is not JSON)
and ``"invalid"`` (JSON that fails the answer schema). While ``trickle`` is set, every chat
request (not a start-up check) gets headers announcing ``Content-Length: 100000000``, then one
byte a second until the client closes the connection (counted as "trickle"; the close time goes
to ``closed_at``). ``padding`` characters of whitespace are added after each answer's JSON, and
``usage`` replaces each reply's token counts; ``mangle(body bytes) -> bytes`` rewrites each
chat answer's HTTP body (e.g. to put bytes in it that are not UTF-8). :meth:`FakeOpenAIServer.down` closes the
port (connections refused) and :meth:`FakeOpenAIServer.up` opens it again. Every request is
counted by path and by fault.
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from town.thinking.answers import ImportanceAnswer, ImportancesAnswer, SummaryAnswer, TalkAnswer
from town.thinking.questions import DecideToTalk, RateImportance, RateImportances, SummariseConversation
from town.scripted import ScriptedBackend
from town.thinking.server_check import CHECK_MARK, CHECK_WORD

FAULTS = ("500", "429", "slow", "malformed", "invalid")


MODEL_SHIFT = 1  # the fake model rates importance this much above the scripted rule


def model_answer(question) -> str:
    """The fake model's JSON reply to ``question``: the scripted answer, importance one point
    higher, a conversation's summary as a whole sentence, and a reason to talk without the memory
    it would tell.

    The scripted summary is a label ("I talked with Maria Lopez", or with the news cut off by
    "…"), which a model's summary may not be (``whole_sentence``); kept as it is so scripted runs
    stay the same, it is ended with a full stop here so the fake model's answers pass the checks.
    The scripted reason to talk ("I want to tell them: <the memory>") copies the memory, which a
    model's reason may not (``not_copied``): the fake model gives the words before the colon.
    """
    answer = ScriptedBackend().ask(question)
    if isinstance(question, RateImportance):
        answer = ImportanceAnswer(importance=min(10, answer.importance + MODEL_SHIFT))
    elif isinstance(question, RateImportances):
        answer = ImportancesAnswer(ratings=[min(10, r + MODEL_SHIFT) for r in answer.ratings])
    elif isinstance(question, SummariseConversation):
        answer = SummaryAnswer(summary=answer.summary.rstrip("…").rstrip(" ,;") + ".")
    elif isinstance(question, DecideToTalk):
        answer = TalkAnswer(talk=answer.talk, reason=answer.reason.split(":")[0])
    return answer.model_dump_json()



EMBED_DIM = 32  # the fake /embeddings endpoint's dimension


def fake_embedding(text: str) -> list[float]:
    """A deterministic EMBED_DIM-dim vector for ``text`` (bag of hashed words, not normalised)."""
    vector = [0.0] * EMBED_DIM
    for word in text.lower().split():
        vector[int.from_bytes(word.encode()[:8].ljust(8, b"_"), "little") % EMBED_DIM] += 1.0
    return vector if any(vector) else [1.0] + [0.0] * (EMBED_DIM - 1)


class FakeOpenAIServer:
    """An OpenAI-compatible HTTP server on 127.0.0.1 for tests.

    Args:
        responder: ``responder(messages) -> str``: the assistant's reply text.
        model: the one model listed and accepted.
        api_key: the key required as ``Authorization: Bearer`` (None: no check).
        fault_rate: share of chat requests that get a fault (0..1).
        faults: the fault kinds to draw from.
        retry_after_s: the Retry-After of a 429, wall seconds.
        slow_s: how long a "slow" answer takes, wall seconds.
        seed: seed of the fault generator.
        dialects: the structured-output dialects it obeys.
        reject: how it answers another constrained dialect: "400", "500" or "ignore".
        latency_s: wall seconds every chat answer takes.
        check_latency_s: wall seconds every start-up check request takes.
        models_wait_for_slot: ``GET /v1/models`` answers only when a slot is free.
        slots: chat requests it works on at once (like llama.cpp's slots; others wait their
            turn inside the server); None: no limit.
        tokens_per_s: answer tokens it writes per wall second (each answer's completion
            tokens, characters / 4, add to its latency); None: writing takes no time.
        grammar_lengths: cut each string of an answer at its ``maxLength`` in the request's
            schema (``json_schema``, ``json_object_schema``), as a server decoding under a grammar
            closes a string when its bound is reached.
    """

    def __init__(
        self,
        responder: Callable[[list[dict]], str],
        *,
        model: str = "fake-model",
        api_key: str | None = "test-key",
        fault_rate: float = 0.0,
        faults: tuple[str, ...] = FAULTS,
        retry_after_s: float = 1.0,
        slow_s: float = 1.5,
        seed: int = 0,
        dialects: tuple[str, ...] = ("json_schema", "json_object_schema", "grammar"),
        reject: str = "400",
        latency_s: float = 0.0,
        check_latency_s: float = 0.0,
        models_wait_for_slot: bool = False,
        slots: int | None = None,
        tokens_per_s: float | None = None,
        grammar_lengths: bool = False,
    ):
        self.tokens_per_s = tokens_per_s
        self.rating_responder: Callable[[list[dict]], str] | None = None  # answers the importance check
        self.grammar_lengths = grammar_lengths
        self.slots = None if slots is None else threading.Semaphore(slots)
        self.check_latency_s = check_latency_s
        self.models_wait_for_slot = models_wait_for_slot
        self.dialects = dialects
        self.reject = reject
        self.latency_s = latency_s
        self.bodies: list[dict] = []
        self.closed_at: list[float] = []  # when clients closed a slow request's connection
        self.log: list[dict] = []
        self.active = 0
        self.responder = responder
        self.models_data: object = None  # set: GET /models answers {"data": this} instead
        self.usage: dict | None = None  # set: every chat reply carries this "usage" instead
        self.trickle = False  # set: chat replies trickle, one byte a second
        self.padding = 0  # characters of whitespace after each chat answer's JSON
        self.mangle: Callable[[bytes], bytes] | None = None  # rewrites each chat answer's body
        self.model = model
        self.api_key = api_key
        self.fault_rate = fault_rate
        self.faults = faults
        self.retry_after_s = retry_after_s
        self.slow_s = slow_s
        self.counts: Counter[str] = Counter()  # "chat", "models", and one per fault kind, "ok"
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._connections: set = set()
        self.port = 0
        self.up()

    @property
    def base_url(self) -> str:
        """The API root, ``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def up(self) -> None:
        """Start listening (on the same port as before, if there was one)."""
        server = self

        class Handler(_Handler):
            owner = server

        httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        httpd.daemon_threads = True
        self.port = httpd.server_address[1]
        self._httpd = httpd
        threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def down(self) -> None:
        """Stop listening and drop open (keep-alive) connections: requests fail until :meth:`up`."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        with self._lock:
            connections, self._connections = self._connections, set()
        for sock in connections:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        """Stop for good."""
        self.down()

    def draw_fault(self) -> str | None:
        """The fault for the next chat request, or None."""
        with self._lock:
            if self._rng.random() >= self.fault_rate:
                return None
            return self._rng.choice(self.faults)

    def count(self, key: str) -> None:
        """Count one request or outcome under ``key``."""
        with self._lock:
            self.counts[key] += 1


class _Handler(BaseHTTPRequestHandler):
    owner: FakeOpenAIServer
    protocol_version = "HTTP/1.1"
    reply_at: float | None = None  # monotonic time a chat reply being worked on is due
    # TCP_NODELAY: a reply is written as headers, then body; with Nagle's algorithm the body
    # waits for the client's delayed ACK of the headers, about 40 ms per request on Linux
    disable_nagle_algorithm = True

    def log_message(self, *args) -> None:  # quiet
        pass

    def setup(self) -> None:
        super().setup()
        with self.owner._lock:
            self.owner._connections.add(self.connection)

    def finish(self) -> None:
        with self.owner._lock:
            self.owner._connections.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def _send(self, status: int, body: dict | str, headers: dict[str, str] | None = None,
              mangle: Callable[[bytes], bytes] | None = None) -> None:
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        if mangle is not None:
            data = mangle(data)
        if self.reply_at is not None:
            gone = self._wait_watching(max(0.0, self.reply_at - time.monotonic()))
            if gone is not None:  # the client went: the work goes on to its end (llama-cpp-python)
                with self.owner._lock:
                    self.owner.closed_at.append(gone)
                time.sleep(max(0.0, self.reply_at - time.monotonic()))
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout)

    def _authorised(self) -> bool:
        key = self.owner.api_key
        if key is None or self.headers.get("Authorization") == f"Bearer {key}":
            return True
        self._send(
            401,
            {
                "error": {
                    "message": "Incorrect API key provided",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }
            },
        )
        return False

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.owner.count("models")
        if not self._authorised():
            return
        if self.path.rstrip("/") == "/v1/models":
            if self.owner.models_wait_for_slot and self.owner.slots is not None:
                with self.owner.slots:  # llama-cpp-python: the model list waits for the model's lock
                    pass
            self._send(
                200,
                {
                    "object": "list",
                    "data": [
                        {
                            "id": self.owner.model,
                            "object": "model",
                            "created": 0,
                            "owned_by": "test",
                        }
                    ] if self.owner.models_data is None else self.owner.models_data,
                },
            )
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path.rstrip("/") == "/v1/embeddings":
            self.owner.count("embeddings")
            if self._authorised():
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                self._send(200, {"object": "list", "model": body.get("model"), "data": [
                    {"object": "embedding", "index": i, "embedding": fake_embedding(t)}
                    for i, t in enumerate(texts)], "usage": {"prompt_tokens": 0, "total_tokens": 0}})
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        owner = self.owner
        messages = body.get("messages") or [{}]
        checking = any(str(m.get("content", "")).startswith(CHECK_MARK) for m in messages)
        # the importance check: a question of the run (its user prompt unmarked), answered by the model
        rating_check = checking and not str(messages[-1].get("content", "")).startswith(CHECK_MARK)
        owner.count("check" if checking else "chat")
        if not self._authorised():
            return
        dialect = body_dialect(body)
        if not checking:
            with owner._lock:
                owner.bodies.append(body)
        if dialect in ("json_schema", "json_object_schema", "grammar") and dialect not in owner.dialects:
            if owner.reject != "ignore":
                self._send(int(owner.reject), {"error": {"message": f"unsupported: {dialect}"}})
                return
            obeyed = False
        else:
            obeyed = dialect in owner.dialects
        if checking:  # the start-up check's requests: a word, answered after check_latency_s
            self.reply_at = time.monotonic() + owner.check_latency_s
            asked = re.search(r"Name (\d+) different animals", body["messages"][-1]["content"])
            words = {"words": [f"animal{i}" for i in range(int(asked.group(1)))]} if asked else None
            if rating_check and body.get("model") != owner.model:
                self._send(404, {"error": {"message": f"The model {body.get('model')!r} does not exist"}})
                self.reply_at = None
                return
            if rating_check:  # a test's own responder is not called for it (it may count its calls)
                content = "{}" if owner.rating_responder is None else owner.rating_responder(body["messages"])
            else:
                content = json.dumps(words or {"word": CHECK_WORD if obeyed else "cat"})
            self._complete(content, body["messages"], check=True)
            self.reply_at = None
            return
        arrived = time.monotonic()
        with owner._lock:
            owner.active += 1
            entry = {"arrived": arrived, "held": owner.active}
        if owner.slots is not None:
            owner.slots.acquire()
        try:
            entry["start"] = time.monotonic()  # work on it begins (after a queue in the server)
            # the reply is worked out within the latency, not after it: a request takes latency_s
            self.reply_at = entry["start"] + owner.latency_s
            self._answer(body)
        finally:
            self.reply_at = None
            with owner._lock:
                owner.active -= 1
                entry["end"] = time.monotonic()
                owner.log.append(entry)
            if owner.slots is not None:  # released once the request has left: its slot is free
                owner.slots.release()

    def _wait_watching(self, seconds: float) -> float | None:
        """Sleep ``seconds``, watching the connection; when the client closed it, the time it did."""
        import select

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.02)
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return time.monotonic()
                except OSError:
                    return time.monotonic()
        return None

    def _trickle(self) -> None:
        """Headers announcing 100 MB, then one byte a second until the client closes."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000000")
            self.end_headers()
            self.wfile.flush()
            while True:
                self.wfile.write(b" ")
                self.wfile.flush()
                gone = self._wait_watching(1.0)
                if gone is not None:
                    break
        except OSError:
            gone = time.monotonic()
        with self.owner._lock:
            self.owner.closed_at.append(gone)
        self.close_connection = True

    def _answer(self, body: dict) -> None:
        owner = self.owner
        if body.get("model") != owner.model:
            self._send(
                404,
                {
                    "error": {
                        "message": f"The model {body.get('model')!r} does not exist",
                        "code": "model_not_found",
                    }
                },
            )
            return
        if owner.trickle:
            owner.count("trickle")
            self._trickle()
            return
        fault = owner.draw_fault()
        owner.count(fault or "ok")
        if fault == "500":
            self._send(500, {"error": {"message": "injected server error"}})
            return
        if fault == "429":
            self._send(
                429,
                {"error": {"message": "injected rate limit"}},
                {"Retry-After": f"{owner.retry_after_s:g}"},
            )
            return
        if fault == "slow":
            gone = self._wait_watching(owner.slow_s)
            if gone is not None:
                owner.count("closed by client")
                with owner._lock:
                    owner.closed_at.append(gone)
        content = owner.responder(body["messages"])
        if fault == "malformed":
            content = '{"this is": not json'
        elif fault == "invalid":
            content = json.dumps({"unexpected": "shape"})
        if owner.grammar_lengths:
            content = json.dumps(bounded(json.loads(content), request_schema(body)))
        content += " " * owner.padding
        self._complete(content, body["messages"])

    def _complete(self, content: str, messages: list[dict], *, check: bool = False) -> None:
        owner = self.owner
        mangle = None if check else owner.mangle  # not the start-up check's answers
        if owner.tokens_per_s and self.reply_at is not None:  # writing the answer takes its time
            self.reply_at += max(1, len(content) // 4) / owner.tokens_per_s
        self._send(
            200,
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": 0,
                "model": owner.model,
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": content},
                    }
                ],
                "usage": (None if check else owner.usage) or {
                    # characters / 4: the usual estimate of BPE tokens in English text
                    "prompt_tokens": max(1, sum(len(m["content"]) for m in messages) // 4),
                    "completion_tokens": max(1, len(content) // 4),
                    "total_tokens": 0,
                },
            },
            mangle=mangle,
        )


def request_schema(body: dict) -> dict:
    """The answer schema a chat request's body carries ({} when none, or only a grammar)."""
    rf = body.get("response_format") or {}
    return (rf.get("json_schema") or {}).get("schema") or rf.get("schema") or {}


def bounded(value, schema: dict):
    """``value`` with each string cut at its ``maxLength`` in ``schema`` (what a grammar lets through)."""
    if isinstance(value, str) and "maxLength" in schema:
        return value[:schema["maxLength"]]
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return {k: bounded(v, props.get(k, {})) for k, v in value.items()}
    if isinstance(value, list):
        return [bounded(v, schema.get("items", {})) for v in value]
    return value


def body_dialect(body: dict) -> str:
    """The structured-output dialect a chat request's body uses."""
    rf = body.get("response_format") or {}
    if "grammar" in body:
        return "grammar"
    if rf.get("type") == "json_schema":
        return "json_schema"
    if rf.get("type") == "json_object":
        return "json_object_schema" if "schema" in rf else "json_object"
    return "none"
