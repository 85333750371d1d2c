"""The argument parser of the `town` command line: every sub-command's options."""

from __future__ import annotations

import argparse


def add_sim_options(p: argparse.ArgumentParser, town: str = "the_ville") -> None:
    """Add the options that make a simulation (town, config, backend, embedder, overrides) to ``p``;
    ``town`` is the default of ``--town``."""
    p.add_argument("--town", default=town, help=f"town folder or name under personas/ (default {town})")
    p.add_argument("--config", help="TOML configuration file (see town/default.toml)")
    p.add_argument("--seed", type=int, help="random seed (overrides the configuration)")
    p.add_argument("--backend", choices=["scripted", "openai", "local"], help="thinking backend")
    p.add_argument("--embedder", "--embed-backend", dest="embedder", choices=["minilm", "hashing", "openai"],
                   help="sentence embedder; 'openai' uses the server's /embeddings (--embed-model)")
    p.add_argument("--embed-model", help="embedding model on the OpenAI-compatible server")
    m = p.add_argument_group("model backends (--backend openai|local)")
    m.add_argument("--base-url", action="append", help="OpenAI-compatible API root, e.g. "
                   "http://127.0.0.1:8080/v1; give it again for more servers of the same model")
    m.add_argument("--structured", choices=["auto", "json_schema", "json_object_schema", "grammar",
                                            "json_object", "none"],
                   help="how requests carry the answer's JSON schema (default auto: tried at start)")
    m.add_argument("--max-concurrency", metavar="N|auto",
                   help="requests in flight per server (default auto: the slots it reports, else 1)")
    m.add_argument("--run-ahead", action="store_true", help="personas who cannot affect each other run ahead, "
                   "so more requests are in flight (schedule = run-ahead; ARCHITECTURE.md)")
    m.add_argument("--model", help="model name the server knows (openai backend)")
    m.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the API key "
                   "(default OPENAI_API_KEY; the key is never written anywhere)")
    m.add_argument("--prompts", metavar="DIR", help="folder of <question>.j2 templates overriding the packaged ones")
    m.add_argument("--no-cache", action="store_true", help="do not use the cache of resolved answers")
    m.add_argument("--model-path", metavar="FILE.gguf", help="GGUF model file (local backend)")
    p.add_argument("--ablate", metavar="PARTS",
                   help="switch parts off, comma-separated: reflection, planning, observation "
                        "(Park et al. 2023 §6.2's ablations); the config key `ablate`")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a configuration key, e.g. --set retrieval.k=5 (repeatable)")


def add_model_choice(p: argparse.ArgumentParser) -> None:
    """Add the options naming a model that answers questions about a recorded run: without them the
    scripted backend answers (a run file's stored backend is shown, never contacted)."""
    m = p.add_argument_group("asking a model (default: the scripted backend; a run file's backend is never used)")
    m.add_argument("--backend", choices=["scripted", "openai", "local"],
                   help="answer with this backend (default scripted; --base-url alone means openai)")
    m.add_argument("--model", help="model name on the OpenAI-compatible server (default: the name the run records)")
    m.add_argument("--base-url", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1")
    m.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the API key "
                   "(default OPENAI_API_KEY; never the run file's)")


def add_continuing_model(p: argparse.ArgumentParser) -> None:
    """Add the options naming the model a resume or fork goes on with: a run made with a model is
    refused without them (a run file's base URL and key variable are never used)."""
    m = p.add_argument_group("going on with a model (a run file's base URL and key variable are never used)")
    m.add_argument("--backend", choices=["scripted", "openai"],
                   help="go on with this backend (a model run needs it, or --base-url; default: the run's scripted one)")
    m.add_argument("--base-url", action="append", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1; "
                   "give it again for more servers of the same model")
    m.add_argument("--model", help="model name on the server (default: the name the run records)")
    m.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the API key "
                   "(default OPENAI_API_KEY; never the run file's)")


