"""The README works as written: it stays short, its links lead somewhere, and every
``python run.py`` command in its code blocks and its command table runs.

The commands are read from README.md itself, so a command added there is run here without
editing this file. Each runs shortened, the same way for all: ``--hours`` is cut to 0.1 (36
ticks), the town ``smallville`` becomes ``the_ville`` (3 personas instead of 25), and ``--at`` names a
time inside that short run. Servers (``serve``, ``replay``, ``demo``, and plain ``python run.py``)
start in their own process on ``--port 0``; the test fetches the page they print and stops them
with Ctrl-C (SIGINT). The other commands run in this process, in README order, in one working
folder, so ``runs/party.sqlite`` made by the table's ``simulate`` is the one ``inspect``,
``fork`` and the rest read. ``--base-url`` servers are the project's fake OpenAI server, one per
URL, answering as the scripted mind would (``tests/thinking/fake_server.py``), under the model
name the command gives.

``demo`` simulates 36 game hours of Smallville the first time and opens its cached run at once
after that; here its cache (``runs/demo-smallville.sqlite``) is made first by a 0.1-hour
``simulate`` of the_ville, so the test runs the demo's replay path. Its simulation path is
``simulate`` itself, run here from the table, and its length is checked in
``tests/web/test_demo_cli.py``.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path

import requests
from cli_helpers import REPO
from thinking.fake_server import FakeOpenAIServer, model_answer

from town.thinking.prompting import PromptSet
from web.cli import main

README = REPO / "README.md"
MAX_LINES = 200

#: Lines of the README's code blocks that are not ``python run.py`` commands, and why this test
#: does not run them. Any other such line fails the test, so nothing is skipped unnoticed.
EXCLUDED = {
    "bash scripts/setup.sh": "makes the .venv this test runs in (a plain pip install is tests/test_install.py)",
    "bash scripts/test.sh": "runs this very suite",
    "ollama serve": "Ollama is not installed here; the fake OpenAI server stands in for it at the "
                    "command's --base-url",
    "ollama pull qwen2.5:0.5b-instruct": "downloads a model from Ollama's registry",
}
#: Sub-commands that serve the viewer until stopped ("" is plain `python run.py`: serve).
SERVERS = {"", "serve", "replay", "demo"}
SHORT_HOURS = "0.1"
SHORT_TOWN = {"smallville": "the_ville"}
#: A game time inside a 0.1-hour run of the_ville (it starts 2023-02-13 07:00).
SHORT_AT = "2023-02-13 07:03"


def readme_commands(text: str) -> list[str]:
    """The ``python run.py ...`` commands of the README's code blocks and table rows, in order.

    Raises:
        AssertionError: a code-block line that is neither such a command nor in EXCLUDED.
    """
    commands, in_code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif in_code:
            for part in (p.strip() for p in line.split("&&")):
                if "python run.py" in part:
                    commands.append(part[part.index("python run.py"):])
                elif part:
                    assert part in EXCLUDED, f"README code line {part!r}: not `python run.py`, not in EXCLUDED"
        elif line.startswith("|"):
            commands += re.findall(r"`(python run\.py[^`]*)`", line)
    return commands


def shortened(command: str) -> list[str]:
    """The command's arguments after ``python run.py``, with hours, town and --at made short."""
    argv = shlex.split(command)[2:]
    for i, arg in enumerate(argv[:-1]):
        if arg == "--hours":
            argv[i + 1] = SHORT_HOURS
        elif arg == "--at":
            argv[i + 1] = SHORT_AT
        elif arg == "--town":
            argv[i + 1] = SHORT_TOWN.get(argv[i + 1], argv[i + 1])
    return argv


def _serve_one_page(argv: list[str], cwd: Path) -> None:
    """Start a server command on a free port, fetch the page it prints, stop it with SIGINT."""
    if "--port" not in argv:
        argv = [*(argv or ["serve"]), "--port", "0"]
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), *argv], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**__import__("os").environ, "BROWSER": "true"})  # `true URL`: no browser
    try:
        url = None
        for _ in range(20):
            line = proc.stdout.readline()
            if not line:
                break
            found = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
            if found:
                url = found.group(1)
                break
        assert url, f"{argv}: no URL printed; stderr: {proc.stderr.read()[-2000:]}"
        page = requests.get(url, timeout=60)
        assert page.status_code == 200, (argv, page.status_code)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, 130), (argv, proc.returncode, err[-2000:])


