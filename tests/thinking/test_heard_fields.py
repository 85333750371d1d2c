"""A model speaker's line is understood by the listener's own model: the listener's record holds
the fields its model's HearLine answer gave, not the speaker's dialogue act."""

from __future__ import annotations

import json

from fake_server import FakeOpenAIServer, model_answer
from ville_runs import ville_config, run_ville

from town.events import EventKind
from town.recording import RunReader
from town.thinking.questions import HearLine

#: What the fake listener model understands every line to state (unlike any scripted act).
UNDERSTOOD = {"importance": 4, "act": "hold a tasting", "host": "", "start": "2023-02-14 18:00",
              "end": "2023-02-14 19:30", "everyone": True, "invites_me": False, "question": False}


def test_a_heard_line_keeps_the_listeners_model_reading(prompt_book, api_key, tmp_path):
    """In "per-line" conversations, every heard-line memory (a chat with a conversation and a teller) of a 2-hour ville run
    against the fake server holds the fake model's reading: its act, the speaker as subject,
    the first offered place as an address, its times and an open invitation; its importance from that meaning."""
    offered = set()

    def responder(messages):
        question = prompt_book[messages[-1]["content"]]
        if isinstance(question, HearLine):
            offered.add(question.places[0])
            return json.dumps({**UNDERSTOOD, "subject": question.speaker_name, "place": question.places[0]})
        return model_answer(question)

    server = FakeOpenAIServer(responder)
    try:
        run_ville(ville_config(server, api_key, conversation="per-line", cache=False), tmp_path / "run.sqlite", hours=2)
    finally:
        server.close()
    with RunReader(tmp_path / "run.sqlite") as reader:
        heard = [e.data for e in reader.events(kinds=[EventKind.MEMORY])
                 if e.data["kind"] == "chat" and e.data["tellers"]]
        names = {v["name"] for v in reader.meta["personas"].values()}
    assert heard, "no line was heard in two game hours"
    for m in heard:
        fact = m["fact"]
        assert fact["act"] == "hold a tasting" and fact["subject"] in names
        assert fact["subject"] == m["tellers"][0][0]  # the speaker, as the model said
        assert fact["place"].count(":") >= 1 and fact["place"].rsplit(":", 1)[-1] in offered  # an address
        assert (fact["start"], fact["end"]) == ("2023-02-14 18:00:00", "2023-02-14 19:30:00")
        # importance from the meaning (town/mind/weigh.py), not the model's own 4: an event 4, open
        # to everyone + 2, told by a tie (the_ville's three all know one another) + 1, starting
        # within 36 game hours of 07:00-09:00 on 13 February + 1
        assert fact["invited"] == ["everyone"] and m["importance"] == 8