def add_study_options(p: argparse.ArgumentParser) -> None:
    """Add what `study` and `sweep` share: hours, seeds, workers, the folder, quiet."""
    p.add_argument("--hours", type=float, required=True, help="game hours per run")
    p.add_argument("--seeds", type=int, default=1, metavar="N",
                   help="seeds per condition, 1 to 1,000: --seed (default the config's) and the N-1 after it (default 1)")
    p.add_argument("--workers", default="1", metavar="N|ray|ray://HOST:PORT",
                   help="N local processes (default 1: this one), or Ray: 'ray' joins this machine's cluster "
                        "(ray start), ray://HOST:PORT a head node's client port; needs pip install 'town[ray]'")
    p.add_argument("--out", required=True, help="folder for the runs and study.json, study-timing.json, "
                                                "study.md, study.png (shared by every machine with Ray)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def build_parser(add_commands=None) -> argparse.ArgumentParser:
    """The argument parser of all sub-commands.

    Args:
        add_commands: ``add_commands(subparsers)`` adds more sub-commands first (the viewer's
            ``serve`` and ``replay`` come from ``web.cli``: the engine never imports the web layer).
    """
    parser = argparse.ArgumentParser(
        prog="town", description="A generative-agents town you can watch, replay and inspect.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    sub = parser.add_subparsers(dest="command")
    if add_commands is not None:
        add_commands(sub)

    s = sub.add_parser("simulate", help="simulate a town for some game hours, recording a run")
    add_sim_options(s)
    s.add_argument("--hours", type=float, required=True, help="game hours to simulate")
    s.add_argument("--out", required=True, help="run file to write (.sqlite)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--whisper", action="append", default=[], metavar='"PERSONA: text"',
                   help="whisper a thought to a persona (its id or full name) at the start, as the viewer's whisper box "
                        "does (repeatable)")

    s = sub.add_parser("resume", help="continue a run from its last snapshot for more game hours")
    s.add_argument("run", help="run file")
    s.add_argument("--hours", type=float, required=True, help="game hours to add after the snapshot")
    add_continuing_model(s)
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    s = sub.add_parser("fork", help="start a new run from a saved snapshot of another")
    s.add_argument("run", help="parent run file")
    s.add_argument("--at", required=True, help='game time, e.g. "2023-02-14 09:00" (newest snapshot at or before; '
                   "not after the end of the run's last tick)")
    s.add_argument("--out", required=True, help="new run file")
    s.add_argument("--seed", type=int, help="another seed from the fork on")
    s.add_argument("--config", help="another TOML configuration from the fork on")
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a key")
    s.add_argument("--hours", type=float, help="game hours to simulate after the fork (default: to the end of "
                   "the parent run)")
    add_continuing_model(s)
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    s = sub.add_parser("stats", help="model calls and tokens of a run, per persona per game hour and per template")
    s.add_argument("run", help="run file")

    s = sub.add_parser("inspect", help="print retrieval traces of a recorded run")
    s.add_argument("run", help="run file")
    s.add_argument("--persona", required=True, help="persona id or full name")
    s.add_argument("--last", type=int, default=3, help="the last N retrievals, 1 to 1,000,000 (default 3)")
    s.add_argument("--at", help='game time, e.g. "2023-02-13 12:00": show the last N up to then')
    s.add_argument("--purpose", help="only this purpose: act, chat, plan_day, plan_events, react or reflect")

    s = sub.add_parser("interview", help="ask a persona of a recorded run a question, from its memory as of a time")
    s.add_argument("run", help="run file")
    s.add_argument("--persona", required=True, help="persona id or full name")
    s.add_argument("--at", help='game time, e.g. "2023-02-14 12:00" (default: the end of the run)')
    add_model_choice(s)
    s.add_argument("question", help='e.g. "Do you know about a party?"')

    s = sub.add_parser("evaluate", help="interview every persona: diffusion, relationship density, "
                                         "attendance and cost of a run")
    s.add_argument("run", help="run file")
    s.add_argument("--out", help="folder for report.json and the PNG plots (default <run>.evaluation/)")
    s.add_argument("--every", type=float, default=12.0, metavar="HOURS",
                   help="game hours between diffusion samples, besides the start and the end (default 12)")
    s.add_argument("--interview", action="store_true",
                   help="also list every persona's answer to each probe's question at the end")
    s.add_argument("--battery", action="store_true",
                   help="ask every persona the interview battery (5 categories x 5 questions), grade "
                        "the answers against the run and write battery.json")
    s.add_argument("--at", help="battery: interview time (default: the run's middle, on the hour)")
    add_model_choice(s)

    s = sub.add_parser("compare", help="two runs side by side: first diverging tick, diffusion and density "
                                       "over time, attendance, plans, retrieval overlap, cost; or two study folders")
    s.add_argument("run_a", help="run file A (e.g. a run), or study folder A")
    s.add_argument("run_b", help="run file B (e.g. its fork), or study folder B")
    s.add_argument("--json", metavar="FILE", help="also write the full comparison as JSON")
    add_model_choice(s)

    s = sub.add_parser("study", help="the paper's controlled study: each condition with N seeds, interviewed, "
                                     "graded, mean and 95%% interval per measure (Park et al. 2023 §6)")
    add_sim_options(s)
    s.add_argument("--conditions", default="full,no-reflection,no-reflection-planning,"
                                           "no-observation-reflection-planning",
                   help="comma-separated: full, or no- and parts joined by '-' (default: the paper's four)")
    add_study_options(s)
    s.add_argument("--judge-base-url", help="OpenAI-compatible API root of a judge model (optional)")
    s.add_argument("--judge-model", help="the judge model's name")
    s.add_argument("--judge-api-key-env", default="OPENAI_API_KEY", metavar="VAR",
                   help="environment variable holding the judge's API key (default OPENAI_API_KEY)")

    s = sub.add_parser("sweep", help="every combination of config values, each with N seeds, measured like a study")
    add_sim_options(s)
    s.add_argument("--vary", action="append", default=[], required=True, metavar="KEY=JSON_LIST",
                   help="a config key and its values, e.g. 'retrieval.weights=[[1,1,1],[1,0,1],[0,0,1]]' "
                        "(repeatable: every combination runs)")
    add_study_options(s)

    s = sub.add_parser("generate", help="write a new town folder of N generated residents (no model needed)")
    s.add_argument("--personas", type=int, required=True, metavar="N", help="number of residents")
    s.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    s.add_argument("--out", required=True, help="the new town folder, e.g. personas/big_town")
    s.add_argument("--force", action="store_true", help="replace the files of an existing town folder")
    return parser