def _with_fake_servers(argv: list[str], servers: list[FakeOpenAIServer], responder) -> list[str]:
    """Each ``--base-url`` pointed at a fake OpenAI server serving the command's ``--model``."""
    model = argv[argv.index("--model") + 1] if "--model" in argv else "fake-model"
    argv = list(argv)
    for i, arg in enumerate(argv[:-1]):
        if arg == "--base-url":
            server = FakeOpenAIServer(responder, model=model, api_key=None)
            servers.append(server)
            argv[i + 1] = server.base_url
    return argv


def test_readme_is_at_most_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, f"README.md has {len(lines)} lines; put detail in docs/"


def _slug(heading: str) -> str:
    """A Markdown heading's anchor as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_in_the_readme_and_docs_lead_somewhere():
    """Every relative link of README.md, ARCHITECTURE.md and docs/*.md names a file that exists,
    and its #anchor a heading in that file."""
    broken = []
    for doc in [README, REPO / "ARCHITECTURE.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists():
                broken.append(f"{doc.name}: {target} (no such file)")
            elif anchor:
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), flags=re.M)
                if anchor not in {_slug(h) for h in headings}:
                    broken.append(f"{doc.name}: {target} (no such heading)")
    assert not broken, broken


def test_every_readme_command_runs(tmp_path, monkeypatch, capsys):
    """Every `python run.py` command of the README runs (shortened as the module says) and ends 0;
    every server prints a URL whose page answers 200."""
    commands = readme_commands(README.read_text(encoding="utf-8"))
    subs = {shlex.split(c)[2] if len(shlex.split(c)) > 2 else "" for c in commands}
    assert {"", "serve", "demo", "simulate", "replay", "evaluate", "study"} <= subs, subs
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOWN_CACHE_DIR", str(tmp_path / "cache"))  # the answer cache, not ~/.cache
    book: dict[str, object] = {}  # rendered prompt -> its question, for the fake model
    lock = threading.Lock()
    render = PromptSet.render

    def recording_render(self, question):
        text = render(self, question)
        with lock:
            book[text] = question
        return text

    monkeypatch.setattr(PromptSet, "render", recording_render)
    assert main(["simulate", "--hours", SHORT_HOURS, "--out", "runs/demo-smallville.sqlite", "--quiet"]) == 0
    for command in commands:
        argv = shortened(command)
        if (argv[0] if argv else "") in SERVERS:
            _serve_one_page(argv, tmp_path)
            continue
        servers: list[FakeOpenAIServer] = []
        try:
            argv = _with_fake_servers(argv, servers, lambda messages: model_answer(book[messages[-1]["content"]]))
            code = main(argv)
        finally:
            for server in servers:
                server.close()
        out = capsys.readouterr()
        assert code == 0, f"{command}\n -> {argv} exited {code}:\n{out.err[-2000:]}"
        if servers:
            assert all(s.counts["chat"] > 0 for s in servers), f"{command}: a server was never asked"


def test_readme_figures_are_those_of_docs_performance():
    """Every figure the README links to docs/performance.md (``[51 s](docs/performance.md#...)``)
    stands in the section it links to, so the two cannot disagree (once the demo was "about 3
    minutes" in one place and 56 s in another, and performance.md said 51 s). A README figure may
    round a decimal down to its whole part (37 s for 37.8 s)."""
    performance = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    sections, current = {}, None
    for line in performance.splitlines():
        if line.startswith("#"):
            current = _slug(line.lstrip("#").strip())
            sections[current] = ""
        elif current is not None:
            sections[current] += line + "\n"
    links = re.findall(r"\[([^\]]*\d[^\]]*)\]\(docs/performance\.md#([^)\s]+)\)", README.read_text(encoding="utf-8"))
    assert len(links) >= 8, links
    wrong = []
    for text, anchor in links:
        for number in re.findall(r"\d[\d,]*(?:\.\d+)?", text):
            if not re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d,])", sections.get(anchor, "")):
                wrong.append(f"{number} ({text!r}) is not in performance.md#{anchor}")
    assert not wrong, wrong
