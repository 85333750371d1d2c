#!/usr/bin/env bash
# The full test suite, from a fresh clone: set up (.venv, test tools, chromium), start a real
# OpenAI-compatible model server for the real-model test (llama.cpp + SmolLM2-135M on loopback;
# its first build takes about 400 s, then pip's cache makes it seconds), run pytest.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k memory`.
# The model server is this clone's own (pid, port and log in .town-test/, port chosen free), so
# two clones testing at once never share or stop each other's server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
# types first: mypy (check_untyped_defs, config in pyproject.toml) over town/ fails fast, before a
# model server is started for nothing
.venv/bin/python -m mypy
if [ "${TOWN_SKIP_MODEL_SERVER:-0}" != 1 ]; then
  pidfile="${TOWN_LLAMA_STATE:-$PWD/.town-test}/llama-server.pid"
  already=""
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then already=1; fi
  if server_env="$(bash scripts/ci_llama_server.sh)"; then
    eval "$server_env"
    # stop this clone's model server when the tests end, unless it was running before
    if [ -z "$already" ]; then trap 'kill "$(cat "$pidfile")" 2>/dev/null || true' EXIT; fi
  else
    echo "test.sh: the llama.cpp model server could not be started" >&2
  fi
fi
export TOWN_TEST_ARTIFACTS="${TOWN_TEST_ARTIFACTS:-test-artifacts}"
.venv/bin/python -m pytest "$@"
